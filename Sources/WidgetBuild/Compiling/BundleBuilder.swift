import FoundationEssentials
import Glibc
import WidgetSupport
import WidgetWire

/// How to build and where the bundle goes.
public struct BuildOptions: Sendable {
    /// The directory the bundle is installed into (`NAME.widgetbundle` there).
    public var outputDirectory: String
    /// Xcode's Release configuration, optimized; else Debug, as Xcode's Run builds.
    public var release: Bool
    /// Where objects, generated code and compiled resources are kept between builds.
    public var workDirectory: String
    public var jobs: Int

    public init(outputDirectory: String, release: Bool = false, workDirectory: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.outputDirectory = outputDirectory
        self.release = release
        self.workDirectory = workDirectory
        self.jobs = max(1, jobs)
    }

    /// A work directory of its own for each extension (and configuration), under
    /// `$XDG_CACHE_HOME/widgets/build`.
    public static func workDirectory(for source: ExtensionSource, release: Bool) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (source.origin + "\u{0}" + source.name).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let suffix = String(hash, radix: 16)
        return XDGBaseDirectory.cacheHome() + "/widgets/build/\(BuildSettings.c99Identifier(source.name))-\(suffix)/\(release ? "release" : "debug")"
    }
}

/// What a build did.
public struct BuildReport: Sendable {
    public var bundlePath: String
    /// Whether any source was compiled, the shared object linked, the bundle installed anew.
    public var compiled = false
    public var linked = false
    public var installed = false
    public var warnings: [String] = []
    public var seconds: Double = 0
}

/// Builds a widget extension into a bundle: its resources compiled, its code generated, its Swift
/// compiled against the SDK already built (only what changed since the last build, by `swiftc`'s
/// own incremental mode), linked with the SDK's objects, and installed as `NAME.widgetbundle` by
/// renaming, so that a running host never sees half a bundle.
public final class BundleBuilder {
    public let source: ExtensionSource
    public let sdk: WidgetSDK
    public let compiler: SwiftCompiler
    public let options: BuildOptions
    public let runner: ProcessRunner
    private var warnings: [String] = []

    public init(source: ExtensionSource, sdk: WidgetSDK, compiler: SwiftCompiler, options: BuildOptions, runner: ProcessRunner) {
        self.source = source
        self.sdk = sdk
        self.compiler = compiler
        self.options = options
        self.runner = runner
    }

    var work: String { options.workDirectory }
    public var bundleName: String { source.name + "." + ResourceBundleLayout.pathExtension }

    public func build() throws(BuildError) -> BuildReport {
        let start = Date()
        warnings = source.warnings
        guard !WidgetSDK.swiftModules.contains(source.moduleName), !WidgetSDK.cModules.contains(source.moduleName) else {
            throw BuildError("\(source.origin): the module name \(source.moduleName) is one of the SDK's modules; give the product another name")
        }
        for directory in ["objects", "generated"] { try makeDirectory(work + "/" + directory) }
        var contents = try resources()
        let generated = try generatedSources(&contents)
        let packages = try PackageBuilder(
            sdk: sdk, compiler: compiler, runner: runner, work: work + "/packages", release: options.release, projectDirectory: source.root,
            keeps: { [source] in source.keeps($0) }
        ).build(
            source.packageProducts,
            imported: Set(ImportCheck.imports(of: source.swiftFiles + source.frameworks.flatMap(\.swiftFiles), includingConditional: true).keys),
            frameworks: source.frameworks)
        warnings += packages.warnings
        let available = ImportCheck.available(compiler: compiler, extra: packages.modules)
        if let problem = ImportCheck.problem(
            origin: source.origin, root: source.root, files: source.swiftFiles, available: available, ownModule: source.moduleName,
            frameworks: source.linkedFrameworks)
        {
            guard !source.leftOutRemoteProducts.isEmpty else { throw problem }
            // A remote product left out may be the module missing, under another name.
            let products = source.leftOutRemoteProducts.map { "\($0.product) (\($0.url))" }.joined(separator: ", ")
            throw BuildError(
                problem.description + ". The target links remote products left out as no file imports a module of their name, "
                    + "which may provide it under another: \(products); clone beside the project any that does")
        }
        let compiled = try compile(source.swiftFiles + generated, packages: packages)
        let library = work + "/" + source.name + ".so"
        let linked = try link(compiled.objects + packages.objects, into: library)
        contents[source.name + ".so"] = .copy(library)
        let installed = try install(contents)
        return BuildReport(
            bundlePath: options.outputDirectory + "/" + bundleName, compiled: compiled.didCompile, linked: linked, installed: installed,
            warnings: warnings, seconds: Date().timeIntervalSince(start))
    }

