import FoundationEssentials
import Glibc
import WidgetABI
import WidgetSupport

/// The SDK already built, which `widgets build` compiles an extension's files against instead of
/// building it again: the Swift modules widget code imports, the two C modules under them, the
/// objects every bundle links (each bundle embeds its own copy of the SDK, as a bundle built by
/// SwiftPM does), and the `#Preview` macro's plugin.
///
/// Two layouts hold it. A checkout's build directory (`.build/debug` or `.build/release`, beside the
/// `widgets` built there) as SwiftPM leaves it; and an installed one, `PREFIX/lib/widgets/sdk`, which
/// `widgets sdk --install DIR` writes from the first (`make install` runs it):
///
///     sdk/Modules/NAME.swiftmodule         the Swift modules
///     sdk/include/CWidgetABI/              module.modulemap and widget_abi.h
///     sdk/include/CWidgetKit/              module.modulemap and widgetkit_support.h
///     sdk/lib/NAME-FILE.o                  the objects
///     sdk/bin/WidgetKitMacros-tool         the macro plugin
///     sdk/toolchain                        the compiler that built it ("swift-6.3.1")
public struct WidgetSDK: Sendable {
    /// The SDK's Swift modules, in the order their objects are linked. A bundle's module may not
    /// take one of these names.
    public static let swiftModules = [
        "WidgetKit", "SwiftUI", "AppIntents", "Intents", "ActivityKit", "OSLog", "os", "UIKit", "CoreGraphics", "CoreLocation", "Charts", "FoundationAdditions", "Combine", "PlatformShims", "WidgetABI", "WidgetWire",
    ]
    static let cModules = ["CWidgetABI", "CWidgetKit"]
    static let macroTool = "WidgetKitMacros-tool"
    static let macroModule = "WidgetKitMacros"

    public let root: String
    public let isInstalled: Bool
    public let moduleDirectory: String
    public let moduleMaps: [String]
    public let objects: [String]
    public let macroPlugin: String
    /// The compiler that built it, as a bundle records it (`Toolchain.current`).
    public let toolchain: String

