import FoundationEssentials
import WidgetSupport
import WidgetWire

/// Builds the local Swift packages an extension uses, as Xcode does: the targets of each product it
/// depends on (and theirs, in order), compiled with `swiftc` against the SDK, so that a package's
/// `import SwiftUI` finds the SDK's, and linked into the bundle. The manifest is read with
/// `swift package dump-package` (once per change of `Package.swift`). A remote package dependency
/// cannot be fetched here and is one error saying what to do.
struct PackageBuilder {
    let sdk: WidgetSDK
    let compiler: SwiftCompiler
    let runner: ProcessRunner
    let work: String
    let release: Bool
    /// Where a clone of a remote package a manifest depends on is looked for besides beside the
    /// package itself: the extension's folder (or its project's).
    var projectDirectory: String?
    /// Whether `--exclude` keeps a file (of a package or a framework target too).
    var keeps: @Sendable (String) -> Bool = { _ in true }

    struct Built {
        /// What the extension's files are compiled with to import the packages' modules.
        var flags: [String] = []
        var objects: [String] = []
        var warnings: [String] = []
        /// The packages' module names.
        var modules: [String] = []
    }

    struct Target {
        var name: String
        var package: String
        var packageIdentity: String
        var directory: String
        var sources: [String]
        var swiftVersion: String
    }

    /// A target to build, by where it comes from: a package (its folder and the target's name), or
    /// the project's framework targets, built after the packages.
    enum TargetID: Hashable {
        case package(directory: String, name: String)
        case framework(String)
    }

