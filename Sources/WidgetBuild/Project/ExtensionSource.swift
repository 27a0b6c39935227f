import Glibc
import WidgetSupport

/// What a widget extension is made of, wherever it was read from (a folder, or a target of an Xcode
/// project): the files of each kind, and the settings that say how to build it.
public struct ExtensionSource: Sendable {
    /// The product's name: the bundle is `NAME.widgetbundle`.
    public var name: String
    /// The Swift module its files form (Xcode's `PRODUCT_MODULE_NAME`).
    public var moduleName: String
    /// Where it was read from, for messages.
    public var origin: String
    /// The Xcode project file it was read from, if any.
    public var projectFile: String?

    public var swiftFiles: [String] = []
    public var intentDefinitions: [String] = []
    public var assetCatalogs: [String] = []
    public var stringCatalogs: [String] = []
    /// Files inside `*.lproj` folders: by localization ("en", "de", "Base").
    public var localizedFiles: [LocalizedFile] = []
    /// Other files and folders, copied into the bundle's top level as Xcode's Copy Bundle Resources does.
    public var otherResources: [String] = []
    public var infoPlist: String?
    public var entitlements: String?
    /// Frameworks the target links (an `.xcframework`): built for Apple's platforms, never linked here.
    public var linkedFrameworks: [String] = []

    /// "5" or "6" (or "4.2", "4"): the language mode.
    public var swiftVersion: String
    /// The build settings Info.plist's `$(...)`, `INFOPLIST_KEY_*` and the rest are read from.
    public var settings: BuildSettings
    /// Products of local Swift packages the target uses.
    public var packageProducts: [PackageProduct] = []
    /// The class that handles the intents of its intent definitions (an Intents extension's
    /// `NSExtensionPrincipalClass`), unqualified: it is compiled into the extension's module.
    public var intentHandlerClass = "IntentHandler"
    /// What reading it found worth telling (a package left out), shown with the build's warnings.
    public var warnings: [String] = []
    /// The project's framework targets the extension imports (a shared `Kit` of the app's), in the
    /// order they are built: each a module of its own, compiled before the extension.
    public var frameworks: [FrameworkModule] = []
    /// `--exclude`'s patterns, which leave files out of its packages and frameworks too.
    public var excludedPatterns: [String] = []

    public struct FrameworkModule: Sendable, Equatable {
        public var name: String
        public var target: String
        /// The target's object in the project.
        public var id: String
        public var swiftFiles: [String]
        public var swiftVersion: String
    }

    /// Products of remote packages with no clone here: an error if a file the build keeps imports
    /// one, else left out (`settleRemoteProducts`, after `--exclude`).
    public var remoteProducts: [RemoteProduct] = []
    /// Those left out as nothing imports a module named after them: named again if the compiler
    /// then misses a module (a product whose module has another name).
    public var leftOutRemoteProducts: [RemoteProduct] = []

    public struct RemoteProduct: Sendable, Equatable {
        public var product: String
        public var url: String
        public var target: String
        /// Where its clone is looked for, and the folder a user would clone it into.
        public var cloneFolder: String
    }

    public struct LocalizedFile: Sendable, Equatable {
        public var localization: String
        public var path: String

        public init(localization: String, path: String) {
            self.localization = localization
            self.path = path
        }
    }

    /// A product of a local Swift package, by the package's folder and the product's name.
    public struct PackageProduct: Sendable, Equatable {
        public var packageDirectory: String
        public var product: String

        public init(packageDirectory: String, product: String) {
            self.packageDirectory = packageDirectory
            self.product = product
        }
    }

    public init(name: String, origin: String, swiftVersion: String, settings: BuildSettings) {
        self.name = name
        self.moduleName = BuildSettings.c99Identifier(name)
        self.origin = origin
        self.swiftVersion = swiftVersion
        self.settings = settings
    }

    /// The folder paths are relative to in messages and `--exclude` patterns: the project's, or the folder given.
    public var root: String { projectFile?.pathDirectory.pathDirectory ?? origin }

    /// Leaves out every file whose path (relative to `root`) or name matches one of the shell
    /// patterns (`widgets build --exclude`), as a port leaves out what Linux cannot build.
    public mutating func exclude(_ patterns: [String]) {
        guard !patterns.isEmpty else { return }
        excludedPatterns += patterns
        swiftFiles = swiftFiles.filter(keeps)
        intentDefinitions = intentDefinitions.filter(keeps)
        assetCatalogs = assetCatalogs.filter(keeps)
        stringCatalogs = stringCatalogs.filter(keeps)
        localizedFiles = localizedFiles.filter { keeps($0.path) }
        otherResources = otherResources.filter(keeps)
        for index in frameworks.indices { frameworks[index].swiftFiles = frameworks[index].swiftFiles.filter(keeps) }
    }

