import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

@testable import WidgetBuild

/// The readers and compilers of an extension's files, without a build: settings, string catalogs,
/// asset catalogs and intent definitions, each on good input and on input a fuzzer mangles.
@Suite struct ResourceCompilerTests {
    static let fixtures = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/Extensions")

    @Test func settingsExpandReferencesWithXcodesOperatorsAndInheritedValues() {
        var settings = BuildSettings.defaults(target: "My Widget", projectDirectory: "/p")
        settings["PRODUCT_BUNDLE_IDENTIFIER"] = "org.example.$(PRODUCT_NAME:rfc1034identifier)"
        settings = settings.overlaid(with: ["SWIFT_ACTIVE_COMPILATION_CONDITIONS": "$(inherited) FEATURE"])
        settings = settings.overlaid(with: ["SWIFT_ACTIVE_COMPILATION_CONDITIONS": "DEBUG $(inherited)"])
        #expect(settings["PRODUCT_BUNDLE_IDENTIFIER"] == "org.example.My-Widget")
        #expect(settings["PRODUCT_MODULE_NAME"] == "My_Widget")
        #expect(settings.list("SWIFT_ACTIVE_COMPILATION_CONDITIONS") == ["DEBUG", "FEATURE"])
        #expect(settings.expand("${SRCROOT}/$(UNSET)x") == "/p/x")
        // A cycle ends instead of recursing for ever.
        settings["A"] = "$(B)"
        settings["B"] = "$(A)"
        #expect(settings["A"] == "")
    }

    @Test func aStringCatalogCompilesToTablesAndPluralEntriesAsXcodeDoes() throws {
        let catalog = Fixtures.temporaryDirectory("catalog").appendingPathComponent("Main.xcstrings")
        try Data(
            """
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "hello": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Hallo"}}}},
              "tap": {"localizations": {"en": {"variations": {"device": {
                  "iphone": {"stringUnit": {"state": "translated", "value": "Tap"}},
                  "mac": {"stringUnit": {"state": "translated", "value": "Click"}}}}}}},
              "%@ has %lld apples": {"localizations": {"de": {
                  "stringUnit": {"state": "translated", "value": "%1$@ hat %#@apples@"},
                  "substitutions": {"apples": {"argNum": 2, "formatSpecifier": "lld", "variations": {"plural": {
                      "one": {"stringUnit": {"state": "translated", "value": "%arg Apfel"}},
                      "other": {"stringUnit": {"state": "translated", "value": "%arg Äpfel"}}}}}}}}}
            }}
            """.utf8
        ).write(to: catalog)
        var tables = StringTables()
        try tables.add(catalog: catalog.path)
        #expect(tables["de", "Main"].strings["hello"] == "Hallo")
        #expect(tables["en", "Main"].strings["tap"] == "Tap", "the iPhone's variation")
        let apples = try #require(tables["de", "Main"].plurals["%@ has %lld apples"]?.dictionary)
        #expect(apples["NSStringLocalizedFormatKey"] == .string("%1$@ hat %2$#@apples@"))
        #expect(apples["apples"]?["one"] == .string("%2$lld Apfel"))
    }

    @Test func aWholeStringVariedByPluralIsChosenByItsFirstNumber() throws {
        #expect(StringTables.firstNumericPosition("%@ has %lld items") == 2)
        #expect(StringTables.positional("%@ has %lld items") == "%1$@ has %2$lld items")
        #expect(StringTables.positional("100%% of %d") == "100%% of %1$d")
    }

    @Test func colourComponentsAreReadInEveryFormXcodeWrites() throws {
        #expect(try AssetCatalogCompiler.component(.string("0.500"), name: "red") == 0.5)
        #expect(try AssetCatalogCompiler.component(.string("255"), name: "red") == 1)
        #expect(try AssetCatalogCompiler.component(.string("0x80"), name: "red") == 128.0 / 255)
        #expect(throws: BuildError.self) { try AssetCatalogCompiler.component(.string("red"), name: "red") }
        // Display P3's pure red lies outside sRGB: clamped to its red.
        let red = try AssetCatalogCompiler.rgba(.object(JSONObject([
            ("color-space", .string("display-p3")),
            ("components", .object(JSONObject([("red", .string("1.000")), ("green", .string("0.000")), ("blue", .string("0.000")), ("alpha", .string("1.000"))]))),
        ])))
        #expect(red[0] == 1 && red[1] == 0 && red[2] == 0)
        let grey = try AssetCatalogCompiler.rgba(.object(JSONObject([
            ("color-space", .string("gray-gamma-22")), ("components", .object(JSONObject([("white", .string("0.500")), ("alpha", .string("0.250"))]))),
        ])))
        #expect(grey == [0.5, 0.5, 0.5, 0.25])
    }