    /// `imported`: the modules the extension's files import; a product linked whose modules none
    /// of them imports is left out with a warning (Xcode builds and links it; nothing uses it).
    func build(
        _ products: [ExtensionSource.PackageProduct], imported: Set<String>? = nil, frameworks: [ExtensionSource.FrameworkModule] = []
    ) throws(BuildError) -> Built {
        var built = Built()
        guard !products.isEmpty || !frameworks.isEmpty else { return built }
        var manifests: [String: JSONValue] = [:]
        var targets: [TargetID: Target] = [:]
        var order: [TargetID] = []
        var visiting: Set<TargetID> = []
        /// Remote packages depended on with no clone here, each with the folder to clone it into:
        /// all named in one error at the end, not one per build.
        var missing: [(url: String, folder: String, manifest: String)] = []

        func located(_ name: String, of package: JSONValue, at directory: String) throws(BuildError) -> String? {
            switch try dependencyDirectory(name, of: package, at: directory) {
            case .local(let path): return path
            case .remote(let url):
                if !missing.contains(where: { $0.url == url }) { missing.append((url, directory.pathDirectory, directory + "/Package.swift")) }
                return nil
            }
        }

        func manifest(_ directory: String) throws(BuildError) -> JSONValue {
            if let known = manifests[directory] { return known }
            let read = try dumpPackage(directory)
            manifests[directory] = read
            return read
        }

        func visit(target name: String, in directory: String) throws(BuildError) {
            let id = TargetID.package(directory: directory, name: name)
            if targets[id] != nil { return }
            guard visiting.insert(id).inserted else { throw BuildError("\(directory)/Package.swift: the target \(name) depends on itself") }
            let package = try manifest(directory)
            guard let entry = package["targets"]?.arrayValue?.first(where: { $0["name"]?.stringValue == name }) else {
                throw BuildError("\(directory)/Package.swift: no target named \(name)")
            }
            // Its dependencies first: `order` is the order of building.
            for dependency in entry["dependencies"]?.arrayValue ?? [] {
                if let byName = dependency["byName"]?.arrayValue?.first?.stringValue ?? dependency["target"]?.arrayValue?.first?.stringValue {
                    let isTarget = package["targets"]?.arrayValue?.contains { $0["name"]?.stringValue == byName } ?? false
                    if isTarget {
                        try visit(target: byName, in: directory)
                        continue
                    }
                    try visit(product: byName, packageName: nil, from: directory)
                } else if let product = dependency["product"]?.arrayValue {
                    try visit(product: product.first?.stringValue ?? "", packageName: product.count > 1 ? product[1].stringValue : nil, from: directory)
                }
            }
            let target = try describe(entry, package: package, directory: directory)
            built.warnings += target.warnings
            targets[id] = target.target
            order.append(id)
            visiting.remove(id)
        }

        /// A product of the package `from` depends on (by package name), or of `from` itself.
        func visit(product: String, packageName: String?, from directory: String) throws(BuildError) {
            let package = try manifest(directory)
            var location = directory
            if let packageName, packageName != package["name"]?.stringValue {
                guard let found = try located(packageName, of: package, at: directory) else { return }
                location = found
            } else if packageName == nil, !(package["products"]?.arrayValue?.contains { $0["name"]?.stringValue == product } ?? false) {
                // A product named alone: of one of the package's dependencies.
                var found: String?
                var unknown = false
                for dependency in package["dependencies"]?.arrayValue ?? [] {
                    guard let candidate = try located(Self.identity(of: dependency) ?? "", of: package, at: directory) else {
                        unknown = true
                        continue
                    }
                    if try manifest(candidate)["products"]?.arrayValue?.contains(where: { $0["name"]?.stringValue == product }) == true {
                        found = candidate
                        break
                    }
                }
                // Perhaps a package not cloned yet has it: that is said below.
                if found == nil, unknown { return }
                guard let found else { throw BuildError("\(directory)/Package.swift: no package it depends on has a product named \(product)") }
                location = found
            }
            let owner = try manifest(location)
            guard let entry = owner["products"]?.arrayValue?.first(where: { $0["name"]?.stringValue == product }) else {
                throw BuildError("\(location)/Package.swift: no product named \(product)")
            }
            for name in entry["targets"]?.arrayValue?.compactMap(\.stringValue) ?? [] { try visit(target: name, in: location) }
        }

        for product in products {
            if let imported, let modules = try? productModules(product, manifest: manifest(product.packageDirectory)),
                !modules.isEmpty, modules.isDisjoint(with: imported)
            {
                built.warnings.append(
                    "\(product.packageDirectory)/Package.swift: the product \(product.product), which none of the extension's files imports, is left out")
                continue
            }
            try visit(product: product.product, packageName: nil, from: product.packageDirectory)
        }
        if !missing.isEmpty {
            let parts = missing.map { "\($0.url), which \($0.manifest) depends on (git clone \($0.url) \($0.folder)/\(PackageLocator.repositoryName($0.url)))" }
            throw BuildError(
                "remote packages with no clone here: \(parts.joined(separator: "; ")): widgets build cannot fetch packages; "
                    + "clone each beside the package depending on it (or the project), where it is found, or point the dependency at a clone with .package(path:)")
        }

        // The project's framework targets after the packages (which they may import): modules of their own.
        let project = projectDirectory ?? work
        for framework in frameworks {
            let id = TargetID.framework(framework.name)
            guard !framework.swiftFiles.isEmpty else { continue }
            targets[id] = Target(
                name: framework.name, package: project, packageIdentity: "project", directory: project, sources: framework.swiftFiles,
                swiftVersion: framework.swiftVersion)
            order.append(id)
        }
        // Modules the packages' files import that do not exist here, named before the compiler stops at the first.
        let available = ImportCheck.available(compiler: compiler, extra: order.compactMap { targets[$0]?.name })
        for id in order {
            guard let target = targets[id] else { continue }
            let isFramework = if case .framework = id { true } else { false }
            let origin = isFramework
                ? "the project's framework \(target.name) (\(frameworks.first { $0.name == target.name }?.target ?? target.name))"
                : "\(target.package)/Package.swift (the target \(target.name))"
            if let problem = ImportCheck.problem(
                origin: origin, root: target.package, files: target.sources, available: available, ownModule: target.name, frameworks: [],
                subject: isFramework ? .framework : .package)
            {
                throw problem
            }
        }
        let modules = work + "/modules"
        try? FileManager.default.createDirectory(atPath: modules, withIntermediateDirectories: true)
        for id in order {
            guard let target = targets[id] else { continue }
            built.objects += try compile(target, modules: modules)
            built.modules.append(target.name)
        }
        built.flags = ["-I", modules]
        return built
    }

    enum Dependency {
        case local(String)
        /// A remote package with no clone found: its URL.
        case remote(String)
    }