    /// Whether `--exclude` keeps a file: its path relative to `root`, or its name, matches none of
    /// the patterns, nor is it under a folder one names.
    public func keeps(_ path: String) -> Bool {
        let base = root + "/"
        let relative = path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
        return !excludedPatterns.contains {
            fnmatch($0, relative, 0) == 0 || fnmatch($0, path.pathFileName, 0) == 0 || relative.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/")
        }
    }

    /// The remote products without a clone, now that the files the build keeps are known: one error
    /// naming every one a kept file imports (with where to clone each), else each left out with a
    /// warning (Xcode links it; nothing here uses it).
    public mutating func settleRemoteProducts() throws(BuildError) {
        // The framework targets the kept files still import (an excluded file's framework is not built).
        let kept = Set(ImportCheck.imports(of: swiftFiles, includingConditional: true).keys)
        var reached: Set<String> = []
        var pending = frameworks.filter { kept.contains($0.name) }.map(\.name)
        while let name = pending.popLast() {
            guard reached.insert(name).inserted, let framework = frameworks.first(where: { $0.name == name }) else { continue }
            let theirs = Set(ImportCheck.imports(of: framework.swiftFiles, includingConditional: true).keys)
            pending += frameworks.filter { theirs.contains($0.name) }.map(\.name)
        }
        frameworks = frameworks.filter { reached.contains($0.name) }
        guard !remoteProducts.isEmpty else { return }
        // An import under `#if` (`canImport`) does not need the package: only an unconditional one does.
        let files = swiftFiles + frameworks.flatMap(\.swiftFiles)
        let imported = ImportCheck.imports(of: files)
        let needed = remoteProducts.filter { imported[BuildSettings.c99Identifier($0.product)] != nil }
        guard needed.isEmpty else {
            // Each with the target linking it and a file importing it (a framework target's too).
            let parts = needed.map { remote in
                let file = imported[BuildSettings.c99Identifier(remote.product)]?.first.map { ", imported by \($0.pathFileName)" } ?? ""
                return "\(remote.product) from the remote package \(remote.url) (the target \(remote.target)\(file); "
                    + "git clone \(remote.url) \(remote.cloneFolder)/\(PackageLocator.repositoryName(remote.url)))"
            }
            throw BuildError(
                "\(origin) uses \(parts.joined(separator: ", ")): widgets build cannot fetch packages; "
                    + "clone \(needed.count == 1 ? "it" : "each") beside the project, where it is found, or add it in Xcode as a local package, or copy its sources into the target")
        }
        for remote in remoteProducts {
            warnings.append("\(origin): the target \(remote.target) links \(remote.product) from the remote package \(remote.url), which none of its files imports: left out")
        }
        leftOutRemoteProducts = remoteProducts
        remoteProducts = []
    }

    /// Sorts a file into its kind by its name: Swift sources, intent definitions, catalogs, string
    /// tables in `*.lproj`, Info.plist, entitlements, and the rest as resources.
    mutating func add(_ path: String, isDirectory: Bool) {
        let name = path.pathFileName
        let lowered = name.lowercased()
        if isDirectory {
            if lowered.hasSuffix(".xcassets") {
                assetCatalogs.append(path)
            } else {
                otherResources.append(path)
            }
            return
        }
        // A localized intent definition (Base.lproj/Intents.intentdefinition) is still one to generate from.
        if lowered.hasSuffix(".intentdefinition") {
            intentDefinitions.append(path)
            return
        }
        let parent = path.pathDirectory.pathFileName
        if parent.hasSuffix(".lproj") {
            localizedFiles.append(LocalizedFile(localization: String(parent.dropLast(".lproj".count)), path: path))
            return
        }
        switch lowered {
        case _ where lowered.hasSuffix(".swift"): swiftFiles.append(path)
        case _ where lowered.hasSuffix(".xcstrings"): stringCatalogs.append(path)
        case _ where lowered.hasSuffix(".entitlements"): if entitlements == nil { entitlements = path }
        case "info.plist": if infoPlist == nil { infoPlist = path }
        // What Xcode never copies into a bundle: build configuration, C headers, documentation of the source.
        case _ where lowered.hasSuffix(".xcconfig") || lowered.hasSuffix(".h") || lowered.hasSuffix(".m") || lowered.hasSuffix(".modulemap"): break
        default: otherResources.append(path)
        }
    }
}