    @Test func anIntentDefinitionGeneratesTheDeclarationsXcodeDoes() throws {
        let source = try IntentDefinitionCompiler.swiftSource(
            for: Self.fixtures.appendingPathComponent("Trips/TripsWidget/TripIntents.intentdefinition").path, handlerClass: "Trips.TripIntentHandler")
        for declaration in [
            "public enum DistanceUnit: Int, _IntentDefinitionEnum {", "    case unknown = 0", "    case kilometers = 1", "    case miles = 2",
            "public class TripItem: INObject {", "    public var daysLeft: NSNumber?", "public class SelectTripIntent: INIntent {",
            "    public var trip: TripItem?", "    public var units: DistanceUnit", "    public var showsCountdown: NSNumber?",
            "public protocol SelectTripIntentHandling: AnyObject {",
            "    func provideTripOptionsCollection(for intent: SelectTripIntent, with completion: @escaping (INObjectCollection<TripItem>?, (any Error)?) -> Void)",
            "    func provideTripOptionsCollection(for intent: SelectTripIntent) async throws -> INObjectCollection<TripItem>",
            "public enum SelectTripIntentResponseCode: Int {", "    case notPlanned = 100", "public class SelectTripIntentResponse: INIntentResponse {",
            "    public static func notPlanned(trip: String) -> SelectTripIntentResponse {", "principalClass: \"Trips.TripIntentHandler\"",
            "range: 1.0...8.0",
        ] {
            #expect(source.contains(declaration), "\(declaration)\n---\n\(source)")
        }
    }

    @Test func badInputIsOneErrorNamingTheFileNeverACrash() throws {
        let directory = Fixtures.temporaryDirectory("fuzz")
        let inputs = [
            ("Localizable.xcstrings", try Data(contentsOf: Self.fixtures.appendingPathComponent("Forecast/Localizable.xcstrings"))),
            ("Intents.intentdefinition", try Data(contentsOf: Self.fixtures.appendingPathComponent("Trips/TripsWidget/TripIntents.intentdefinition"))),
            ("de.strings", try Data(contentsOf: Self.fixtures.appendingPathComponent("Trips/TripsWidget/de.lproj/TripIntents.strings"))),
        ]
        // What it checks: every mangled input either reads or fails with one BuildError that names
        // the file (the suite's reaching its end is the check that nothing crashed).
        var random = SeededGenerator(state: 29)
        var refused = 0
        for index in 0..<Fuzzing.runs(suite: 300) {
            let (name, original) = inputs[index % inputs.count]
            let path = directory.appendingPathComponent("\(index)-\(name)").path
            try Data(Fuzzing.mutate([UInt8](original), &random)).write(to: URL(fileURLWithPath: path))
            do {
                if name.hasSuffix(".xcstrings") {
                    var tables = StringTables()
                    try tables.add(catalog: path)
                } else if name.hasSuffix(".intentdefinition") {
                    _ = try IntentDefinitionCompiler.swiftSource(for: path, handlerClass: "M.H")
                } else {
                    var tables = StringTables()
                    try tables.add(file: path, localization: "de")
                }
            } catch {
                refused += 1
                #expect(error.description.contains(path), "case \(index): \(error)")
                #expect(!error.description.contains("\n"), "case \(index): one line: \(error)")
            }
        }
        #expect(refused > 0, "a fuzzer that breaks nothing tests nothing")
    }

