import Foundation
import Testing
import WidgetBuild
import WidgetTestSupport
import WidgetWire

/// `widgets build` of an extension folder as Xcode keeps one (Tests/Fixtures/Extensions/Forecast:
/// Swift, Info.plist, an asset catalog, a string catalog, entitlements, a resource file), and the
/// bundle it makes, asked through the CLI in process isolation as a user would.
@Suite(.serialized) struct ExtensionBuildTests {
    static let fixture = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/Extensions/Forecast")

    /// The fixture built once for the suite, into a directory of its own, with its own cache.
    static let built = Once<Result<(plugins: URL, output: ProcessResult), BuildFailure>> {
        let plugins = Fixtures.temporaryDirectory("built-bundles")
        let result = runProcessWaiting(
            Fixtures.widgetsExecutable, ["build", fixture.path, "--out", plugins.path],
            environment: ExtensionBuildTests.environment(cache: Fixtures.temporaryDirectory("build-cache")))
        guard result.status == 0 else { return .failure(BuildFailure(output: result.standardOutput + result.standardError)) }
        return .success((plugins, result))
    }

    struct BuildFailure: Error, CustomStringConvertible {
        let output: String
        var description: String { "widgets build failed:\n\(output)" }
    }

    /// A test's `widgets` environment with the build cache given.
    static func environment(cache: URL) -> [String: String] {
        widgetsEnvironment(extra: ["XDG_CACHE_HOME": cache.path])
    }

    static var bundle: URL { get async throws { try await built.value.get().plugins.appendingPathComponent("Forecast.widgetbundle") } }

    func ask(_ arguments: [String], language: String = "en_US.UTF-8") async throws -> ProcessResult {
        let plugins = try await Self.built.value.get().plugins
        return await widgets(["--plugins", plugins.path, "--no-cache"] + arguments, extraEnvironment: ["LANG": language, "LANGUAGE": "", "LC_ALL": ""])
    }

    @Test func theFolderBecomesABundleHoldingItsCodeAndCompiledResources() async throws {
        let (plugins, build) = try await Self.built.value.get()
        let bundle = plugins.appendingPathComponent("Forecast.widgetbundle")
        #expect(build.standardOutput.contains(bundle.path), "\(build.standardOutput)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: bundle.path).sorted()
        for expected in [
            "Forecast.so", "Info.plist", "Assets.json", "Entitlements.plist", "cities.json", "en.lproj/Localizable.strings",
            "de.lproj/Localizable.strings", "de.lproj/Localizable.stringsdict",
        ] {
            #expect(files.contains(expected), "\(expected) is not in the bundle: \(files)")
        }
        #expect(files.contains { $0.hasPrefix("Assets/Sun/") && $0.hasSuffix(".png") }, "\(files)")
        #expect(!files.contains { $0.hasSuffix(".swift") || $0.hasSuffix(".xcstrings") || $0.hasSuffix(".entitlements") }, "sources are not resources: \(files)")
        let info = try String(contentsOf: bundle.appendingPathComponent("Info.plist"), encoding: .utf8)
        for expected in ["<string>local.widgets.Forecast</string>", "<string>Forecast.so</string>", "<string>Lisbon</string>", "com.apple.widgetkit-extension"] {
            #expect(info.contains(expected), "Info.plist lacks \(expected): \(info)")
        }
        #expect(!info.contains("$("), "Info.plist's $(...) are expanded: \(info)")
        // Every file as the host wants it: nobody but its owner may write it.
        for file in files {
            let attributes = try FileManager.default.attributesOfItem(atPath: bundle.appendingPathComponent(file).path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
            #expect(mode & 0o022 == 0, "\(file) is writable by group or others: \(String(mode, radix: 8))")
        }
    }

    /// The code of a built bundle, the SDK's in it included, reaches generic types' metadata through
    /// accessors: the helper swiftc emits for reaching it by mangled name (which each worker would
    /// demangle, and scan every library's conformances for, after loading the bundle) is not in it.
    /// The sample bundles, built by SwiftPM with the SDK, likewise.
    @Test func bundlesReachGenericMetadataThroughAccessorsNotMangledNames() async throws {
        let built = try await Self.bundle.appendingPathComponent("Forecast.so")
        let samples = ["libSystemWidgets.so", "libGameWidgets.so", "libCryptoWidgets.so"].map { Fixtures.productsDirectory.appendingPathComponent($0) }
        for file in [built] + samples {
            let contents = try Data(contentsOf: file)
            // Its local symbols are there to be looked for (nothing stripped them).
            #expect(contents.contains(bytesOf: ".symtab"), "\(file.path) has no symbol table")
            #expect(
                !contents.contains(bytesOf: "__swift_instantiateConcreteTypeFromMangledName"),
                "\(file.path) reaches metadata by mangled names: compiled without -disable-concrete-type-metadata-mangled-name-accessors")
        }
    }