    // MARK: Resources

    /// A file of the bundle: bytes made here, or a file copied.
    enum Content: Equatable {
        case data(Data)
        case copy(String)
    }

    /// Everything the bundle holds but its code, by path inside it.
    func resources() throws(BuildError) -> [String: Content] {
        var contents: [String: Content] = [:]
        let settings = buildSettings
        let info = try InfoPlistCompiler.compile(source.infoPlist, settings: settings, executable: source.name + ".so")
        if let point = InfoPlistCompiler.extensionPoint(info), point != "com.apple.widgetkit-extension" {
            warnings.append("\(source.infoPlist ?? source.origin): the extension point is \(point), not com.apple.widgetkit-extension: is this the widget extension?")
        }
        contents[ResourceBundleLayout.infoPlist] = .data(info.xmlData())
        if let entitlements = source.entitlements {
            let value: PlistValue
            do {
                value = try PlistValue.read(contentsOf: entitlements)
            } catch {
                throw BuildError(error.description)
            }
            contents[ResourceBundleLayout.entitlements] = .data(InfoPlistCompiler.expand(value, settings).xmlData())
        }
        if !source.assetCatalogs.isEmpty {
            let assets = try AssetCatalogCompiler.compile(
                source.assetCatalogs, accentColor: settings["ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME"],
                widgetBackground: settings["ASSETCATALOG_COMPILER_WIDGET_BACKGROUND_COLOR_NAME"])
            warnings += assets.warnings
            contents[ResourceBundleLayout.assets] = .data(Data(assets.json.utf8))
            for (path, file) in assets.files { contents[path] = .copy(file) }
            assetNames = (assets.colorNames, assets.imageNames)
        }
        var tables = StringTables()
        for catalog in source.stringCatalogs { try tables.add(catalog: catalog) }
        for file in source.localizedFiles {
            if file.path.hasSuffix(".strings") || file.path.hasSuffix(".stringsdict") {
                try tables.add(file: file.path, localization: file.localization)
            } else {
                contents["\(file.localization).lproj/\(file.path.pathFileName)"] = .copy(file.path)
            }
        }
        try tables.write(into: "") { path, data throws(BuildError) in contents[path] = .data(data) }
        for resource in source.otherResources { try add(resource, as: resource.pathFileName, to: &contents, depth: 0) }
        return contents
    }

    private var assetNames: (colors: [String], images: [String]) = ([], [])

    /// The settings of the build: the source's, with the configuration's name.
    var buildSettings: BuildSettings {
        var settings = source.settings
        settings["CONFIGURATION"] = options.release ? "Release" : "Debug"
        return settings
    }

