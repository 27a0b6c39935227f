// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "widgets",
    products: [
        // What a widget author depends on: `import WidgetKit` (and `import SwiftUI`, for iOS view files).
        .library(name: "WidgetKit", targets: ["WidgetKit", "SwiftUI"]),
        // The host runtime, for programs that embed the host.
        .library(name: "WidgetHost", targets: ["WidgetHost"]),
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
        // The wire format both sides share: JSON, view trees, timelines. Embedded in the host and in
        // every bundle; no Swift value ever crosses the boundary, only its bytes.
        .target(name: "WidgetWire"),
        // The SDK widget authors import.
        .target(name: "WidgetKit", dependencies: ["CWidgetABI", "WidgetWire"]),
        .target(name: "SwiftUI", dependencies: ["WidgetKit"]),
        // The host runtime: loading, validation, requests.
        // The memory guard: replaces the malloc family in every executable that embeds the host.
        .target(name: "CMemoryGuard"),
        // glibc calls declared only under _GNU_SOURCE (accept4, pipe2, closefrom for posix_spawn).
        .target(name: "CHostShims"),
        .target(name: "WidgetHost", dependencies: ["CWidgetABI", "WidgetWire", "CMemoryGuard", "CHostShims"]),
        .executableTarget(name: "widgets", dependencies: ["WidgetHost", "WidgetWire"]),
        .executableTarget(
            name: "widgets-bench", dependencies: ["WidgetHost", "WidgetKit", "WidgetWire", "CWidgetABI", "CMemoryGuard"]),

        // Samples.
        .target(name: "GameData", dependencies: ["WidgetKit"], path: "Plugins/Game/Data"),
        .target(name: "GameWidgets", dependencies: ["WidgetKit", "GameData"], path: "Plugins/Game/Widgets"),
        .executableTarget(name: "GameApp", dependencies: ["GameData", "WidgetKit"], path: "Plugins/Game/App"),
        .target(name: "SystemWidgets", dependencies: ["WidgetKit"], path: "Plugins/System"),
        .target(name: "CryptoWidgets", dependencies: ["WidgetKit"], path: "Plugins/Crypto", exclude: ["prices.json"]),

        .target(name: "FaultWidgets", dependencies: ["WidgetKit"], path: "Tests/FaultBundle"),
        .testTarget(name: "WidgetKitTests", dependencies: ["WidgetKit", "WidgetWire", "CWidgetABI"]),
        // Goldens/ holds the renderers' expected output, read by the tests from the source tree.
        .testTarget(name: "WidgetHostTests", dependencies: ["WidgetHost", "WidgetWire", "CMemoryGuard"], exclude: ["Goldens"]),
    ],
    swiftLanguageModes: [.v6]
)