    /// Linked by the toolchain's lld when it has one (swift.org's do; gold took half as long again).
    @Test func theBundleIsLinkedByTheToolchainsLLD() async throws {
        let built = try await Self.bundle.appendingPathComponent("Forecast.so")
        let compiler = try SwiftCompiler.locate(runner: ProcessRunner(passesOutputThrough: false))
        let hasLLD = !compiler.linkerFlags.isEmpty
        #expect(try Data(contentsOf: built).contains(bytesOf: "Linker: LLD") == hasLLD, "\(compiler.path), ld.lld beside it: \(hasLLD)")
    }

    @Test func listAndLoadShowTheBundleLikeAnyOther() async throws {
        let list = try await ask(["list"])
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("Forecast.widgetbundle (ABI 1.7"), "\(list.standardOutput)")
        #expect(list.standardOutput.contains("- fixture.forecast  Forecast"), "\(list.standardOutput)")
        let load = await widgets(["load", try await Self.bundle.path])
        #expect(load.status == 0, "\(load.standardError)")
        #expect(load.standardOutput.contains("fixture.forecast"), "\(load.standardOutput)")
    }

    @Test func textIsShownInTheUsersLanguageWithPluralsAndPlacedArguments() async throws {
        let english = try await ask(["timeline", "fixture.forecast"], language: "en_GB.UTF-8")
        #expect(english.status == 0, "\(english.standardError)")
        for line in ["  Forecast\n", "  1 sunny day\n", "  In Lisbon: 22°\n"] {
            #expect(english.standardOutput.contains(line), "\(line) in \(english.standardOutput)")
        }
        let german = try await ask(["timeline", "fixture.forecast"], language: "de_AT.UTF-8")
        for line in ["  Vorhersage\n", "  1 sonniger Tag\n", "  22° in Lisbon\n"] {
            #expect(german.standardOutput.contains(line), "\(line) in \(german.standardOutput)")
        }
        let snapshot = try await ask(["snapshot", "fixture.forecast"], language: "de_DE.UTF-8")
        #expect(snapshot.standardOutput.contains("  3 sonnige Tage\n"), "\(snapshot.standardOutput)")
        // A language the bundle lacks falls back to its development language.
        let french = try await ask(["timeline", "fixture.forecast"], language: "fr_FR.UTF-8")
        #expect(french.standardOutput.contains("  1 sunny day\n"), "\(french.standardOutput)")
        let described = try await ask(["list", "fixture.forecast"], language: "de_DE.UTF-8")
        #expect(described.standardOutput.contains("Die Vorhersage für deine Stadt"), "\(described.standardOutput)")
    }

    @Test func bundleMainIsTheWidgetBundleAndItsEntitlementsNameItsGroups() async throws {
        let timeline = try await ask(["timeline", "fixture.forecast"])
        #expect(timeline.standardOutput.contains("  local.widgets.Forecast\n"), "bundleIdentifier: \(timeline.standardOutput)")
        #expect(timeline.standardOutput.contains("  In Lisbon: 22°\n"), "object(forInfoDictionaryKey:): \(timeline.standardOutput)")
        #expect(timeline.standardOutput.contains("  data: found\n"), "url(forResource:withExtension:): \(timeline.standardOutput)")
        #expect(timeline.standardOutput.contains("  groups: yes no\n"), "containerURL for a group named, and one not: \(timeline.standardOutput)")
        #expect(timeline.standardError.contains("the app group \"group.org.example.other\" is not in the bundle's entitlements"), "\(timeline.standardError)")
    }

    @Test func assetColoursAndImagesAreTheCatalogsForEachAppearance() async throws {
        let snapshot = try await ask(["snapshot", "fixture.forecast", "--json"])
        let entry = try #require(try JSONValue.parse(snapshot.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))["entries"]?.arrayValue?.first)
        let view = try #require(entry["view"])
        let text = view.jsonText
        // Brand's light appearance, written as hex components (0xE0, 0x20, 0x30).
        #expect(text.contains("{\"foregroundColor\":\"#e02030\"}"), "\(text)")
        // The generated symbols: Color(.brand) and .foregroundStyle(.brand).
        #expect(text.contains("\"fill\":\"#e02030\""), "\(text)")
        #expect(text.contains("{\"foregroundStyle\":\"#e02030\"}"), "\(text)")
        // AccentColor (Display P3 0.1, 0.3, 0.6) does not tint the widget (its controls are the system's
        // blue, as on iOS); WidgetBackground is its background.
        #expect(!text.contains("{\"tint\":\"#004e9e\"}"), "\(text)")
        #expect(text.contains("{\"containerBackground\":\"#fff2e6\"}"), "\(text)")
        // The @2x picture of 40 × 20 pixels: 20 × 10 points.
        #expect(text.contains("\"view\":\"image\",\"name\":\"Sun\",\"data\":\"data:image/png;base64,"), "\(text)")
        #expect(text.contains("\"width\":20,\"height\":10"), "\(text)")

        let plugins = try await Self.built.value.get().plugins
        for (appearance, brand, background) in [("light", "#e02030", "#fff2e6"), ("dark", "#40ff80", "#1a1a33")] {
            let out = Fixtures.temporaryDirectory("gallery-\(appearance)")
            let gallery = await widgets(["--plugins", plugins.path, "gallery", "--out", out.path, "--appearance", appearance])
            #expect(gallery.status == 0, "\(gallery.standardError)")
            let svg = try String(contentsOf: out.appendingPathComponent("fixture.forecast.systemSmall.snapshot.svg"), encoding: .utf8)
            #expect(svg.contains(brand), "\(appearance): \(brand) in \(svg.prefix(2000))")
            #expect(svg.contains(background), "\(appearance): \(background) in \(svg.prefix(2000))")
            #expect(svg.contains("<image"), "\(appearance): the Sun picture in \(svg.prefix(2000))")
        }
        // Without --appearance both are drawn, each from the view the bundle built for it.
        let both = Fixtures.temporaryDirectory("gallery-both")
        let gallery = await widgets(["--plugins", plugins.path, "gallery", "--out", both.path])
        #expect(gallery.status == 0, "\(gallery.standardError)")
        let light = try String(contentsOf: both.appendingPathComponent("fixture.forecast.systemSmall.snapshot.light.svg"), encoding: .utf8)
        let dark = try String(contentsOf: both.appendingPathComponent("fixture.forecast.systemSmall.snapshot.svg"), encoding: .utf8)
        #expect(light.contains("#e02030") && !light.contains("#40ff80"), "the light drawing's brand colour: \(light.prefix(2000))")
        #expect(dark.contains("#40ff80") && !dark.contains("#e02030"), "the dark drawing's brand colour: \(dark.prefix(2000))")
    }

    @Test func previewProviderPreviewsAreDrawnAsXcodesCanvasDrawsThem() async throws {
        let previews = try await ask(["preview", "fixture.forecast", "--json"])
        #expect(previews.status == 0, "\(previews.standardError)")
        let list = try #require(try JSONValue.parse(previews.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))["previews"]?.arrayValue)
        #expect(list.map { $0["family"]?.stringValue } == ["systemSmall", "systemMedium"], "\(previews.standardOutput)")
        #expect(list.first?["name"]?.stringValue == "Heat wave")
        #expect(list.first?["entries"]?.arrayValue?.first?["text"]?.stringValue?.contains("5 sunny days") == true, "\(previews.standardOutput)")
        #expect(list.last?["entries"]?.arrayValue?.first?["text"]?.stringValue?.contains("In Lisbon: -4°") == true, "\(previews.standardOutput)")
        let plugins = try await Self.built.value.get().plugins
        let out = Fixtures.temporaryDirectory("gallery")
        let gallery = await widgets(["--plugins", plugins.path, "gallery", "--out", out.path])
        #expect(gallery.status == 0, "\(gallery.standardError)")
        let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("Heat wave"), "the gallery shows the previews too")
    }

    /// A copy of the fixture, to change.
    static func copy() throws -> URL {
        let copy = Fixtures.temporaryDirectory("extension").appendingPathComponent("Forecast")
        try FileManager.default.copyItem(at: fixture, to: copy)
        return copy
    }

    @Test func modulesLinuxLacksAreNamedWithTheirFilesBeforeCompilingAndExcludeLeavesThemOut() async throws {
        let copy = try Self.copy()
        try "import CoreData\nimport Foundation\n\nfinal class Store {}\n".write(to: copy.appendingPathComponent("Store.swift"), atomically: true, encoding: .utf8)
        try "#if canImport(HealthKit)\nimport HealthKit\n#endif\n".write(to: copy.appendingPathComponent("Health.swift"), atomically: true, encoding: .utf8)
        let out = Fixtures.temporaryDirectory("out")
        let refused = await widgets(["build", copy.path, "--out", out.path])
        #expect(refused.status == 1)
        #expect(
            refused.standardError.contains(
                "the extension imports modules that do not exist on Linux: CoreData (Apple's object store, which Linux does not have), imported by Store.swift."),
            "\(refused.standardError)")
        #expect(!refused.standardError.contains("HealthKit"), "an import inside #if is the condition's business: \(refused.standardError)")
        let built = await widgets(["build", copy.path, "--out", out.path, "--exclude", "Store.swift"])
        #expect(built.status == 0, "\(built.standardError)")
    }

    @Test func aOneLineEditRebuildsOnlyWhatChanged() async throws {
        let copy = try Self.copy()
        let out = Fixtures.temporaryDirectory("out")
        let cache = Fixtures.temporaryDirectory("cache")
        let temporary = Fixtures.temporaryDirectory("tmp")
        func build() async -> ProcessResult {
            await widgets(["build", copy.path, "--out", out.path], extraEnvironment: ["XDG_CACHE_HOME": cache.path, "TMPDIR": temporary.path])
        }
        #expect(await build().standardOutput.contains("(compiled,"))
        #expect(await build().standardOutput.contains("(up to date,"), "nothing changed, nothing built or installed")
        let source = copy.appendingPathComponent("ForecastWidget.swift")
        try String(contentsOf: source, encoding: .utf8).replacingOccurrences(of: "sunnyDays: 1,", with: "sunnyDays: 2,")
            .write(to: source, atomically: true, encoding: .utf8)
        #expect(await build().standardOutput.contains("(compiled,"))
        let strings = copy.appendingPathComponent("Localizable.xcstrings")
        try String(contentsOf: strings, encoding: .utf8).replacingOccurrences(of: "\"Vorhersage\"", with: "\"Wetter\"")
            .write(to: strings, atomically: true, encoding: .utf8)
        #expect(await build().standardOutput.contains("(resources changed,"), "a string table's change needs no compiler")
        let timeline = await widgets(["--plugins", out.path, "--no-cache", "timeline", "fixture.forecast"], extraEnvironment: ["LANG": "de_DE.UTF-8"])
        #expect(timeline.standardOutput.contains("  Wetter\n") && timeline.standardOutput.contains("  2 sonnige Tage\n"), "\(timeline.standardOutput)")
        // Four builds left nothing in the temporary directory (the Swift driver leaves a directory
        // there per compile unless given one of its own).
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    @Test func aBrokenFileIsOneErrorNamingIt() async throws {
        let copy = try Self.copy()
        try "{ \"strings\": ".write(to: copy.appendingPathComponent("Localizable.xcstrings"), atomically: true, encoding: .utf8)
        let catalog = await widgets(["build", copy.path, "--out", Fixtures.temporaryDirectory("out").path])
        #expect(catalog.status == 1)
        #expect(catalog.standardError.hasPrefix("\(copy.path)/Localizable.xcstrings: error: not valid JSON"), "\(catalog.standardError)")
        let source = try Self.copy()
        try "let broken = \n".write(to: source.appendingPathComponent("Broken.swift"), atomically: true, encoding: .utf8)
        let compile = await widgets(["build", source.path, "--out", Fixtures.temporaryDirectory("out").path])
        #expect(compile.status == 1)
        #expect(compile.standardError.contains("Broken.swift:1:"), "swiftc's own error, file and line: \(compile.standardError)")
        #expect(compile.standardError.contains("widgets: error: \(source.path): the Swift files did not compile"), "\(compile.standardError)")
    }
}
