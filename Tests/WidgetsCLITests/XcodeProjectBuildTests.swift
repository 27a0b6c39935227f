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
    static let built: Result<(plugins: URL, output: ProcessResult), ExtensionBuildTests.BuildFailure> = {
        let plugins = Fixtures.temporaryDirectory("built-projects")
        let result = runProcessWaiting(
            Fixtures.widgetsExecutable, ["build", fixture.path, "--out", plugins.path, "-v"],
            environment: ExtensionBuildTests.environment(cache: Fixtures.temporaryDirectory("build-cache")))
        guard result.status == 0 else { return .failure(ExtensionBuildTests.BuildFailure(output: result.standardOutput + result.standardError)) }
        return .success((plugins, result))
    }()

    func ask(_ arguments: [String], language: String = "en_US.UTF-8", state: URL? = nil) async throws -> ProcessResult {
        let plugins = try Self.built.get().plugins
        var environment = ["LANG": language, "LANGUAGE": "", "LC_ALL": ""]
        if let state { environment["XDG_STATE_HOME"] = state.path }
        return await widgets(["--plugins", plugins.path, "--no-cache"] + arguments, extraEnvironment: environment)
    }

    @Test func theWidgetExtensionTargetIsFoundAndBuiltInItsLanguageMode() throws {
        let (plugins, build) = try Self.built.get()
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

    @Test func aRemotePackageIsOneErrorSayingWhatToDo() async throws {
        let copy = try Self.variant {
            $0.replacingOccurrences(of: "isa = XCLocalSwiftPackageReference;\n\t\t\trelativePath = Packages/TripKit;", with: "isa = XCRemoteSwiftPackageReference;\n\t\t\trepositoryURL = \"https://github.com/example/TripKit\";")
        }
        let result = await widgets(["build", copy.path, "--out", Fixtures.temporaryDirectory("out").path])
        #expect(result.status == 1)
        #expect(
            result.standardError.contains("widgets: error: the target TripsWidgetExtension uses TripKit from the remote package https://github.com/example/TripKit: widgets build cannot fetch packages"),
            "\(result.standardError)")
        #expect(!result.standardError.contains("\n\n"), "one error: \(result.standardError)")
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
