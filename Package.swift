// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "widgets",
    products: [
        // What a widget author depends on: `import WidgetKit` (and `import SwiftUI`, for iOS view files).
        .library(name: "WidgetKit", targets: ["WidgetKit", "SwiftUI"]),
        // The host runtime, for programs that embed the host, and the renderers, for programs that draw.
        .library(name: "WidgetHost", targets: ["WidgetHost"]),
        .library(name: "WidgetRendering", targets: ["WidgetRendering"]),
        .executable(name: "widgets", targets: ["widgets"]),
        // Sample bundles: each a shared object installed into widgets.d/.
        .library(name: "GameWidgets", type: .dynamic, targets: ["GameWidgets"]),
        .library(name: "SystemWidgets", type: .dynamic, targets: ["SystemWidgets"]),
        .library(name: "CryptoWidgets", type: .dynamic, targets: ["CryptoWidgets"]),
        .executable(name: "game-app", targets: ["GameApp"]),
        // A test fixture: a Swift bundle that calls fatalError (see Tests/FaultBundle).
        .library(name: "FaultWidgets", type: .dynamic, targets: ["FaultWidgets"]),
    ],
    targets: [
        // The plugin ABI: one C header, the whole contract between host and bundle.
        .target(name: "CWidgetABI"),
        // The wire format both sides share: JSON, view trees, timelines, configuration, the control
        // socket's requests. Embedded in the host and in every bundle; no Swift value ever crosses
        // the boundary, only its bytes.
        .target(name: "WidgetWire"),
        // The C header's values as Swift values, in one place; struct sizes; text from a bundle.
        .target(name: "WidgetABI", dependencies: ["CWidgetABI", "WidgetWire"]),
        // What every layer of the host uses: clocks and timers, a heap, locks, logging, formatting.
        .target(name: "WidgetSupport"),
        // The SDK widget authors import.
        .target(name: "WidgetKit", dependencies: ["CWidgetABI", "WidgetABI", "WidgetWire"]),
        .target(name: "SwiftUI", dependencies: ["WidgetKit"]),
        // The system's half of WidgetKit: timelines, reload policies, the budget, instance status.
        .target(name: "WidgetTimelines", dependencies: ["WidgetSupport", "WidgetWire"]),
        // Layout and drawing: terminal, SVG, plain text, the dashboard. No host, no memory guard.
        .target(name: "WidgetRendering", dependencies: ["WidgetSupport", "WidgetTimelines", "WidgetWire"]),
        // The memory guard: replaces the malloc family in every executable that embeds the host.
        .target(name: "CMemoryGuard"),
        // glibc calls declared only under _GNU_SOURCE (accept4, pipe2, closefrom for posix_spawn).
        .target(name: "CHostShims"),
        // The host runtime: loading, execution (in process or in workers), the daemon.
        .target(
            name: "WidgetHost",
            dependencies: ["CWidgetABI", "WidgetABI", "WidgetWire", "WidgetSupport", "WidgetTimelines", "CMemoryGuard", "CHostShims"]),
        .executableTarget(name: "widgets", dependencies: ["WidgetHost", "WidgetRendering", "WidgetTimelines", "WidgetSupport", "WidgetABI", "WidgetWire"]),
        .executableTarget(
            name: "widgets-bench",
            dependencies: ["WidgetHost", "WidgetRendering", "WidgetTimelines", "WidgetSupport", "WidgetKit", "WidgetABI", "WidgetWire", "CWidgetABI", "CMemoryGuard"]),

        // Samples.
        .target(name: "GameData", dependencies: ["WidgetKit"], path: "Plugins/Game/Data"),
        .target(name: "GameWidgets", dependencies: ["WidgetKit", "GameData"], path: "Plugins/Game/Widgets"),
        .executableTarget(name: "GameApp", dependencies: ["GameData", "WidgetKit"], path: "Plugins/Game/App"),
        .target(name: "SystemWidgets", dependencies: ["WidgetKit"], path: "Plugins/System"),
        .target(name: "CryptoWidgets", dependencies: ["WidgetKit"], path: "Plugins/Crypto", exclude: ["prices.json"]),

        .target(name: "FaultWidgets", dependencies: ["WidgetKit"], path: "Tests/FaultBundle"),
        // What the tests share: the fixture bundles (built once per run), running the CLI, helpers.
        .target(name: "WidgetTestSupport", path: "Tests/Support"),
        // A test target per module; rendering tests build no fixture bundles.
        .testTarget(name: "WidgetWireTests", dependencies: ["WidgetWire"]),
        .testTarget(name: "WidgetABITests", dependencies: ["WidgetABI", "WidgetWire", "CWidgetABI", "WidgetTestSupport"]),
        .testTarget(name: "WidgetSupportTests", dependencies: ["WidgetSupport", "WidgetTestSupport"]),
        .testTarget(name: "WidgetTimelinesTests", dependencies: ["WidgetTimelines", "WidgetSupport", "WidgetWire", "WidgetTestSupport"]),
        // Goldens/ holds the renderers' expected output, read by the tests from the source tree.
        .testTarget(
            name: "WidgetRenderingTests", dependencies: ["WidgetRendering", "WidgetTimelines", "WidgetSupport", "WidgetWire", "WidgetTestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "WidgetKitTests", dependencies: ["WidgetKit", "WidgetABI", "WidgetWire", "CWidgetABI"]),
        .testTarget(
            name: "WidgetHostTests",
            dependencies: [
                "WidgetHost", "WidgetABI", "WidgetWire", "WidgetSupport", "WidgetTimelines", "WidgetRendering", "CWidgetABI", "CMemoryGuard",
                "WidgetTestSupport",
            ]),
        .testTarget(name: "WidgetsCLITests", dependencies: ["widgets", "WidgetHost", "WidgetABI", "WidgetWire", "WidgetTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
