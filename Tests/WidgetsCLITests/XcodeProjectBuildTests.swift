import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

/// `widgets build` of an Xcode project as it is (Tests/Fixtures/Extensions/Trips): Xcode 16's
/// folder-synchronized groups with exceptions (a file shared with the app, an Info.plist left out),
/// an Intents extension whose handler offers the options of an intent definition's generated
/// intent, an asset and a string catalog, entitlements, build settings in Swift 6 mode, and a local
/// Swift package.
@Suite(.serialized) struct XcodeProjectBuildTests {
    static let fixture = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/Extensions/Trips")

    /// The project built once for the suite (its folder given, as a user would), with -v.
    static let built = Once<Result<(plugins: URL, output: ProcessResult), ExtensionBuildTests.BuildFailure>> {
        let plugins = Fixtures.temporaryDirectory("built-projects")
        let result = runProcessWaiting(
            Fixtures.widgetsExecutable, ["build", fixture.path, "--out", plugins.path, "-v"],
            environment: ExtensionBuildTests.environment(cache: Fixtures.temporaryDirectory("build-cache")))
        guard result.status == 0 else { return .failure(ExtensionBuildTests.BuildFailure(output: result.standardOutput + result.standardError)) }
        return .success((plugins, result))
    }

    func ask(_ arguments: [String], language: String = "en_US.UTF-8", state: URL? = nil) async throws -> ProcessResult {
        let plugins = try await Self.built.value.get().plugins
        var environment = ["LANG": language, "LANGUAGE": "", "LC_ALL": ""]
        if let state { environment["XDG_STATE_HOME"] = state.path }
        return await widgets(["--plugins", plugins.path, "--no-cache"] + arguments, extraEnvironment: environment)
    }

    @Test func theWidgetExtensionTargetIsFoundAndBuiltInItsLanguageMode() async throws {
        let (plugins, build) = try await Self.built.value.get()
        let bundle = plugins.appendingPathComponent("TripsWidgetExtension.widgetbundle")
        #expect(build.standardOutput.contains(bundle.path), "the product's name names the bundle: \(build.standardOutput)")
        #expect(build.standardError.contains("-swift-version 6"), "SWIFT_VERSION 6.0: \(build.standardError)")
        #expect(build.standardError.contains("-D DEBUG"), "the Debug configuration's conditions: \(build.standardError)")
        let info = try String(contentsOf: bundle.appendingPathComponent("Info.plist"), encoding: .utf8)
        for expected in [
            "<string>org.example.trips.widget</string>", "<key>CFBundleDisplayName</key>\n\t<string>Trip Countdown</string>",
            "<key>CFBundleShortVersionString</key>\n\t<string>1.2</string>", "<key>CFBundleVersion</key>\n\t<string>7</string>",
        ] {
            #expect(info.contains(expected), "Info.plist lacks \(expected): \(info)")
        }
        let entitlements = try String(contentsOf: bundle.appendingPathComponent("Entitlements.plist"), encoding: .utf8)
        #expect(entitlements.contains("<string>group.org.example.trips</string>"), "\(entitlements)")
        // The app's own Info.plist and its file that is not shared stay out.
        let files = try FileManager.default.subpathsOfDirectory(atPath: bundle.path)
        #expect(!files.contains("TripsApp.swift") && files.filter { $0 == "Info.plist" }.count == 1, "\(files)")
    }

