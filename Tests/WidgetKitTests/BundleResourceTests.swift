import Foundation
import Testing
@testable import WidgetKit
import WidgetWire

/// A bundle's resources as the SDK reads them (string tables, asset catalogs, Info.plist), from a
/// bundle directory written here in the form `widgets build` writes.
@Suite(.serialized) struct BundleResourceTests {
    static func bundle(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resources-\(UUID().uuidString).widgetbundle")
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return directory
    }

    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """
    }

    @Test func aLiteralKeyIsLookedUpInTheStringTable() throws {
        let directory = try Self.bundle([
            "en.lproj/Localizable.strings": Self.plist("<dict><key>forecast.title</key><string>Forecast</string></dict>")
        ])
        BundleResources.shared.use(directory: directory)
        defer { BundleResources.shared.use(directory: nil) }
        #expect(Text("forecast.title").plainText == "Forecast")
        #expect(Text(verbatim: "forecast.title").plainText == "forecast.title")
    }
}