    /// Xcode's template colour sets (AccentColor, WidgetBackground, with no colour: the system's is
    /// meant) say nothing; a set whose colours are all for another device still says it is left out.
    @Test func templateColourSetsWithNoColourAreQuiet() throws {
        let catalog = Fixtures.temporaryDirectory("catalog").appendingPathComponent("Assets.xcassets")
        func colourSet(_ name: String, _ json: String) throws {
            let folder = catalog.appendingPathComponent(name + ".colorset")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try json.write(to: folder.appendingPathComponent("Contents.json"), atomically: true, encoding: .utf8)
        }
        let template = #"{"colors":[{"idiom":"universal"}],"info":{"author":"xcode","version":1}}"#
        try colourSet("AccentColor", template)
        try colourSet("WidgetBackground", template)
        let quiet = try AssetCatalogCompiler.compile([catalog.path], accentColor: "AccentColor", widgetBackground: "WidgetBackground")
        #expect(quiet.warnings.isEmpty, "\(quiet.warnings)")
        try colourSet("MacOnly", #"{"colors":[{"idiom":"mac","color":{"color-space":"srgb","components":{"red":"1","green":"0","blue":"0","alpha":"1"}}}]}"#)
        let told = try AssetCatalogCompiler.compile([catalog.path], accentColor: "AccentColor", widgetBackground: "WidgetBackground")
        #expect(told.warnings.count == 1 && told.warnings[0].contains("the colour set \"MacOnly\" has no colour for iPhone"), "\(told.warnings)")
    }

    /// What macOS's disk forgives: a path written in another letter case than the folder's, and
    /// Xcode 26's configuration files named by a synchronized group and a path inside it; an asset
    /// catalog Xcode lists under Compile Sources is a resource.
    @Test func projectsAreReadAsXcodeReadsThemOnMacOS() throws {
        let copy = Fixtures.temporaryDirectory("project").appendingPathComponent("Trips")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Trips"), to: copy)
        #expect(XcodeProject.onDisk(copy.path + "/tripswidget/TRIPSWIDGET.entitlements") == copy.path + "/TripsWidget/TripsWidget.entitlements")
        #expect(XcodeProject.onDisk(copy.path + "/nowhere/TripsWidget.entitlements") == copy.path + "/nowhere/TripsWidget.entitlements")
        try "WIDGET_FLAVOUR = anchored\n".write(to: copy.appendingPathComponent("TripsWidget/Widget.xcconfig"), atomically: true, encoding: .utf8)
        let file = copy.appendingPathComponent("Trips.xcodeproj/project.pbxproj")
        let text = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(
                of: "A100000000000000000000B4 /* Debug */ = {\n\t\t\tisa = XCBuildConfiguration;",
                with: "A100000000000000000000B4 /* Debug */ = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbaseConfigurationReferenceAnchor = A10000000000000000000031;\n\t\t\tbaseConfigurationReferenceRelativePath = widget.XCCONFIG;")
            .replacingOccurrences(of: "CODE_SIGN_ENTITLEMENTS = TripsWidget/TripsWidget.entitlements;", with: "CODE_SIGN_ENTITLEMENTS = tripsWidget/TripsWidget.entitlements;")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let project = try XcodeProject.read(copy.appendingPathComponent("Trips.xcodeproj").path)
        let target = try project.widgetTarget(named: nil)
        #expect(try project.settings(of: target, configuration: "Debug")["WIDGET_FLAVOUR"] == "anchored")
        let source = try project.extensionSource(target: target, configuration: "Debug", swiftVersion: nil)
        #expect(source.entitlements == copy.path + "/TripsWidget/TripsWidget.entitlements")
    }

    /// After `--exclude`: a remote product imported only under `#if` is left out (the build does not
    /// need it), one imported outright is the error; a framework target only excluded files
    /// imported is not built.
    @Test func whatTheKeptFilesImportDecidesRemoteProductsAndFrameworks() throws {
        let folder = Fixtures.temporaryDirectory("settle")
        let guarded = folder.appendingPathComponent("Guarded.swift")
        try "#if canImport(Analytics)\nimport Analytics\n#endif\nimport KitA\n".write(to: guarded, atomically: true, encoding: .utf8)
        var source = ExtensionSource(name: "W", origin: folder.path, swiftVersion: "5", settings: BuildSettings.defaults(target: "W", projectDirectory: folder.path))
        source.add(guarded.path, isDirectory: false)
        source.remoteProducts = [ExtensionSource.RemoteProduct(product: "Analytics", url: "https://example.org/Analytics", target: "W", cloneFolder: folder.path)]
        source.frameworks = [
            ExtensionSource.FrameworkModule(name: "KitA", target: "KitA", id: "a", swiftFiles: [], swiftVersion: "5"),
            ExtensionSource.FrameworkModule(name: "KitB", target: "KitB", id: "b", swiftFiles: [], swiftVersion: "5"),
        ]
        try source.settleRemoteProducts()
        #expect(source.frameworks.map(\.name) == ["KitA"], "KitB is imported by no kept file")
        #expect(source.warnings.contains { $0.contains("links Analytics") && $0.contains("left out") }, "\(source.warnings)")
        let outright = folder.appendingPathComponent("Outright.swift")
        try "import Analytics\n".write(to: outright, atomically: true, encoding: .utf8)
        source.add(outright.path, isDirectory: false)
        source.remoteProducts = [ExtensionSource.RemoteProduct(product: "Analytics", url: "https://example.org/Analytics", target: "W", cloneFolder: folder.path)]
        #expect(throws: BuildError.self) { try source.settleRemoteProducts() }
    }
}