    @Test func theGeneratedIntentIsTheConfigurationWithItsHandlersOptions() async throws {
        let list = try await ask(["list", "fixture.trip"])
        #expect(list.status == 0, "\(list.standardError)")
        for line in [
            "configuration: intent (SelectTripIntent)", "parameter trip \"Trip\": entity TripItem, optional, dynamic options",
            "parameter units \"Units\": enum Distance Unit, optional, default kilometers", "parameter showsCountdown \"Show Countdown\": boolean, optional, default true",
            "parameter travellers \"Travellers\": integer",
        ] {
            #expect(list.standardOutput.contains(line), "\(line) in \(list.standardOutput)")
        }
        let trips = try await ask(["options", "fixture.trip", "trip"])
        #expect(trips.standardOutput == "lisbon  Lisbon Weekend\nalps    Alps Hike\n", "the Intents extension's handler: \(trips.standardOutput) \(trips.standardError)")
        let units = try await ask(["options", "fixture.trip", "units"], language: "de_DE.UTF-8")
        #expect(units.standardOutput == "kilometers  Kilometer  (default)\nmiles       Meilen\n", "titles from de.lproj/TripIntents.strings: \(units.standardOutput)")
        let travellers = try await ask(["add", "fixture.trip", "--set", "travellers=9"], state: Fixtures.temporaryDirectory("state"))
        #expect(travellers.status != 0 && travellers.standardError.contains("9"), "the definition's range, 1 to 8: \(travellers.standardError)")
    }

    @Test func anInstancesConfigurationReachesTheProviderThroughTheGeneratedTypes() async throws {
        let state = Fixtures.temporaryDirectory("state")
        let add = try await ask(["add", "fixture.trip", "--set", "trip=alps", "--set", "units=miles", "--set", "showsCountdown=false"], state: state)
        #expect(add.status == 0, "\(add.standardError)")
        let id = add.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let timeline = try await ask(["timeline", "--instance", id], state: state)
        #expect(timeline.status == 0, "\(timeline.standardError)")
        for line in ["  Alps Hike\n", "  398 mi\n", "  2 travellers\n"] {
            #expect(timeline.standardOutput.contains(line), "\(line) in \(timeline.standardOutput)")
        }
        #expect(!timeline.standardOutput.contains("left"), "showsCountdown false: \(timeline.standardOutput)")
        let german = try await ask(["timeline", "fixture.trip"], language: "de_DE.UTF-8")
        for line in ["  Reise\n", "  Lisbon Weekend\n", "  Noch 1 Tag\n", "  1850 km\n"] {
            #expect(german.standardOutput.contains(line), "\(line) in \(german.standardOutput)")
        }
    }

    /// A copy of the fixture with its project file changed by `edit`.
    static func variant(_ edit: (String) -> String) throws -> URL {
        let copy = Fixtures.temporaryDirectory("project").appendingPathComponent("Trips")
        try FileManager.default.copyItem(at: fixture, to: copy)
        let project = copy.appendingPathComponent("Trips.xcodeproj/project.pbxproj")
        try edit(try String(contentsOf: project, encoding: .utf8)).write(to: project, atomically: true, encoding: .utf8)
        return copy
    }

    /// `widgets build` with the arguments given, every call with the same build cache.
    static func builds() -> @Sendable ([String]) async -> ProcessResult {
        let cache = Fixtures.temporaryDirectory("build-cache")
        return { await widgets(["build"] + $0, extraEnvironment: ["XDG_CACHE_HOME": cache.path]) }
    }

    static func remote(_ url: String) -> (String) -> String {
        {
            $0.replacingOccurrences(
                of: "isa = XCLocalSwiftPackageReference;\n\t\t\trelativePath = Packages/TripKit;",
                with: "isa = XCRemoteSwiftPackageReference;\n\t\t\trepositoryURL = \"\(url)\";")
        }
    }

    @Test func targetsAreChosenByNameAndAnUnknownOneIsNamed() async throws {
        let unknown = await widgets(["build", Self.fixture.path, "--target", "Nope", "--out", Fixtures.temporaryDirectory("out").path])
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("has no target named \"Nope\"; its targets: Trips, TripsWidgetExtension, TripsIntents"), "\(unknown.standardError)")
        let two = try Self.variant { $0.replacingOccurrences(of: "productName = TripsIntents;", with: "productName = TripsIntents;") }
        // The Intents extension made a second widget extension: the choice is the user's.
        let intentsInfo = two.appendingPathComponent("TripsIntents/Info.plist")
        try String(contentsOf: intentsInfo, encoding: .utf8).replacingOccurrences(of: "com.apple.intents-service", with: "com.apple.widgetkit-extension")
            .write(to: intentsInfo, atomically: true, encoding: .utf8)
        let ambiguous = await widgets(["build", two.path, "--out", Fixtures.temporaryDirectory("out").path])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.standardError.contains("has 2 WidgetKit extensions: choose one with --target (TripsWidgetExtension, TripsIntents)"), "\(ambiguous.standardError)")
    }
}


