import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

/// What the manifest must keep for the builds to take the time they do.
@Suite struct PackageManifestTests {
    /// No test target depends on a macro. SwiftPM builds such a test for the host, with the
    /// dependencies of every test (they share one test product): each module of the package was
    /// compiled twice, as a "-tool" module too, in `make run`'s release build as in `make test`'s.
    /// The macro's tests take its expansions' library instead.
    @Test func noTestTargetDependsOnAMacro() async throws {
        let dump = await runProcess(
            "/usr/bin/env",
            ["swift", "package", "dump-package", "--package-path", Fixtures.repositoryRoot.path, "--scratch-path", Fixtures.temporaryDirectory("manifest").path])
        try #require(dump.status == 0, "\(dump.standardError)")
        let targets = try #require(try JSONValue.parse(dump.standardOutput)["targets"]?.arrayValue)
        let macros = Set(targets.filter { $0["type"] == .string("macro") }.compactMap { $0["name"]?.stringValue })
        #expect(macros == ["WidgetKitMacros"])
        for test in targets where test["type"] == .string("test") {
            // {"byName": ["Name", null]} or {"target": ["Name", null]}
            let names = (test["dependencies"]?.arrayValue ?? []).compactMap { ($0["byName"] ?? $0["target"])?.arrayValue?.first?.stringValue }
            #expect(macros.isDisjoint(with: names), "\(test["name"]?.stringValue ?? "?") depends on the macro \(macros.intersection(names).sorted())")
        }
    }
}
