// swift-tools-version: 6.2
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The toolchain's `lib/swift/host`: swift-syntax's libraries, which the SDK's macros (`#Preview`) are
/// built against (no package needed). Found from the manifest's own PackageDescription library,
/// which is the toolchain's, else from the `swift` on PATH.
let toolchainHostLibraries: String = {
    let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
    for line in maps.split(separator: "\n") {
        guard let range = line.range(of: "/lib/swift/pm/ManifestAPI/libPackageDescription.so") else { continue }
        guard let start = line.firstIndex(of: "/") else { continue }
        return String(line[start..<range.lowerBound]) + "/lib/swift/host"
    }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
        guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
        return swift.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/swift/host").path
    }
    return "/usr/lib/swift/host"
}()
/// Compiling against those modules, and linking with those libraries (found there when run).
let swiftSyntaxModules: [SwiftSetting] = [.unsafeFlags(["-I", toolchainHostLibraries])]
let swiftSyntaxLibraries: [LinkerSetting] = [.unsafeFlags(["-L", toolchainHostLibraries, "-Xlinker", "-rpath", "-Xlinker", toolchainHostLibraries])]

/// Every Swift target's code, the SDK's and the samples' included, reaches the metadata of concrete
/// generic types (a `[String: [String]]`, a view's `ModifiedContent<Text, _PaddingLayout>`) through
/// accessor functions, not through their mangled names: a mangled name is demangled at its first use
/// and its conformances looked up by scanning every loaded library's conformance records, Foundation's
/// thousands included. A short command such as `widgets list` spent a good part of its time on that,
/// and every worker again after forking (loading a bundle empties the runtime's conformance cache):
/// the SDK's code and the widgets' are in each bundle, so each bundle's first use of each of its 800
/// call sites did (docs/BENCHMARKS.md, cold listing). `widgets build` compiles an extension likewise
/// (WidgetSDK.compilerFlags). Applied below, by the loop after the last target.
let metadataAccessors = ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]

/// The index a debug build writes (for editors and SwiftPM's test discovery) leaves out the system's
/// modules: to index them the compiler compiles the standard library's `_Concurrency`,
/// `_StringProcessing`, `Glibc` and `Synchronization` from their interfaces (about 5 s of CPU), where
/// the toolchain's compiled modules would do. (The two targets SwiftPM makes for the test runner take
/// no settings, and still do it once, at the end of the debug build.)
let indexOwnModulesOnly = ["-index-ignore-system-modules"]

/// FoundationEssentials' static archives, named (a group, for a linker that reads archives in order):
/// `widgets` is built on FoundationEssentials alone, without Foundation's ICU (its 30 MB of tables).
let staticFoundationEssentials: [String] = (["--start-group"]
    + ["FoundationEssentials", "_FoundationCShims", "_FoundationCollections"].map { "-l" + $0 } + ["--end-group"])
    .flatMap { ["-Xlinker", $0] }

