import FoundationEssentials
import WidgetSupport

/// An Xcode project (`NAME.xcodeproj/project.pbxproj`), read for what building one of its targets
/// needs: the target's source and resource files (from its build phases through groups and file
/// references, and from Xcode 16's folder-synchronized groups with their exceptions, which is how a
/// target shares files with the app), its build settings (project and target, each over its
/// `.xcconfig`, for one configuration), and its Swift package products.
public struct XcodeProject: Sendable {
    /// The `.xcodeproj` folder.
    public let path: String
    /// The folder holding it: Xcode's `SRCROOT`.
    public let directory: String
    let objects: [String: PlistValue]
    let root: [String: PlistValue]

    public struct Target: Sendable {
        public let id: String
        public let name: String
        public let productType: String
    }

    public static func read(_ path: String) throws(BuildError) -> XcodeProject {
        var project = path
        while project.count > 1, project.hasSuffix("/") { project.removeLast() }
        if project.hasSuffix("project.pbxproj") { project = project.pathDirectory }
        let file = project + "/project.pbxproj"
        let value: PlistValue
        do {
            value = try PlistValue.read(contentsOf: file)
        } catch {
            throw BuildError(error.description)
        }
        guard let objects = value["objects"]?.dictionary, let rootID = value["rootObject"]?.string, let root = objects[rootID]?.dictionary else {
            throw BuildError("\(file): error: not an Xcode project (it has no objects or no root object)")
        }
        return XcodeProject(path: project, directory: project.pathDirectory, objects: objects, root: root)
    }

    func object(_ id: String?) -> [String: PlistValue]? { id.flatMap { objects[$0]?.dictionary } }
    func isa(_ id: String?) -> String? { object(id)?["isa"]?.string }
    func ids(_ value: PlistValue?) -> [String] { value?.array?.compactMap(\.string) ?? [] }

    public var targets: [Target] {
        ids(root["targets"]).compactMap { id in
            guard let target = object(id), target["isa"]?.string == "PBXNativeTarget" else { return nil }
            return Target(id: id, name: target["name"]?.string ?? id, productType: target["productType"]?.string ?? "")
        }
    }

    // MARK: Build settings

