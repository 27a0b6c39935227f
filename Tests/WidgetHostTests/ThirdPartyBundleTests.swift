import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

/// A widget author's package outside this repository, depending on it by path as the README says,
/// built with `swift build` and installed into a bundle directory: the whole third-party path. The
/// package is Tests/iOSStyleBundle/Author, built with that directory's other bundles (build.sh).
@Suite struct ThirdPartyBundleTests {
    @Test(.timeLimit(.minutes(15))) func authorsPackageBuildsAgainstThisOneAndLoads() async throws {
        let products = try await IOSStyleBundleTests.products.value.get()
        let plugins = Fixtures.temporaryDirectory("plugins")
        let built = products.appendingPathComponent("libWeatherWidgets.so")
        try FileManager.default.copyItem(at: built, to: plugins.appendingPathComponent("libWeatherWidgets.so"))

        let list = await widgets(["--plugins", plugins.path, "list", "--json"])
        #expect(list.status == 0, "\(list.standardError)")
        let widget = try #require(JSONValue.parse(list.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))["bundles"]?.arrayValue?.first?["widgets"]?.arrayValue)
        #expect(widget.count == 1, "the if-false widget is not registered")
        #expect(widget.first?["kind"] == .string("com.example.weather"))
        #expect(widget.first?["families"] == .array(["systemSmall", "systemMedium", "systemLarge", "systemExtraLarge"].map(JSONValue.string)))
        #expect(widget.first?["contentMarginsDisabled"] == .bool(true))

        let timeline = await widgets(["--plugins", plugins.path, "timeline", "com.example.weather", "--family", "systemMedium", "--json"])
        #expect(timeline.status == 0, "\(timeline.standardError)")
        let json = try JSONValue.parse(timeline.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(json["entries"]?.arrayValue?.map { $0["text"] } == ["Berlin  15°", "Berlin  16°", "Berlin  17°"].map(JSONValue.string))
        #expect(json["policy"]?["kind"] == .string("atEnd"))
        let small = await widgets(["--plugins", plugins.path, "snapshot", "com.example.weather"])
        #expect(small.standardOutput.hasSuffix("\n  18°\n"))
    }
}