let package = Package(
    name: "widgets",
    products: [
        // What a widget author depends on: `import WidgetKit`, and the modules iOS widget code also
        // imports (`SwiftUI`, `AppIntents`, `Intents`, `OSLog`/`os`, `UIKit` for `UIImage`), so it compiles unchanged.
        .library(name: "WidgetKit", targets: ["WidgetKit", "SwiftUI", "AppIntents", "Intents", "ActivityKit", "OSLog", "os", "UIKit", "CoreGraphics", "CoreLocation", "Charts", "FoundationAdditions", "PlatformShims", "Combine"]),
        // The host runtime, for programs that embed the host, and the renderers, for programs that draw.
        .library(name: "WidgetHost", targets: ["WidgetHost"]),
        .library(name: "WidgetRendering", targets: ["WidgetRendering"]),
        .library(name: "WidgetWeb", targets: ["WidgetWeb"]),
        .executable(name: "widgets", targets: ["widgets"]),
        .executable(name: "widgets-worker", targets: ["widgets-worker"]),
        // Sample bundles: each a shared object installed into widgets.d/.
        .library(name: "GameWidgets", type: .dynamic, targets: ["GameWidgets"]),
        .library(name: "SystemWidgets", type: .dynamic, targets: ["SystemWidgets"]),
        .library(name: "CryptoWidgets", type: .dynamic, targets: ["CryptoWidgets"]),
        .executable(name: "game-app", targets: ["GameApp"]),
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
        .target(name: "WidgetSupport", dependencies: ["WidgetWire", "CHostShims"]),
        // The SDK widget authors import, and its C part, compiled into each bundle: the entry of a bundle
        // marked `@main`, and the walk over its previews.
        .target(name: "WidgetKit", dependencies: ["CWidgetABI", "CWidgetKit", "WidgetABI", "WidgetWire", "WidgetKitMacros", "PlatformShims", "Combine"]),
        // What Darwin declares that widget code uses and Linux lacks (NSEC_PER_SEC, DispatchSerialQueue,
        // RelativeDateTimeFormatter...): brought by WidgetKit, and imported into every file `widgets build` compiles.
        .target(name: "PlatformShims"),
        // The part of Apple's Combine widget and app code uses (publishers, subjects, sink, the common
        // operators, @Published, URLSession and Timer publishers): Linux has none.
        .target(name: "Combine"),
        .target(name: "CWidgetKit", dependencies: ["CWidgetABI"]),
        // `#Preview`, against the toolchain's own swift-syntax: the expansions in a library, the compiler plugin
        // around them. The tests take the library, not the macro. A test that depends on a macro makes SwiftPM
        // build every test's dependencies a second time, for the host (the "-tool" modules): that doubled every
        // build, `make run` included, as all tests share one test product.
        .target(
            name: "WidgetKitMacroExpansions",
            swiftSettings: swiftSyntaxModules),
        .macro(
            name: "WidgetKitMacros", dependencies: ["WidgetKitMacroExpansions"],
            swiftSettings: swiftSyntaxModules,
            linkerSettings: swiftSyntaxLibraries),
        // Modules iOS widget files import, each bringing the SDK (or its part) with it.
        .target(name: "SwiftUI", dependencies: ["WidgetKit"]),
        .target(name: "AppIntents", dependencies: ["WidgetKit"]),
        .target(name: "Intents", dependencies: ["WidgetKit", "CoreLocation"]),
        .target(name: "ActivityKit", dependencies: ["WidgetKit"]),
        .target(name: "OSLog", dependencies: ["WidgetWire"]),
        .target(name: "os", dependencies: ["OSLog"]),
        .target(name: "UIKit", dependencies: ["WidgetKit"]),
        .target(name: "CoreGraphics", dependencies: ["WidgetKit"]),
        .target(name: "CoreLocation", dependencies: ["WidgetWire"]),
        // Foundation's names Linux's lacks and the SDK has, imported into every file `widgets build` compiles.
        .target(name: "FoundationAdditions", dependencies: ["WidgetKit"]),
        // Swift Charts' marks, drawn with the SDK's shapes and texts.
        .target(name: "Charts", dependencies: ["SwiftUI"]),
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
        // The home screen in a browser: the project's own HTTP/1.1 server on POSIX sockets, Server-Sent
        // Events, and the page, fed by a running host.
        .target(
            name: "WidgetWeb", dependencies: ["WidgetHost", "WidgetABI", "WidgetRendering", "WidgetSupport", "WidgetTimelines", "WidgetWire", "CHostShims"],
            // The home screen's page, script and style, in the program as bytes.
            resources: [
                .embedInCode("Page/home.html"), .embedInCode("Page/home.js"), .embedInCode("Page/home.css"), .embedInCode("Page/favicon.svg"),
            ]),
        // `widgets desktop`: the widgets on the desktop, a Wayland layer-shell surface. The C part speaks
        // Wayland through libwayland-client loaded with dlopen (no Wayland header or library to build).
        .target(name: "CWayland"),
        // And on X11: a desktop window, through libxcb loaded with dlopen likewise.
        .target(name: "CX11"),
        .target(name: "WidgetDesktop", dependencies: ["CWayland", "CX11", "WidgetRendering", "WidgetSupport", "WidgetWire"]),
        // `widgets build`: an iOS widget extension (a folder, or an Xcode project's target) read, its
        // resources compiled, its code generated and compiled against the SDK already built.
        .target(name: "WidgetBuild", dependencies: ["WidgetABI", "WidgetSupport", "WidgetWire"]),
        // The CLI's commands, options and output, in a library the tests import; `widgets` is its main.
        .target(
            name: "WidgetsCommandLine",
            dependencies: [
                "WidgetHost", "WidgetRendering", "WidgetTimelines", "WidgetSupport", "WidgetABI", "WidgetWire", "WidgetWeb", "WidgetBuild", "WidgetDesktop",
            ]),
        // `widgets` has the Swift runtime and FoundationEssentials linked in: a command starts in about
        // 3 ms, not 9 (no shared library's symbols to bind), and none of its code imports Foundation,
        // so ICU is not in it. A Swift bundle links the shared runtime and all of Foundation, and a
        // process holds one runtime, so bundles are loaded by `widgets-worker`, the same program linked
        // the usual way (with Foundation's run loop lent to its workers): every worker, and the CLI
        // itself under `--isolation queue`. Linked by the toolchain's lld.
        .executableTarget(
            name: "widgets", dependencies: ["WidgetsCommandLine", "WidgetHost"],
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld"] + staticFoundationEssentials)]),
        .executableTarget(name: "widgets-worker", dependencies: ["WidgetsCommandLine", "WidgetHost"]),

        // Samples.
        .target(name: "GameData", dependencies: ["WidgetKit"], path: "Plugins/Game/Data"),
        .target(name: "GameWidgets", dependencies: ["WidgetKit", "SwiftUI", "ActivityKit", "AppIntents", "GameData"], path: "Plugins/Game/Widgets"),
        .executableTarget(name: "GameApp", dependencies: ["GameData", "WidgetKit"], path: "Plugins/Game/App"),
        .target(name: "SystemWidgets", dependencies: ["WidgetKit"], path: "Plugins/System"),
        .target(name: "CryptoWidgets", dependencies: ["WidgetKit"], path: "Plugins/Crypto"),
    ],
    swiftLanguageModes: [.v6]
)

// The tests and what only they use (the fault bundle, WidgetTestSupport). `make build`, which `make run` and
// `make install` build in release, sets WIDGETS_PRODUCTS_ONLY=1 to leave them out: `swift build` compiles
// every target of the package, and these were about 15 s of CPU in it.
if Context.environment["WIDGETS_PRODUCTS_ONLY"] != "1" {
    // A test fixture: a Swift bundle that calls fatalError (see Tests/FaultBundle).
    package.products.append(.library(name: "FaultWidgets", type: .dynamic, targets: ["FaultWidgets"]))
    package.targets += [
        .target(name: "FaultWidgets", dependencies: ["WidgetKit"], path: "Tests/FaultBundle"),
        // What the tests share: the fixture bundles (built once per run), running the CLI, helpers.
        .target(name: "WidgetTestSupport", dependencies: ["WidgetSupport", "CHostShims"], path: "Tests/Support"),
        // A test target per module; rendering tests build no fixture bundles.
        .testTarget(name: "WidgetWireTests", dependencies: ["WidgetWire"]),
        .testTarget(name: "CoreLocationTests", dependencies: ["CoreLocation"]),
        .testTarget(name: "ChartsTests", dependencies: ["Charts", "WidgetKit", "WidgetRendering", "WidgetWire"]),
        .testTarget(name: "WidgetABITests", dependencies: ["WidgetABI", "WidgetWire", "CWidgetABI", "WidgetTestSupport"]),
        .testTarget(name: "WidgetSupportTests", dependencies: ["WidgetSupport", "WidgetTestSupport"]),
        .testTarget(name: "WidgetTimelinesTests", dependencies: ["WidgetTimelines", "WidgetSupport", "WidgetWire", "WidgetTestSupport"]),
        // Goldens/ holds the renderers' expected output, read by the tests from the source tree.
        .testTarget(
            name: "WidgetRenderingTests", dependencies: ["WidgetRendering", "WidgetTimelines", "WidgetSupport", "WidgetWire", "WidgetTestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "WidgetKitTests", dependencies: ["WidgetKit", "WidgetABI", "WidgetWire", "CWidgetABI", "WidgetTestSupport"]),
        // The macros, expanded by the toolchain's own expansion library (its test support is not shipped).
        .testTarget(
            name: "WidgetKitMacrosTests", dependencies: ["WidgetKitMacroExpansions"],
            swiftSettings: swiftSyntaxModules,
            linkerSettings: swiftSyntaxLibraries),
        .testTarget(
            name: "WidgetHostTests",
            dependencies: [
                "WidgetHost", "WidgetABI", "WidgetWire", "WidgetSupport", "WidgetTimelines", "WidgetRendering", "CWidgetABI", "CMemoryGuard",
                "WidgetTestSupport",
            ]),
        .testTarget(
            name: "WidgetsCLITests",
            dependencies: ["WidgetsCommandLine", "WidgetHost", "WidgetABI", "WidgetWire", "WidgetTimelines", "WidgetRendering", "WidgetDesktop", "WidgetBuild", "WidgetTestSupport"]),
        .testTarget(name: "WidgetBuildTests", dependencies: ["WidgetBuild", "WidgetWire", "WidgetTestSupport"]),
        .testTarget(name: "CombineTests", dependencies: ["Combine"]),
        // The HTTP server with bad input, and the home screen through a real client and a real browser.
        .testTarget(name: "WidgetWebTests", dependencies: ["WidgetWeb", "WidgetHost", "WidgetRendering", "WidgetWire", "WidgetTestSupport"]),
    ]
}

// The benchmarks (`make bench`, which sets WIDGETS_BENCH=1) are a target only when asked for. They are no
// part of what users build, and as the module that depends on nearly all others they compiled last and
// alone: about 13 s at the end of `make run`'s release build, and more in `make test`'s.
if Context.environment["WIDGETS_BENCH"] == "1" {
    package.targets.append(
        .executableTarget(
            name: "widgets-bench",
            dependencies: [
                "WidgetHost", "WidgetRendering", "WidgetTimelines", "WidgetSupport", "WidgetKit", "WidgetABI", "WidgetWire", "WidgetWeb", "CWidgetABI",
                "CMemoryGuard", "WidgetBuild",
                // The headless compositor of the desktop surface's test, for its figures.
                "WidgetTestSupport",
                // Not used by the benchmark itself: the SDK `widgets build` compiles against, in the release build directory.
                "SwiftUI", "AppIntents", "Intents", "ActivityKit", "OSLog", "os", "UIKit", "CoreGraphics", "CoreLocation", "Charts", "FoundationAdditions", "Combine", "PlatformShims",
            ]))
}

// The settings every Swift target shares (see metadataAccessors and indexOwnModulesOnly); the tests' code
// and the macro's, which no worker loads, need no accessors. (SwiftPM gives a C target's compiler no Swift
// settings.)
for target in package.targets {
    let flags = target.type == .test || target.type == .macro ? indexOwnModulesOnly : metadataAccessors + indexOwnModulesOnly
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(flags)]
}

/// Code that runs once per command, where the time is another program's or the user's: `widgets build`
/// (its time is the compiler's) and the CLI's commands, options and output (the host's work, drawing and
/// serving are in WidgetHost, WidgetRendering, WidgetWeb and WidgetDesktop, which stay optimized). The
/// SIL optimizer spent 59-69 s of CPU on these two in the release build, a fifth of it, for nothing a
/// user could see: compiled unoptimized in release too, they take 15-19 s (docs/BENCHMARKS.md, the
/// set-up commands). A bundle's code and the SDK's are never compiled so.
let unoptimizedInRelease: Set<String> = ["WidgetBuild", "WidgetsCommandLine"]
for target in package.targets where unoptimizedInRelease.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
}
