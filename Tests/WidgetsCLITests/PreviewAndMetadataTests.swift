import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

/// ABI 1.5 through the CLI, with C bundles: a bundle's metadata, and its previews drawn by
/// `widgets preview` and the gallery.
@Suite struct PreviewAndMetadataTests {
    @Test func aBundlesMetadataIsShownByLoadAndList() async throws {
        let plugins = Fixtures.directory(["metadata", "abi-1-0"])
        let load = await widgets(["load", Fixtures.path("metadata")])
        #expect(load.status == 0, "\(load.standardError)")
        #expect(load.standardOutput.contains("  version 1.2.0 · by Example Ltd · MIT · https://example.org/widgets\n"), "\(load.standardOutput)")
        let list = await widgets(["--plugins", plugins.path, "list", "--json"])
        let bundles = try #require(try JSONValue.parse(list.standardOutput)["bundles"]?.arrayValue)
        let described = try #require(bundles.first { $0["path"]?.stringValue?.hasSuffix("/metadata.so") == true })
        #expect(described["version"] == .string("1.2.0"))
        #expect(described["vendor"] == .string("Example Ltd"))
        #expect(described["license"] == .string("MIT"))
        #expect(described["homepage"] == .string("https://example.org/widgets"))
        // An ABI 1.0 bundle has no such fields: none is read past its struct.
        let older = try #require(bundles.first { $0["path"]?.stringValue?.hasSuffix("/abi-1-0.so") == true })
        #expect(older["version"] == .null && older["homepage"] == .null)
    }

    @Test func previewsAreDrawnInTheirFamiliesWithTheirNames() async throws {
        let plugins = Fixtures.directory(["metadata"])
        let result = await widgets(["--plugins", plugins.path, "preview", "fixture.described"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("╭─ Sunny 1/2 ─"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("╭─ Sunny 2/2 ─"))
        #expect(result.standardOutput.contains("more sun"))
        #expect(result.standardOutput.contains("╭─ Preview 2 ─"), "an unnamed preview is numbered")
        let inline = await widgets(["--plugins", plugins.path, "preview", "fixture.described", "--family", "accessoryInline", "--json"])
        let previews = try #require(try JSONValue.parse(inline.standardOutput)["previews"]?.arrayValue)
        #expect(previews.count == 1)
        #expect(previews.first?["family"] == .string("accessoryInline"))
        #expect(previews.first?["entries"]?.arrayValue?.first?["text"] == .string("inline"))
        let none = await widgets(["--plugins", plugins.path, "preview", "fixture.described", "--family", "systemLarge"])
        #expect(none.status == 1)
        #expect(none.standardError.contains("widget \"fixture.described\" has no previews in systemLarge"), "\(none.standardError)")
    }

    @Test func aBundleThatCannotAnswerPreviewsIsToldApart() async throws {
        let plugins = Fixtures.directory(["good", "abi-1-0"])
        let older = await widgets(["--plugins", plugins.path, "preview", "fixture.older"])
        #expect(older.status == 1)
        #expect(older.standardError.contains("was built for ABI 1.0, older than previews requests (ABI 1.5)"), "\(older.standardError)")
        // A bundle of ABI 1.5 that answers a previews request as a timeline: the answer is refused.
        let wrong = await widgets(["--plugins", plugins.path, "preview", "fixture.good"])
        #expect(wrong.status == 1)
        #expect(wrong.standardError.contains("invalid previews result: previews: expected an array"), "\(wrong.standardError)")
    }

    @Test func theGalleryShowsTheAuthorsPreviews() async throws {
        let plugins = Fixtures.directory(["metadata"])
        let out = Fixtures.temporaryDirectory("gallery")
        let result = await widgets(["--plugins", plugins.path, "gallery", "--out", out.path])
        #expect(result.status == 0, "\(result.standardError)")
        let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("<figure class=\"preview\">"))
        #expect(page.contains("systemSmall · Sunny 1/2"))
        #expect(page.contains("accessoryInline · Preview 2"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("fixture.described.preview1-2.systemSmall.svg").path))
    }
}