    /// The build settings of a target in a configuration (Debug or Release), as Xcode layers them:
    /// its defaults, the project's `.xcconfig` and settings, the target's `.xcconfig` and settings.
    public func settings(of target: Target, configuration: String) throws(BuildError) -> BuildSettings {
        var settings = BuildSettings.defaults(target: target.name, projectDirectory: directory)
        for list in [root["buildConfigurationList"]?.string, object(target.id)?["buildConfigurationList"]?.string] {
            guard let list = object(list) else { continue }
            let configurations = ids(list["buildConfigurations"]).compactMap { object($0) }
            let chosen = configurations.first { $0["name"]?.string == configuration }
                ?? configurations.first { $0["name"]?.string == list["defaultConfigurationName"]?.string } ?? configurations.first
            guard let chosen else { continue }
            if let base = chosen["baseConfigurationReference"]?.string, let file = filePath(base) {
                settings = settings.overlaid(with: try Self.xcconfig(file, depth: 0))
            } else if let anchor = chosen["baseConfigurationReferenceAnchor"]?.string, let folder = filePath(anchor),
                let relative = chosen["baseConfigurationReferenceRelativePath"]?.string
            {
                // Xcode 26: a configuration file inside a folder-synchronized group, by its path there.
                settings = settings.overlaid(with: try Self.xcconfig(Self.onDisk(folder + "/" + relative), depth: 0))
            }
            let values = (chosen["buildSettings"]?.dictionary ?? [:]).compactMapValues { value -> String? in
                if let text = value.string { return text }
                // A list setting is written as a list in the project: its items joined with spaces.
                return value.array.map { $0.compactMap(\.string).map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ") }
            }
            settings = settings.overlaid(with: values)
        }
        return settings
    }

    /// A `.xcconfig` file's settings: `NAME = value` lines and `#include`s; lines conditioned on an
    /// SDK or architecture (`NAME[sdk=iphoneos*] = ...`) are left out.
    static func xcconfig(_ path: String, depth: Int) throws(BuildError) -> [String: String] {
        guard depth < 8 else { throw BuildError("\(path): #includes nested more than 8 deep") }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BuildError("\(path): cannot read this configuration file, which the project names")
        }
        var values: [String: String] = [:]
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = raw.trimmingSpaces
            if line.hasPrefix("#include") {
                let optional = line.hasPrefix("#include?")
                guard let start = line.firstIndex(of: "\""), let end = line.lastIndex(of: "\""), start < end else { continue }
                let name = String(line[line.index(after: start)..<end])
                let included = onDisk(name.hasPrefix("/") ? name : path.pathDirectory + "/" + name)
                if optional && !FileManager.default.fileExists(atPath: included) { continue }
                values.merge(try xcconfig(included, depth: depth + 1)) { $1 }
                continue
            }
            if let comment = line.firstRange(of: "//") { line = String(line[..<comment.lowerBound]).trimmingSpaces }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingSpaces
            guard !name.isEmpty, !name.contains("[") else { continue }
            let value = line[line.index(after: equals)...].trimmingSpaces
            values[name] = value.hasSuffix(";") ? String(value.dropLast()) : value
        }
        return values
    }

    // MARK: Files

    /// Every group's parent, for resolving paths relative to a group.
    private var parents: [String: String] {
        var parents: [String: String] = [:]
        for (id, value) in objects {
            guard let isa = value["isa"]?.string, isa == "PBXGroup" || isa == "PBXVariantGroup" || isa == "XCVersionGroup" else { continue }
            for child in ids(value["children"]) { parents[child] = id }
        }
        return parents
    }

    /// The path on disk of a file reference or group, through its source tree: relative to its
    /// group, to the project's folder, or absolute. Nil for one in the SDK or the build products.
    func filePath(_ id: String, parents: [String: String]? = nil) -> String? {
        let parents = parents ?? self.parents
        var depth = 0
        func resolve(_ id: String) -> String? {
            depth += 1
            guard depth < 64, let item = object(id) else { return nil }
            let path = item["path"]?.string
            switch item["sourceTree"]?.string ?? "<group>" {
            case "<absolute>": return path
            case "SOURCE_ROOT": return path.map { directory + "/" + $0 } ?? directory
            case "<group>":
                let base: String
                if let parent = parents[id] {
                    guard let resolved = resolve(parent) else { return nil }
                    base = resolved
                } else {
                    base = directory
                }
                guard let path, !path.isEmpty else { return base }
                return base + "/" + path
            default: return nil
            }
        }
        return resolve(id).map { Self.onDisk(Self.normalized($0)) }
    }

    /// A path as it is on disk: one that is not there as written is looked for with its letter case
    /// aside, name by name, as macOS's disk finds `wiOS/WiOS.entitlements` in the folder `WiOS`.
    static func onDisk(_ path: String) -> String {
        guard !path.isEmpty, !FileManager.default.fileExists(atPath: path) else { return path }
        var resolved = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            let folder = resolved.isEmpty ? "/" : resolved
            let candidate = (resolved == "/" ? "" : resolved) + "/" + part
            if FileManager.default.fileExists(atPath: candidate) {
                resolved = candidate
                continue
            }
            let lowered = part.lowercased()
            let matches = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.lowercased() == lowered }
            guard matches.count == 1 else { return path }
            resolved = (resolved == "/" ? "" : resolved) + "/" + matches[0]
        }
        return path.hasPrefix("/") ? resolved : String(resolved.dropFirst(2))
    }

    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    // MARK: A target

    /// The Info.plist a target names (`INFOPLIST_FILE`), resolved against the project's folder.
    func infoPlist(_ settings: BuildSettings) -> String? {
        guard let file = settings["INFOPLIST_FILE"], !file.isEmpty else { return nil }
        return Self.onDisk(Self.normalized(file.hasPrefix("/") ? file : directory + "/" + file))
    }

    /// The extension point a target's Info.plist (or `INFOPLIST_KEY_NSExtensionPointIdentifier`) names.
    func extensionPoint(of target: Target) -> String? {
        guard let settings = try? settings(of: target, configuration: "Release") else { return nil }
        if let key = settings["INFOPLIST_KEY_NSExtensionPointIdentifier"], !key.isEmpty { return key }
        guard let path = infoPlist(settings), let info = try? PlistValue.read(contentsOf: path) else { return nil }
        return settings.expand(info["NSExtension"]?["NSExtensionPointIdentifier"]?.string ?? "")
    }

    /// The widget extension to build: the target named, else the one target that is a WidgetKit
    /// extension.
    public func widgetTarget(named name: String?) throws(BuildError) -> Target {
        let all = targets
        if let name {
            guard let target = all.first(where: { $0.name == name }) else {
                throw BuildError("\(path) has no target named \"\(name)\"; its targets: \(all.map(\.name).joined(separator: ", "))")
            }
            return target
        }
        let widgets = all.filter { $0.productType.contains("extension") && extensionPoint(of: $0) == "com.apple.widgetkit-extension" }
        if widgets.count == 1 { return widgets[0] }
        if widgets.isEmpty {
            throw BuildError(
                "\(path) has no WidgetKit extension target (one whose Info.plist says NSExtensionPointIdentifier com.apple.widgetkit-extension); "
                    + "name one with --target (its targets: \(all.map(\.name).joined(separator: ", ")))")
        }
        throw BuildError("\(path) has \(widgets.count) WidgetKit extensions: choose one with --target (\(widgets.map(\.name).joined(separator: ", ")))")
    }

    /// The files a target builds: its build phases' files, and its folder-synchronized groups' files
    /// (or, from the groups of other targets, those their exceptions give it).
    func members(of target: Target) -> (sources: [String], resources: [(path: String, isDirectory: Bool)], frameworks: [String]) {
        let parents = self.parents
        guard let item = object(target.id) else { return ([], [], []) }
        var sources: [String] = []
        var resources: [(String, Bool)] = []
        var frameworks: [String] = []
        for phase in ids(item["buildPhases"]) {
            guard let phaseObject = object(phase), let kind = phaseObject["isa"]?.string else { continue }
            for buildFile in ids(phaseObject["files"]) {
                guard let reference = object(buildFile)?["fileRef"]?.string, let referenced = object(reference) else { continue }
                let isVariant = referenced["isa"]?.string == "PBXVariantGroup"
                switch kind {
                case "PBXSourcesBuildPhase":
                    guard let path = filePath(reference, parents: parents) else { continue }
                    // An asset catalog in Compile Sources is compiled by Xcode all the same.
                    if path.hasSuffix(".xcassets") { resources.append((path, true)) } else { sources.append(path) }
                case "PBXResourcesBuildPhase":
                    if isVariant {
                        // A localized file: its variants, each `xx.lproj/Name.strings` under the group's folder.
                        for child in ids(referenced["children"]) { if let path = filePath(child, parents: parents) { resources.append((path, false)) } }
                    } else if let path = filePath(reference, parents: parents) {
                        let type = referenced["lastKnownFileType"]?.string ?? referenced["explicitFileType"]?.string ?? ""
                        resources.append((path, type == "folder" || type == "folder.assetcatalog" || path.hasSuffix(".xcassets")))
                    }
                case "PBXFrameworksBuildPhase":
                    if let path = filePath(reference, parents: parents) { frameworks.append(path) }
                default: continue
                }
            }
        }
        // Folder-synchronized groups (Xcode 16).
        let own = Set(ids(item["fileSystemSynchronizedGroups"]))
        for (id, value) in objects where value["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" {
            guard let folder = filePath(id, parents: parents) else { continue }
            var exceptions: Set<String> = []
            for exception in ids(value["exceptions"]) {
                guard let set = object(exception), set["target"]?.string == target.id else { continue }
                exceptions.formUnion(ids(set["membershipExceptions"]))
            }
            let explicitFolders = Set(ids(value["explicitFolders"]))
            let inGroup = own.contains(id)
            guard inGroup || !exceptions.isEmpty else { continue }
            for (relative, isDirectory) in Self.synchronizedFiles(folder, explicitFolders: explicitFolders) {
                // In the target's own group, the exceptions are left out; in another's, they are the files it takes.
                guard inGroup != (exceptions.contains(relative) || exceptions.contains { relative.hasPrefix($0 + "/") }) else { continue }
                let path = folder + "/" + relative
                if !isDirectory, relative.hasSuffix(".swift") || relative.hasSuffix(".intentdefinition") {
                    sources.append(path)
                } else {
                    resources.append((path, isDirectory))
                }
            }
        }
        return (sources, resources, frameworks)
    }

    /// The files of a synchronized folder, relative to it: each file, with asset catalogs and
    /// explicit folders as one item.
    static func synchronizedFiles(_ folder: String, explicitFolders: Set<String>) -> [(String, Bool)] {
        var found: [(String, Bool)] = []
        func walk(_ relative: String, depth: Int) {
            guard depth < 32 else { return }
            let path = relative.isEmpty ? folder : folder + "/" + relative
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                var isDirectory = false
                guard FileManager.default.fileExists(atPath: folder + "/" + child, isDirectory: &isDirectory) else { continue }
                if isDirectory {
                    if name.hasSuffix(".xcassets") || explicitFolders.contains(child) {
                        found.append((child, true))
                    } else {
                        walk(child, depth: depth + 1)
                    }
                } else {
                    found.append((child, false))
                }
            }
        }
        walk("", depth: 0)
        return found
    }

    /// The Swift package products a target uses, each from a local package: one the project names, a
    /// clone of a remote one kept beside the project (Xcode fetches packages; `widgets build` does
    /// not), or, for a product the project names without its package, the one local package that
    /// declares it. A remote package without a clone is set aside (`ExtensionSource.remoteProducts`):
    /// an error when a file the build keeps imports it, else left out.
    func packageProducts(of target: Target) throws(BuildError) -> (products: [ExtensionSource.PackageProduct], remote: [ExtensionSource.RemoteProduct]) {
        var products: [ExtensionSource.PackageProduct] = []
        var remote: [ExtensionSource.RemoteProduct] = []
        for dependency in ids(object(target.id)?["packageProductDependencies"]) {
            guard let item = object(dependency), let product = item["productName"]?.string else { continue }
            // "plugin:NAME" is a build-tool plugin, which runs in Xcode's build, not here.
            if product.hasPrefix("plugin:") { continue }
            guard let reference = item["package"]?.string, let package = object(reference) else {
                products.append(ExtensionSource.PackageProduct(packageDirectory: try localPackage(providing: product), product: product))
                continue
            }
            switch package["isa"]?.string {
            case "XCLocalSwiftPackageReference":
                let relative = package["relativePath"]?.string ?? package["path"]?.string ?? ""
                products.append(
                    ExtensionSource.PackageProduct(
                        packageDirectory: Self.normalized(relative.hasPrefix("/") ? relative : directory + "/" + relative), product: product))
            default:
                let url = package["repositoryURL"]?.string ?? "a remote package"
                if let clone = PackageLocator.clone(of: url, near: [directory]) {
                    products.append(ExtensionSource.PackageProduct(packageDirectory: clone, product: product))
                } else {
                    remote.append(ExtensionSource.RemoteProduct(product: product, url: url, target: target.name, cloneFolder: directory.pathDirectory))
                }
            }
        }
        return (products, remote)
    }

    /// The local package providing a product dependency that names no package: of the packages the
    /// project lists among its files (before Xcode 15 they were added so), names as local packages,
    /// or holds in its folders (a folder-synchronized group of packages), the one declaring it.
    private func localPackage(providing product: String) throws(BuildError) -> String {
        let parents = self.parents
        var candidates: [String] = []
        for (id, value) in objects {
            switch value["isa"]?.string {
            case "PBXFileReference", "PBXFileSystemSynchronizedRootGroup", "PBXGroup":
                guard let path = filePath(id, parents: parents), FileManager.default.fileExists(atPath: path + "/Package.swift") else { continue }
                candidates.append(path)
            case "XCLocalSwiftPackageReference":
                let relative = value["relativePath"]?.string ?? value["path"]?.string ?? ""
                candidates.append(Self.normalized(relative.hasPrefix("/") ? relative : directory + "/" + relative))
            default: continue
            }
        }
        if let found = PackageLocator.provider(of: product, among: candidates.sorted()) { return found }
        let named = Set(candidates)
        candidates += PackageLocator.packages(under: directory, depth: 3)
        if let found = PackageLocator.provider(of: product, among: candidates.sorted()) { return found }
        // The one package the project names, when no manifest in its folders says whose the product
        // is (a product named by a variable): that one, as before Xcode 15 it could only be.
        if named.count == 1, let only = named.first { return only }
        throw BuildError(
            "the product \(product) comes from a package the project does not name, and no local package in \(directory) declares it"
                + (candidates.isEmpty ? "" : " (local packages: \(Set(candidates).sorted().joined(separator: ", ")))")
                + "; if it is a remote package, clone it beside the project")
    }

    /// The Intents extension that handles a widget's intents (before iOS 17, its configuration's
    /// options come from there): its Swift files are compiled into the widget's module, and its
    /// principal class is the handler the generated intents ask.
    private func addIntentsExtension(to source: inout ExtensionSource, besides widget: Target) throws(BuildError) {
        for target in targets where target.id != widget.id && extensionPoint(of: target) == "com.apple.intents-service" {
            let settings = try self.settings(of: target, configuration: "Release")
            if let path = infoPlist(settings), let info = try? PlistValue.read(contentsOf: path),
                let principal = info["NSExtension"]?["NSExtensionPrincipalClass"]?.string
            {
                source.intentHandlerClass = String(settings.expand(principal).split(separator: ".").last ?? "IntentHandler")
            }
            let known = Set(source.swiftFiles)
            for file in members(of: target).sources where file.hasSuffix(".swift") && !known.contains(file) {
                source.swiftFiles.append(file)
            }
            return
        }
    }

    // MARK: The extension

    /// The extension a target is: its files sorted by kind, its settings for `configuration`.
    public func extensionSource(target: Target, configuration: String, swiftVersion: String?) throws(BuildError) -> ExtensionSource {
        var settings = try self.settings(of: target, configuration: configuration)
        let name = settings["PRODUCT_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? target.name
        let version = swiftVersion ?? settings["SWIFT_VERSION"].flatMap { $0.isEmpty ? nil : PackageBuilder.languageMode($0) } ?? "5"
        settings["SWIFT_VERSION"] = version
        var source = ExtensionSource(name: name, origin: path + " (target \(target.name))", swiftVersion: version, settings: settings)
        source.projectFile = path + "/project.pbxproj"
        if let module = settings["PRODUCT_MODULE_NAME"], !module.isEmpty { source.moduleName = BuildSettings.c99Identifier(module) }
        let infoPlist = infoPlist(settings)
        let entitlements = settings["CODE_SIGN_ENTITLEMENTS"].flatMap { $0.isEmpty ? nil : Self.onDisk(Self.normalized($0.hasPrefix("/") ? $0 : directory + "/" + $0)) }
        if let infoPlist, !FileManager.default.fileExists(atPath: infoPlist) {
            throw BuildError("the target \(target.name) names the Info.plist \(infoPlist) (INFOPLIST_FILE), which is not there")
        }
        source.infoPlist = infoPlist
        source.entitlements = entitlements
        let members = members(of: target)
        for file in members.sources where FileManager.default.fileExists(atPath: file) { source.add(file, isDirectory: false) }
        for (file, isDirectory) in members.resources {
            guard file != infoPlist, file != entitlements, FileManager.default.fileExists(atPath: file) else { continue }
            source.add(file, isDirectory: isDirectory)
        }
        // An Info.plist or entitlements file among the members is the target's only when its settings name it.
        source.infoPlist = infoPlist
        source.entitlements = entitlements
        source.linkedFrameworks = members.frameworks
        let packages = try packageProducts(of: target)
        source.packageProducts = packages.products
        source.remoteProducts = packages.remote
        if !source.intentDefinitions.isEmpty { try addIntentsExtension(to: &source, besides: target) }
        guard !source.swiftFiles.isEmpty else { throw BuildError("the target \(target.name) of \(path) has no Swift files") }
        source.frameworks = try frameworkModules(importedBy: source.swiftFiles, configuration: configuration)
        for framework in source.frameworks {
            let packages = try packageProducts(of: Target(id: framework.id, name: framework.target, productType: ""))
            source.packageProducts += packages.products.filter { !source.packageProducts.contains($0) }
            source.remoteProducts += packages.remote
        }
        return source
    }

    /// The project's framework targets (a `Kit` the app and its extension share) that `files`
    /// import, and those theirs import, dependencies first: each a module of its own Swift files,
    /// named as Xcode names it (`PRODUCT_MODULE_NAME`, else the product's name).
    func frameworkModules(importedBy files: [String], configuration: String) throws(BuildError) -> [ExtensionSource.FrameworkModule] {
        var byModule: [String: (target: Target, settings: BuildSettings)] = [:]
        for target in targets where target.productType == "com.apple.product-type.framework" || target.productType == "com.apple.product-type.library.static" {
            let settings = try self.settings(of: target, configuration: configuration)
            let product = settings["PRODUCT_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? target.name
            let module = settings["PRODUCT_MODULE_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? BuildSettings.c99Identifier(product)
            byModule[module] = (target, settings)
        }
        guard !byModule.isEmpty else { return [] }
        var ordered: [ExtensionSource.FrameworkModule] = []
        var visiting: Set<String> = []
        func visit(_ module: String) throws(BuildError) {
            guard let (target, settings) = byModule[module], !ordered.contains(where: { $0.name == module }), visiting.insert(module).inserted else { return }
            let sources = members(of: target).sources.filter { $0.hasSuffix(".swift") && FileManager.default.fileExists(atPath: $0) }
            for imported in ImportCheck.imports(of: sources, includingConditional: true).keys.sorted() where imported != module { try visit(imported) }
            let version = settings["SWIFT_VERSION"].flatMap { $0.isEmpty ? nil : PackageBuilder.languageMode($0) } ?? "5"
            ordered.append(ExtensionSource.FrameworkModule(name: module, target: target.name, id: target.id, swiftFiles: sources, swiftVersion: version))
        }
        for imported in ImportCheck.imports(of: files, includingConditional: true).keys.sorted() { try visit(imported) }
        return ordered
    }
}