    private func add(_ path: String, as name: String, to contents: inout [String: Content], depth: Int) throws(BuildError) {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BuildError("\(source.origin): the resource \(path) is not there")
        }
        guard isDirectory else {
            contents[name] = .copy(path)
            return
        }
        guard depth < 16 else { throw BuildError("\(path): folders nested more than 16 deep") }
        for child in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() where !child.hasPrefix(".") {
            try add(path + "/" + child, as: name + "/" + child, to: &contents, depth: depth + 1)
        }
    }

    // MARK: Generated code

    /// The Swift generated from the extension's files (asset symbols, intent definitions), written
    /// only when it changed, so that the compiler's incremental mode sees it unchanged.
    func generatedSources(_ contents: inout [String: Content]) throws(BuildError) -> [String] {
        var files: [(String, String)] = []
        if let symbols = AssetSymbols.source(colors: assetNames.colors, images: assetNames.images) {
            files.append(("GeneratedAssetSymbols.swift", symbols))
        }
        for definition in source.intentDefinitions {
            let generated = try IntentDefinitionCompiler.swiftSource(for: definition, handlerClass: source.moduleName + "." + source.intentHandlerClass)
            files.append((BuildSettings.c99Identifier(definition.pathFileName.pathWithoutExtension) + "+Intents.swift", generated))
        }
        let folder = work + "/generated"
        let wanted = Set(files.map(\.0))
        for stale in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []) where !wanted.contains(stale) {
            try? FileManager.default.removeItem(atPath: folder + "/" + stale)
        }
        for (name, text) in files { try writeIfChanged(folder + "/" + name, Data(text.utf8)) }
        return files.map { folder + "/" + $0.0 }
    }

    // MARK: Compiling and linking

    struct Compiled {
        var objects: [String]
        var didCompile: Bool
    }

    /// As Xcode's SDK has them in every file, the extension's and its packages': Darwin's names Linux
    /// lacks, URLSession, which Linux keeps in FoundationNetworking, and the names Apple's Foundation
    /// has and Linux's keeps in the SDK (`LocalizedStringResource` in a file importing Foundation
    /// alone), those alone: not the SDK's view names, which would clash with a package's own.
    static let implicitImports = ["PlatformShims", "FoundationNetworking", "FoundationAdditions"].flatMap { ["-Xfrontend", "-import-module", "-Xfrontend", $0] }

    /// Flags every Swift file of the extension is compiled with, its packages' modules aside.
    @_spi(Benchmarks) public var swiftFlags: [String] {
        let settings = buildSettings
        var flags = ["-module-name", source.moduleName, "-parse-as-library", "-swift-version", source.swiftVersion]
        flags += options.release ? ["-O"] : ["-Onone"]
        flags += Self.implicitImports
        for condition in settings.list("SWIFT_ACTIVE_COMPILATION_CONDITIONS") where condition != "$(inherited)" { flags += ["-D", condition] }
        if settings["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] == nil, !options.release { flags += ["-D", "DEBUG"] }
        if let isolation = settings["SWIFT_DEFAULT_ACTOR_ISOLATION"], isolation == "MainActor" { flags += ["-default-isolation", "MainActor"] }
        if let strict = settings["SWIFT_STRICT_CONCURRENCY"], ["minimal", "targeted", "complete"].contains(strict) {
            flags += ["-strict-concurrency=\(strict)"]
        }
        if settings.flag("SWIFT_APPROACHABLE_CONCURRENCY") {
            flags += ["-enable-upcoming-feature", "InferIsolatedConformances", "-enable-upcoming-feature", "NonisolatedNonsendingByDefault"]
        }
        for (name, _) in settings.values.sorted(by: { $0.key < $1.key }) where name.hasPrefix("SWIFT_UPCOMING_FEATURE_") && settings.flag(name) {
            flags += ["-enable-upcoming-feature", String(name.dropFirst("SWIFT_UPCOMING_FEATURE_".count))]
        }
        return flags + sdk.compilerFlags
    }

    private func compile(_ files: [String], packages: PackageBuilder.Built) throws(BuildError) -> Compiled {
        let objects = work + "/objects"
        var map = JSONObject([("", .object(JSONObject([("swift-dependencies", .string(objects + "/module.swiftdeps"))])))])
        var outputs: [String] = []
        for file in files {
            let stem = Self.stem(file)
            outputs.append(objects + "/" + stem + ".o")
            map[file] = .object(
                JSONObject([("object", .string(objects + "/" + stem + ".o")), ("swift-dependencies", .string(objects + "/" + stem + ".swiftdeps"))]))
        }
        let mapPath = objects + "/output-file-map.json"
        try writeIfChanged(mapPath, Data(JSONValue.object(map).jsonText.utf8))
        let before = outputs.map(Self.modified)
        // Batch mode: a frontend per core, not per file (each loads the SDK's modules again).
        let arguments = ["-c", "-incremental", "-enable-batch-mode", "-output-file-map", mapPath, "-j", String(options.jobs)] + swiftFlags + packages.flags + files
        let outcome = try runner.run(compiler.path, arguments, directory: work)
        guard outcome.status == 0 else {
            throw BuildError("\(source.origin): the Swift files did not compile (swiftc's errors are above)\(runner.passesOutputThrough ? "" : ":\n" + outcome.output)")
        }
        let after = outputs.map(Self.modified)
        return Compiled(objects: outputs, didCompile: before != after)
    }

    /// A source file's object name: its name and a hash of its path (two folders may hold a "Widget.swift").
    static func stem(_ file: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in file.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return file.pathFileName.pathWithoutExtension + "-" + String(hash, radix: 16)
    }

    static func modified(_ path: String) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// Links the objects with the SDK's into `library`, unless it is newer than all of them (and
    /// made of the same list). Returns whether it linked.
    private func link(_ objects: [String], into library: String) throws(BuildError) -> Bool {
        let inputs = objects + sdk.objects
        let stampPath = work + "/link-inputs"
        let stamp = inputs.map { "\($0) \(Self.modified($0))" }.joined(separator: "\n")
        if FileManager.default.fileExists(atPath: library), (try? String(contentsOfFile: stampPath, encoding: .utf8)) == stamp { return false }
        let temporary = library + ".tmp"
        let outcome = try runner.run(
            compiler.path, ["-emit-library", "-o", temporary, "-module-name", source.moduleName] + compiler.linkerFlags + inputs, directory: work)
        guard outcome.status == 0 else {
            throw BuildError("\(source.origin): linking \(source.name).so failed (the linker's errors are above)\(runner.passesOutputThrough ? "" : ":\n" + outcome.output)")
        }
        guard rename(temporary, library) == 0 else { throw BuildError("cannot move \(temporary) to \(library): \(errnoText())") }
        try writeIfChanged(stampPath, Data(stamp.utf8))
        return true
    }

    // MARK: Installing

    /// Puts the bundle into the output directory: made beside it under a hidden name, then renamed
    /// into place (the old one renamed away first, then removed). Skipped when what would be
    /// installed is what was installed last, and is still there.
    private func install(_ contents: [String: Content]) throws(BuildError) -> Bool {
        let output = options.outputDirectory
        try makeDirectory(output)
        var info = stat()
        if stat(output, &info) == 0, info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            warnings.append("\(output) is writable by group or others (mode \(octal(info.st_mode))); the host refuses bundles there: 'chmod go-w \(output)'")
        }
        let destination = output + "/" + bundleName
        let stamp = contents.sorted { $0.key < $1.key }.map { path, content in
            switch content {
            case .data(let data): "\(path) data \(data.count) \(Self.digest(data))"
            case .copy(let file): "\(path) copy \(file) \(Self.modified(file))"
            }
        }.joined(separator: "\n") + "\n" + destination + " " + String(Self.modified(destination))
        let stampPath = work + "/installed"
        if (try? String(contentsOfFile: stampPath, encoding: .utf8)) == stamp { return false }
        let staging = output + "/." + bundleName + ".tmp-\(getpid())"
        try? FileManager.default.removeItem(atPath: staging)
        try makeDirectory(staging)
        for (path, content) in contents.sorted(by: { $0.key < $1.key }) {
            let target = staging + "/" + path
            try makeDirectory(target.pathDirectory)
            let data: Data
            switch content {
            case .data(let bytes): data = bytes
            case .copy(let file):
                guard let read = FileManager.default.contents(atPath: file) else { throw BuildError("cannot read \(file)") }
                data = read
            }
            try write(target, data, mode: 0o644)
        }
        let old = output + "/." + bundleName + ".old-\(getpid())"
        let hadOld = FileManager.default.fileExists(atPath: destination)
        if hadOld, rename(destination, old) != 0 {
            let reason = errnoText()
            try? FileManager.default.removeItem(atPath: staging)
            throw BuildError("cannot replace \(destination): \(reason)")
        }
        guard rename(staging, destination) == 0 else {
            let reason = errnoText()
            if hadOld { _ = rename(old, destination) }
            try? FileManager.default.removeItem(atPath: staging)
            throw BuildError("cannot install \(destination): \(reason)")
        }
        if hadOld { try? FileManager.default.removeItem(atPath: old) }
        let installedStamp = stamp.split(separator: "\n").dropLast().joined(separator: "\n") + "\n" + destination + " " + String(Self.modified(destination))
        try writeIfChanged(stampPath, Data(installedStamp.utf8))
        return true
    }

    static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    // MARK: Files

    func makeDirectory(_ path: String) throws(BuildError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        } catch {
            throw BuildError("cannot create \(path): \(error.explanation)")
        }
    }

    /// Writes a file with exactly `mode` (whatever the umask), through a descriptor.
    func write(_ path: String, _ data: Data, mode: mode_t) throws(BuildError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw BuildError("cannot write \(path): \(errnoText())") }
        defer { close(descriptor) }
        let failure = data.withUnsafeBytes { bytes in writeAll(bytes) { Glibc.write(descriptor, $0.baseAddress, $0.count) } }
        if let failure { throw BuildError("cannot write \(path): \(errnoText(failure))") }
        guard fchmod(descriptor, mode) == 0 else { throw BuildError("cannot write \(path): \(errnoText())") }
    }

    /// Writes a file only when its bytes differ from what is there.
    func writeIfChanged(_ path: String, _ data: Data) throws(BuildError) {
        if FileManager.default.contents(atPath: path) == data { return }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw BuildError("cannot write \(path): \(error.explanation)")
        }
    }
}