    /// The folder of the package `name` a manifest depends on: local, or a remote one's clone found
    /// beside the package or the project; else the remote package's URL.
    func dependencyDirectory(_ name: String, of package: JSONValue, at directory: String) throws(BuildError) -> Dependency {
        for dependency in package["dependencies"]?.arrayValue ?? [] {
            guard Self.identity(of: dependency)?.lowercased() == name.lowercased() else { continue }
            if let local = dependency["fileSystem"]?.arrayValue?.first?["path"]?.stringValue { return .local(local) }
            let url = dependency["sourceControl"]?.arrayValue?.first?["location"]?["remote"]?.arrayValue?.first?["urlString"]?.stringValue ?? name
            if let clone = PackageLocator.clone(of: url, near: [directory] + (projectDirectory.map { [$0] } ?? [])) { return .local(clone) }
            return .remote(url)
        }
        throw BuildError("\(directory)/Package.swift: no dependency named \(name)")
    }

    /// The modules a product brings: its targets and the targets of its package they depend on.
    func productModules(_ product: ExtensionSource.PackageProduct, manifest: JSONValue) -> Set<String> {
        guard let entry = manifest["products"]?.arrayValue?.first(where: { $0["name"]?.stringValue == product.product }) else { return [] }
        var modules: Set<String> = []
        var pending = entry["targets"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let targets = manifest["targets"]?.arrayValue ?? []
        while let name = pending.popLast() {
            guard modules.insert(name).inserted, let target = targets.first(where: { $0["name"]?.stringValue == name }) else { continue }
            for dependency in target["dependencies"]?.arrayValue ?? [] {
                if let byName = dependency["byName"]?.arrayValue?.first?.stringValue ?? dependency["target"]?.arrayValue?.first?.stringValue {
                    pending.append(byName)
                }
            }
        }
        return modules
    }

    static func identity(of dependency: JSONValue) -> String? {
        (dependency["fileSystem"] ?? dependency["sourceControl"])?.arrayValue?.first?["identity"]?.stringValue
    }

    /// `swift package dump-package`, kept while `Package.swift` is unchanged.
    func dumpPackage(_ directory: String) throws(BuildError) -> JSONValue {
        let manifest = directory + "/Package.swift"
        guard FileManager.default.fileExists(atPath: manifest) else { throw BuildError("\(directory): no Package.swift (not a Swift package)") }
        let cache = work + "/manifests/" + BundleBuilder.stem(directory) + ".json"
        let stamp = String(BundleBuilder.modified(manifest))
        if let data = FileManager.default.contents(atPath: cache), let cached = try? JSONValue.parse([UInt8](data)),
            cached["stamp"]?.stringValue == stamp, let value = cached["manifest"]
        {
            return value
        }
        let swift = compiler.path.pathDirectory + "/swift"
        var quiet = runner
        quiet.passesOutputThrough = false
        let outcome = try quiet.run(swift, ["package", "dump-package", "--package-path", directory])
        guard outcome.status == 0, let start = outcome.output.firstIndex(of: "{"),
            let value = try? JSONValue.parse(Array(outcome.output[start...].utf8))
        else {
            throw BuildError("\(manifest): swift package dump-package failed:\n\(outcome.output)")
        }
        try? FileManager.default.createDirectory(atPath: cache.pathDirectory, withIntermediateDirectories: true)
        let record = JSONValue.object(JSONObject([("stamp", .string(stamp)), ("manifest", value)]))
        try? Data(record.jsonText.utf8).write(to: URL(fileURLWithPath: cache), options: .atomic)
        return value
    }

    /// A target of a manifest: its folder, Swift files and language mode.
    func describe(_ entry: JSONValue, package: JSONValue, directory: String) throws(BuildError) -> (target: Target, warnings: [String]) {
        let name = entry["name"]?.stringValue ?? ""
        let type = entry["type"]?.stringValue ?? "regular"
        guard type == "regular" || type == "executable" else {
            throw BuildError("\(directory)/Package.swift: the target \(name) is a \(type) target, which widgets build does not build")
        }
        let folder = XcodeProject.normalized(entry["path"]?.stringValue.map { $0.hasPrefix("/") ? $0 : directory + "/" + $0 } ?? directory + "/Sources/" + name)
        let excluded = Set((entry["exclude"]?.arrayValue ?? []).compactMap(\.stringValue).map { folder + "/" + $0 })
        var sources: [String] = []
        var hasC = false
        func walk(_ path: String, depth: Int) {
            guard depth < 32, !excluded.contains(path) else { return }
            for child in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() where !child.hasPrefix(".") {
                let full = path + "/" + child
                guard !excluded.contains(full) else { continue }
                var isDirectory = false
                _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
                if isDirectory {
                    walk(full, depth: depth + 1)
                } else if path == directory, child == "Package.swift" || (child.hasPrefix("Package@swift") && child.hasSuffix(".swift")) {
                    // A target at the package's root (`path: "."`): SwiftPM leaves its manifests out.
                    continue
                } else if child.hasSuffix(".swift") {
                    sources.append(full)
                } else if [".c", ".m", ".cpp", ".cc", ".mm"].contains(where: child.hasSuffix) {
                    hasC = true
                }
            }
        }
        if let listed = entry["sources"]?.arrayValue?.compactMap(\.stringValue) {
            for item in listed { walk(folder + "/" + item, depth: 0) }
            sources += listed.map { folder + "/" + $0 }.filter { $0.hasSuffix(".swift") && FileManager.default.fileExists(atPath: $0) }
        } else {
            walk(folder, depth: 0)
        }
        sources = sources.filter(keeps)
        if hasC { throw BuildError("\(folder): the target \(name) has C or Objective-C files, which widgets build does not compile") }
        guard !sources.isEmpty else { throw BuildError("\(folder): the target \(name) has no Swift files") }
        var warnings: [String] = []
        if !(entry["resources"]?.arrayValue ?? []).isEmpty {
            warnings.append("\(directory)/Package.swift: the resources of the target \(name) are not copied (Bundle.module is not made by widgets build)")
        }
        // The language mode: the target's setting, else the package's first, else its tools version's.
        var version: String?
        for setting in entry["settings"]?.arrayValue ?? [] {
            if let mode = setting["kind"]?["swiftLanguageMode"]?["_0"]?.stringValue ?? setting["kind"]?["swiftLanguageVersion"]?["_0"]?.stringValue {
                version = mode
            }
        }
        let tools = package["toolsVersion"]?["_version"]?.stringValue ?? "5.9"
        version = version ?? package["swiftLanguageVersions"]?.arrayValue?.first?.stringValue
            ?? (Int(tools.split(separator: ".").first ?? "5") ?? 5 >= 6 ? "6" : "5")
        let identity = package["name"]?.stringValue ?? directory.pathFileName
        return (
            Target(
                name: name, package: directory, packageIdentity: identity.lowercased(), directory: folder, sources: sources.sorted(),
                swiftVersion: Self.languageMode(version ?? "5")), warnings
        )
    }

    /// A language mode as `-swift-version` takes it: "5", "6", "4.2", "4".
    static func languageMode(_ text: String) -> String {
        let parts = text.split(separator: ".")
        guard let major = parts.first.flatMap({ Int($0) }) else { return "5" }
        if major == 4 && parts.count > 1 && parts[1] == "2" { return "4.2" }
        return String(major)
    }

    private func compile(_ target: Target, modules: String) throws(BuildError) -> [String] {
        let objects = work + "/objects/" + BuildSettings.c99Identifier(target.packageIdentity) + "-" + target.name
        try? FileManager.default.createDirectory(atPath: objects, withIntermediateDirectories: true)
        var map = JSONObject([("", .object(JSONObject([("swift-dependencies", .string(objects + "/module.swiftdeps"))])))])
        var outputs: [String] = []
        for file in target.sources {
            let stem = BundleBuilder.stem(file)
            outputs.append(objects + "/" + stem + ".o")
            map[file] = .object(
                JSONObject([("object", .string(objects + "/" + stem + ".o")), ("swift-dependencies", .string(objects + "/" + stem + ".swiftdeps"))]))
        }
        let mapPath = objects + "/output-file-map.json"
        let text = Data(JSONValue.object(map).jsonText.utf8)
        if FileManager.default.contents(atPath: mapPath) != text { try? text.write(to: URL(fileURLWithPath: mapPath)) }
        var arguments = ["-c", "-incremental", "-output-file-map", mapPath, "-emit-module", "-emit-module-path", modules + "/" + target.name + ".swiftmodule"]
        arguments += ["-module-name", target.name, "-package-name", target.packageIdentity, "-parse-as-library", "-swift-version", target.swiftVersion]
        arguments += release ? ["-O"] : ["-Onone"]
        arguments += BundleBuilder.implicitImports
        arguments += ["-I", modules] + sdk.compilerFlags + target.sources
        let outcome = try runner.run(compiler.path, arguments, directory: objects)
        guard outcome.status == 0 else {
            throw BuildError("\(target.directory): the package target \(target.name) did not compile\(runner.passesOutputThrough ? " (swiftc's errors are above)" : ":\n" + outcome.output)")
        }
        return outputs
    }
}
