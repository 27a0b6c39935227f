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

    /// Foundation's `NSLocalizedString`, called every way model code calls it in a file that
    /// imports Foundation beside the SDK (this one: each call compiling is half the test), answered
    /// from the bundle's tables; all five arguments with a table that may be nil are Foundation's.
    @Test func nsLocalizedStringIsAnsweredFromTheBundlesTablesHoweverItIsCalled() throws {
        let directory = try Self.bundle([
            "en.lproj/Localizable.strings": Self.plist("<dict><key>greeting</key><string>Hello</string></dict>"),
            "en.lproj/Other.strings": Self.plist("<dict><key>greeting</key><string>Hi</string></dict>"),
        ])
        BundleResources.shared.use(directory: directory)
        defer { BundleResources.shared.use(directory: nil) }
        let table: String? = "Other"
        #expect(NSLocalizedString("greeting", comment: "") == "Hello")
        #expect(NSLocalizedString("greeting", tableName: "Other", comment: "") == "Hi")
        #expect(NSLocalizedString("greeting", tableName: table, comment: "") == "Hi")
        #expect(NSLocalizedString("greeting", bundle: .main, comment: "") == "Hello")
        #expect(NSLocalizedString("missing", value: "Fallback", comment: "") == "Fallback")
        #expect(NSLocalizedString("greeting", tableName: "Other", bundle: .main, comment: "") == "Hi")
        #expect(NSLocalizedString("greeting", tableName: "Other", value: "x", comment: "") == "Hi")
        #expect(NSLocalizedString("greeting", bundle: .main, value: "x", comment: "") == "Hello")
        #expect(NSLocalizedString("greeting", tableName: "Other", bundle: .main, value: "x", comment: "") == "Hi")
        #expect(NSLocalizedString("missing", tableName: table, bundle: .main, value: "Fallback", comment: "") == "Fallback")
    }
}