/// The Trips project with its remote packages changed: with and without their clones, products that no
/// file imports. Each test works on a copy of its own; the two suites of these (this one and
/// XcodeProjectPackageTests) run beside each other, each serialized: two builds at a time (as one
/// chain they were the test run's longest; all at once, six builds would take every core).
@Suite(.serialized) struct XcodeProjectRemotePackageTests {
    typealias Project = XcodeProjectBuildTests

    @Test func aRemotePackageWithoutACloneIsOneErrorSayingWhatToDo() async throws {
        let copy = try Project.variant(Project.remote("https://github.com/example/TripKit"))
        try FileManager.default.removeItem(at: copy.appendingPathComponent("Packages"))
        let result = await widgets(["build", copy.path, "--out", Fixtures.temporaryDirectory("out").path])
        #expect(result.status == 1)
        #expect(
            result.standardError.contains(
                "(target TripsWidgetExtension) uses TripKit from the remote package https://github.com/example/TripKit "
                    + "(the target TripsWidgetExtension, imported by TripsWidget.swift; "
                    + "git clone https://github.com/example/TripKit \(copy.deletingLastPathComponent().path)/TripKit): widgets build cannot fetch packages; "
                    + "clone it beside the project"),
            "\(result.standardError)")
        #expect(!result.standardError.contains("\n\n"), "one error: \(result.standardError)")
        // The files that import it left out (as a port leaves out what it cannot build), it is left out too.
        let excluded = await widgets(["build", copy.path, "--out", Fixtures.temporaryDirectory("out").path, "--exclude", "TripsWidget/*.swift"])
        #expect(!excluded.standardError.contains("uses TripKit"), "\(excluded.standardError)")
        #expect(excluded.standardError.contains("links TripKit from the remote package https://github.com/example/TripKit, which none of its files imports: left out"), "\(excluded.standardError)")
        // A product whose module has another name is left out by its name; the missing module's
        // error then names it.
        let renamed = try Project.variant {
            Project.remote("https://github.com/example/TripKit")($0).replacingOccurrences(of: "productName = TripKit;", with: "productName = TripKitLibrary;")
        }
        try FileManager.default.removeItem(at: renamed.appendingPathComponent("Packages"))
        let missing = await widgets(["build", renamed.path, "--out", Fixtures.temporaryDirectory("out").path])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("TripKit (no such module here)") && missing.standardError.contains("left out as no file imports a module of their name")
            && missing.standardError.contains("TripKitLibrary (https://github.com/example/TripKit)"), "\(missing.standardError)")
    }

    /// A local package's product that no file of the extension imports is not built (its own
    /// dependencies may be what Linux cannot build); every remote package a package depends on
    /// without a clone here is named in one error, not one per build.
    @Test func unimportedProductsAreLeftOutAndEveryMissingCloneIsNamedAtOnce() async throws {
        let copy = try Project.variant { $0 }
        let manifest = copy.appendingPathComponent("Packages/TripKit/Package.swift")
        try """
            // swift-tools-version: 5.9
            import PackageDescription
            let package = Package(
                name: "TripKit",
                products: [.library(name: "TripKit", targets: ["TripKit"])],
                dependencies: [.package(url: "https://github.com/example/Alpha.git", from: "1.0.0"), .package(url: "https://github.com/example/beta", branch: "main")],
                targets: [.target(name: "TripKit", dependencies: [.product(name: "Alpha", package: "Alpha"), .product(name: "Beta", package: "beta")])]
            )
            """.write(to: manifest, atomically: true, encoding: .utf8)
        let missing = await widgets(["build", copy.path, "--out", Fixtures.temporaryDirectory("out").path])
        #expect(missing.status == 1)
        let folder = copy.appendingPathComponent("Packages").path
        #expect(
            missing.standardError.contains(
                "remote packages with no clone here: https://github.com/example/Alpha.git, which \(manifest.path) depends on "
                    + "(git clone https://github.com/example/Alpha.git \(folder)/Alpha); "
                    + "https://github.com/example/beta, which \(manifest.path) depends on (git clone https://github.com/example/beta \(folder)/beta)"),
            "\(missing.standardError)")
        // Nothing imports TripKit any more: it is not built, so its missing dependencies do not matter.
        let widget = copy.appendingPathComponent("TripsWidget/TripsWidget.swift")
        let source = try String(contentsOf: widget, encoding: .utf8)
        try source.replacingOccurrences(of: "import TripKit\n", with: "")
            .replacingOccurrences(of: "distanceText(kilometers:", with: "localDistance(kilometers:")
            .appending("\nfunc localDistance(kilometers: Double, inMiles: Bool) -> String { inMiles ? \"\\(Int((kilometers / 1.609344).rounded())) mi\" : \"\\(Int(kilometers.rounded())) km\" }\n")
            .write(to: widget, atomically: true, encoding: .utf8)
        let unimported = await widgets(["build", copy.path, "--out", Fixtures.temporaryDirectory("out").path])
        #expect(unimported.status == 0, "\(unimported.standardError)")
        #expect(unimported.standardError.contains("the product TripKit, which none of the extension's files imports, is left out"), "\(unimported.standardError)")
    }

    /// Xcode fetches a remote package; here the user clones it beside the project, named as its
    /// repository, and the build takes it from there.
    @Test func aRemotePackageIsTakenFromItsCloneBesideTheProject() async throws {
        let copy = try Project.variant(Project.remote("https://github.com/example/tripkit.git"))
        try FileManager.default.moveItem(
            at: copy.appendingPathComponent("Packages/TripKit"), to: copy.deletingLastPathComponent().appendingPathComponent("TripKit"))
        let out = Fixtures.temporaryDirectory("out")
        let result = await widgets(["build", copy.path, "--out", out.path])
        #expect(result.status == 0, "\(result.standardError)")
        let timeline = await widgets(["--plugins", out.path, "--no-cache", "timeline", "fixture.trip"])
        #expect(timeline.standardOutput.contains("1850 km"), "TripKit's distance formatting: \(timeline.standardOutput) \(timeline.standardError)")
    }

    /// A product linked from a remote package that no file imports (Xcode links it; nothing uses
    /// it) is left out with a warning; a product named without its package is found among the
    /// local packages the project's folder holds, by the product its manifest declares.
    @Test func anUnusedRemoteProductIsLeftOutAndAProductWithoutItsPackageIsFound() async throws {
        let copy = try Project.variant {
            $0.replacingOccurrences(of: "\t\t\tpackage = A100000000000000000000A0 /* XCLocalSwiftPackageReference \"Packages/TripKit\" */;\n", with: "")
                .replacingOccurrences(
                    of: "\t\t\t\tA10000000000000000000002 /* TripKit */,\n", with: "\t\t\t\tA10000000000000000000002 /* TripKit */,\n\t\t\t\tA100000000000000000000B2 /* ScrollUI */,\n"
                )
                .replacingOccurrences(
                    of: "/* End XCSwiftPackageProductDependency section */",
                    with: "\t\tA100000000000000000000B2 /* ScrollUI */ = {\n\t\t\tisa = XCSwiftPackageProductDependency;\n\t\t\tpackage = A100000000000000000000B0;\n\t\t\tproductName = ScrollUI;\n\t\t};\n/* End XCSwiftPackageProductDependency section */\n"
                        + "/* Begin XCRemoteSwiftPackageReference section */\n\t\tA100000000000000000000B0 = {\n\t\t\tisa = XCRemoteSwiftPackageReference;\n\t\t\trepositoryURL = \"https://github.com/example/ScrollUI\";\n\t\t};\n/* End XCRemoteSwiftPackageReference section */")
                .replacingOccurrences(of: "\t\t\t\tA100000000000000000000A0 /* XCLocalSwiftPackageReference \"Packages/TripKit\" */,\n", with: "")
                // The one local package the project still names is another.
                .replacingOccurrences(of: "relativePath = Packages/TripKit;", with: "relativePath = Packages/Themes;")
        }
        // A second local package beside it, which does not declare TripKit.
        let other = copy.appendingPathComponent("Packages/Themes")
        try FileManager.default.createDirectory(at: other.appendingPathComponent("Sources/Themes"), withIntermediateDirectories: true)
        try """
            // swift-tools-version: 5.9
            import PackageDescription
            let package = Package(name: "Themes", products: [.library(name: "Themes", targets: ["Themes"])], targets: [.target(name: "Themes")])
            """.write(to: other.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "public let accent = 1\n".write(to: other.appendingPathComponent("Sources/Themes/Theme.swift"), atomically: true, encoding: .utf8)
        let out = Fixtures.temporaryDirectory("out")
        let result = await widgets(["build", copy.path, "--out", out.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardError.contains("links ScrollUI from the remote package https://github.com/example/ScrollUI, which none of its files imports: left out"),
            "\(result.standardError)")
        let timeline = await widgets(["--plugins", out.path, "--no-cache", "timeline", "fixture.trip"])
        #expect(timeline.standardOutput.contains("1850 km"), "\(timeline.standardOutput) \(timeline.standardError)")
    }
}

/// The Trips project with a package's own files and a framework target changed (see
/// XcodeProjectRemotePackageTests).
@Suite(.serialized) struct XcodeProjectPackageTests {
    typealias Project = XcodeProjectBuildTests

    /// A package's files are compiled as the extension's are (URLSession without importing
    /// FoundationNetworking), a target at the package's root leaves the manifest out, as SwiftPM
    /// does, and a module Linux lacks is named with the package file importing it.
    @Test func aPackagesFilesAreCompiledAsTheExtensionsAre() async throws {
        let copy = try Project.variant { $0 }
        // One build cache for the test's builds, as a user rebuilding has: each one after the first is incremental.
        let build = Project.builds()
        let package = copy.appendingPathComponent("Packages/TripKit")
        try String(contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
            .replacingOccurrences(of: ".target(name: \"TripKit\")", with: ".target(name: \"TripKit\", path: \".\")")
            .write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let network = package.appendingPathComponent("Sources/TripKit/Network.swift")
        try "import Foundation\nimport CloudKit\npublic let tripSession = URLSession.shared\n".write(to: network, atomically: true, encoding: .utf8)
        let missing = await build([copy.path, "--out", Fixtures.temporaryDirectory("out").path])
        #expect(missing.status == 1)
        #expect(
            missing.standardError.contains("Packages/TripKit/Package.swift (the target TripKit): the package imports modules that do not exist on Linux: CloudKit (iCloud, which Linux does not have), imported by Sources/TripKit/Network.swift"),
            "\(missing.standardError)")
        try "import Foundation\npublic let tripSession = URLSession.shared\n".write(to: network, atomically: true, encoding: .utf8)
        let out = Fixtures.temporaryDirectory("out")
        let built = await build([copy.path, "--out", out.path])
        #expect(built.status == 0, "\(built.standardError)")
        // A package's own type named as one of the SDK's views (Link) is not ambiguous in a file
        // that imports Foundation and the package, as on iOS: the SDK's view names are not imported
        // into every file, Foundation's additions are.
        try "public struct Link { public let url: String\n public init(url: String) { self.url = url } }\n"
            .write(to: package.appendingPathComponent("Sources/TripKit/Link.swift"), atomically: true, encoding: .utf8)
        try "import Foundation\nimport TripKit\nfunc homeLink() -> Link { Link(url: \"https://example.org\") }\nfunc title() -> LocalizedStringResource { \"Trips\" }\n"
            .write(to: copy.appendingPathComponent("TripsWidget/Links.swift"), atomically: true, encoding: .utf8)
        let linked = await build([copy.path, "--out", out.path])
        #expect(linked.status == 0, "\(linked.standardError)")
        // --exclude reaches a package's files, by their path in the project or their name.
        try "import CloudKit\n".write(to: package.appendingPathComponent("Sources/TripKit/Sync.swift"), atomically: true, encoding: .utf8)
        let trimmed = await build([copy.path, "--out", out.path, "--exclude", "Packages/TripKit/Sources/TripKit/Sync.swift"])
        #expect(trimmed.status == 0, "\(trimmed.standardError)")
    }

    /// A framework target of the project that the extension imports (a `Kit` the app shares with
    /// it) is compiled as a module of its own before the extension, with the packages it imports;
    /// one importing a module Linux lacks is named as such.
    @Test func aFrameworkTargetOfTheProjectIsBuiltAsAModule() async throws {
        let copy = try Project.variant {
            $0.replacingOccurrences(
                of: "\t\t\t\tA10000000000000000000042 /* TripsIntents */,\n\t\t\t);",
                with: "\t\t\t\tA10000000000000000000042 /* TripsIntents */,\n\t\t\t\tA1F00000000000000000F002 /* TripsKit */,\n\t\t\t);")
                .replacingOccurrences(
                    of: "/* End XCSwiftPackageProductDependency section */",
                    with: """
                        /* End XCSwiftPackageProductDependency section */
                        \t\tA1F00000000000000000F001 /* TripsKit */ = {isa = PBXFileSystemSynchronizedRootGroup; path = TripsKit; sourceTree = "<group>"; };
                        \t\tA1F00000000000000000F002 /* TripsKit */ = {isa = PBXNativeTarget; buildConfigurationList = A1F00000000000000000F003; buildPhases = (); fileSystemSynchronizedGroups = (A1F00000000000000000F001); name = TripsKit; productName = TripsKit; productType = "com.apple.product-type.framework"; packageProductDependencies = (A10000000000000000000002); };
                        \t\tA1F00000000000000000F003 = {isa = XCConfigurationList; buildConfigurations = (A1F00000000000000000F004); defaultConfigurationName = Release; };
                        \t\tA1F00000000000000000F004 = {isa = XCBuildConfiguration; buildSettings = { PRODUCT_NAME = "$(TARGET_NAME)"; SWIFT_VERSION = 5.0; }; name = Release; };
                        """)
        }
        let kit = copy.appendingPathComponent("TripsKit")
        let build = Project.builds()
        try FileManager.default.createDirectory(at: kit, withIntermediateDirectories: true)
        try "import TripKit\npublic func farewell(_ kilometers: Double) -> String { \"Bon voyage: \" + distanceText(kilometers: kilometers, inMiles: false) }\n"
            .write(to: kit.appendingPathComponent("Farewell.swift"), atomically: true, encoding: .utf8)
        let widget = copy.appendingPathComponent("TripsWidget/TripsWidget.swift")
        try String(contentsOf: widget, encoding: .utf8)
            .replacingOccurrences(of: "import TripKit\n", with: "import TripKit\nimport TripsKit\n")
            .replacingOccurrences(of: "Text(verbatim: \"\\(entry.travellers) travellers\")", with: "Text(verbatim: farewell(entry.trip.kilometers))")
            .write(to: widget, atomically: true, encoding: .utf8)
        let out = Fixtures.temporaryDirectory("out")
        let built = await build([copy.path, "--out", out.path])
        #expect(built.status == 0, "\(built.standardError)")
        let timeline = await widgets(["--plugins", out.path, "--no-cache", "timeline", "fixture.trip"])
        #expect(timeline.standardOutput.contains("Bon voyage: 1850 km"), "\(timeline.standardOutput) \(timeline.standardError)")
        try "import CloudKit\n".write(to: kit.appendingPathComponent("Sync.swift"), atomically: true, encoding: .utf8)
        let refused = await build([copy.path, "--out", out.path])
        #expect(refused.status == 1)
        #expect(
            refused.standardError.contains("the project's framework TripsKit (TripsKit): the framework imports modules that do not exist on Linux: CloudKit"),
            "\(refused.standardError)")
        #expect(refused.standardError.contains("--exclude PATTERN reaches the framework's files too"), "a framework target has no Package.swift: \(refused.standardError)")
        let excluded = await build([copy.path, "--out", out.path, "--exclude", "TripsKit/Sync.swift"])
        #expect(excluded.status == 0, "--exclude reaches the framework's files: \(excluded.standardError)")
    }

}