    /// Where the SDK is, for a `widgets` at `executable`: `$WIDGETS_SDK` when set; else the build
    /// directory it was built in (a checkout); else `PREFIX/lib/widgets/sdk` of an installed one.
    public static func locate(executable: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(BuildError) -> WidgetSDK {
        if let given = environment["WIDGETS_SDK"], !given.isEmpty { return try installed(at: given) }
        let directory = executable.pathDirectory
        if FileManager.default.fileExists(atPath: directory + "/Modules/WidgetKit.swiftmodule") { return try buildDirectory(directory) }
        let parent = directory.pathDirectory
        let library = directory.pathFileName == "bin" ? (parent == "/" ? "" : parent) + "/lib/widgets" : directory
        let installedRoot = library + "/sdk"
        guard FileManager.default.fileExists(atPath: installedRoot) else {
            throw BuildError(
                "no SDK to build against: neither a build directory (\(directory)/Modules/WidgetKit.swiftmodule) nor an installed SDK (\(installedRoot)); "
                    + "build this repository ('swift build' or 'make build') and run its widgets, or 'make install', or set WIDGETS_SDK")
        }
        return try installed(at: installedRoot)
    }

    /// The SDK as SwiftPM left it in a build directory.
    public static func buildDirectory(_ directory: String) throws(BuildError) -> WidgetSDK {
        var objects: [String] = []
        for module in swiftModules + cModules {
            let folder = directory + "/" + module + ".build"
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".o") }.sorted()
            guard !names.isEmpty else {
                throw BuildError("the SDK in \(directory) is not built: \(folder) holds no objects; run 'swift build' in the checkout first")
            }
            objects += names.map { folder + "/" + $0 }
        }
        for module in swiftModules where !FileManager.default.fileExists(atPath: "\(directory)/Modules/\(module).swiftmodule") {
            throw BuildError("the SDK in \(directory) is not built: \(directory)/Modules/\(module).swiftmodule is missing; run 'swift build' in the checkout first")
        }
        let sdk = WidgetSDK(
            root: directory, isInstalled: false, moduleDirectory: directory + "/Modules",
            moduleMaps: cModules.map { "\(directory)/\($0).build/module.modulemap" }, objects: objects,
            macroPlugin: directory + "/" + macroTool, toolchain: Toolchain.current)
        try sdk.checkFiles()
        return sdk
    }

    /// The SDK installed at `root` (the layout above).
    public static func installed(at root: String) throws(BuildError) -> WidgetSDK {
        let lib = root + "/lib"
        let objects = ((try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []).filter { $0.hasSuffix(".o") }.sorted().map { lib + "/" + $0 }
        guard !objects.isEmpty else { throw BuildError("the SDK at \(root) has no objects in \(lib): install it again ('make install')") }
        let toolchain = (try? String(contentsOfFile: root + "/toolchain", encoding: .utf8))?.trimmingSpacesAndNewlines ?? "unknown"
        let sdk = WidgetSDK(
            root: root, isInstalled: true, moduleDirectory: root + "/Modules",
            moduleMaps: cModules.map { "\(root)/include/\($0)/module.modulemap" }, objects: objects,
            macroPlugin: root + "/bin/" + macroTool, toolchain: toolchain)
        try sdk.checkFiles()
        return sdk
    }

    private func checkFiles() throws(BuildError) {
        for file in moduleMaps + [macroPlugin] where !FileManager.default.fileExists(atPath: file) {
            throw BuildError("the SDK at \(root) lacks \(file); \(isInstalled ? "install it again ('make install')" : "run 'swift build' in the checkout")")
        }
    }

    /// The flags that let `swiftc` import the SDK's modules and expand its macros, and compile as the
    /// SDK is compiled: reaching generic types' metadata through accessors, not mangled names, which
    /// each worker would demangle, and look up conformances for, at each call site's first use after
    /// loading the bundle (Package.swift, `metadataAccessors`).
    var compilerFlags: [String] {
        ["-I", moduleDirectory] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=" + $0] }
            + ["-load-plugin-executable", macroPlugin + "#" + Self.macroModule]
            + ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]
    }

    /// The headers a module map names: its `header` files, and the `.h` files of its `umbrella` folder.
    static func headers(of map: String) throws(BuildError) -> [String] {
        guard let text = try? String(contentsOfFile: map, encoding: .utf8) else { throw BuildError("cannot read the module map \(map)") }
        var headers: [String] = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: "\"", omittingEmptySubsequences: false)
            guard words.count >= 2 else { continue }
            let keyword = words[0].trimmingSpaces
            var path = String(words[1])
            if !path.hasPrefix("/") { path = map.pathDirectory + "/" + path }
            if keyword == "umbrella" {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".h") }.sorted()
                headers += names.map { path + "/" + $0 }
            } else if keyword == "header" {
                headers.append(path)
            }
        }
        guard !headers.isEmpty else { throw BuildError("the module map \(map) names no headers") }
        return headers
    }

    /// Writes the installed layout into `destination` (`make install`: `PREFIX/lib/widgets/sdk`),
    /// replacing what is there.
    public func install(into destination: String) throws(BuildError) {
        let files = FileManager.default
        let staging = destination + ".tmp-\(getpid())"
        try? files.removeItem(atPath: staging)
        do {
            for directory in ["Modules", "lib", "bin"] + Self.cModules.map({ "include/" + $0 }) {
                try files.createDirectory(atPath: staging + "/" + directory, withIntermediateDirectories: true)
            }
            for module in Self.swiftModules {
                for suffix in [".swiftmodule", ".swiftdoc"] where files.fileExists(atPath: moduleDirectory + "/" + module + suffix) {
                    try files.copyItem(atPath: moduleDirectory + "/" + module + suffix, toPath: staging + "/Modules/" + module + suffix)
                }
            }
            for object in objects {
                // Objects of two modules may share a file name: each is named with its module's.
                let module = object.pathDirectory.pathFileName.replacing(".build", with: "")
                try files.copyItem(atPath: object, toPath: staging + "/lib/" + (isInstalled ? object.pathFileName : module + "-" + object.pathFileName))
            }
            try files.copyItem(atPath: macroPlugin, toPath: staging + "/bin/" + Self.macroTool)
            for (module, map) in zip(Self.cModules, moduleMaps) {
                // The headers the module map names (a build directory's maps name their source
                // folder, an installed one's its own), copied beside a map of their own.
                let headers = try Self.headers(of: map)
                for header in headers { try files.copyItem(atPath: header, toPath: "\(staging)/include/\(module)/\(header.pathFileName)") }
                let text = "module \(module) {\n" + headers.map { "    header \"\($0.pathFileName)\"\n" }.joined() + "    export *\n}\n"
                try text.write(toFile: "\(staging)/include/\(module)/module.modulemap", atomically: false, encoding: .utf8)
            }
            try (toolchain + "\n").write(toFile: staging + "/toolchain", atomically: false, encoding: .utf8)
        } catch let error as BuildError {
            throw error
        } catch {
            try? files.removeItem(atPath: staging)
            throw BuildError("cannot install the SDK into \(destination): \(error.explanation)")
        }
        let old = destination + ".old-\(getpid())"
        if files.fileExists(atPath: destination) { _ = rename(destination, old) }
        guard rename(staging, destination) == 0 else {
            throw BuildError("cannot install the SDK into \(destination): \(errnoText())")
        }
        try? files.removeItem(atPath: old)
    }
}
