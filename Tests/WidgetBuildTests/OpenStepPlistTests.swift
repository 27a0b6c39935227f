import Foundation
import Testing
import WidgetBuild

/// The OpenStep reader Xcode's projects and `.strings` files are read with.
@Suite struct OpenStepPlistTests {
    @Test func aProjectStyleDictionaryWithCommentsListsDataAndQuotedTextIsRead() throws {
        let text = """
            // !$*UTF8*$!
            {
                archiveVersion = 1;
                objects = {
                    /* Begin PBXBuildFile section */
                    A1 /* x.swift in Sources */ = {isa = PBXBuildFile; fileRef = B2 /* x.swift */; };
                };
                list = (a, "b c", );
                data = <0fbd 7771>;
                escaped = "tab\\there \\"quoted\\" \\U00e9";
            }
            """
        let value = try OpenStepPlist.parse(text, file: "project.pbxproj")
        #expect(value["archiveVersion"]?.string == "1")
        #expect(value["objects"]?["A1"]?["fileRef"]?.string == "B2")
        #expect(value["list"]?.array?.compactMap(\.string) == ["a", "b c"])
        #expect(value["data"] == .data(Data([0x0f, 0xbd, 0x77, 0x71])))
        #expect(value["escaped"]?.string == "tab\there \"quoted\" é")
    }

    @Test func aStringsFileIsADictionaryWithoutBraces() throws {
        let value = try OpenStepPlist.parse("/* greeting */\n\"hello\" = \"Hallo\";\n\"same\";\n", file: "de.lproj/Localizable.strings")
        #expect(value == .dictionary(["hello": .string("Hallo"), "same": .string("same")]))
    }

    @Test func badInputIsOneErrorNamingTheFileAndLine() {
        #expect {
            try OpenStepPlist.parse("{\n  a = b;\n  c = d\n}", file: "x.pbxproj")
        } throws: { error in
            guard let error = error as? PlistError else { return false }
            return error.file == "x.pbxproj" && error.line == 4 && error.description.contains("expected ';' after the value of \"c\"")
        }
    }
}

/// XML and binary property lists (an Info.plist, a compiled `.strings`) read by FoundationEssentials'
/// decoder, as Foundation's `PropertyListSerialization` reads them, but for one thing the decoder
/// cannot tell: a `<real>` holding a whole number reads as an integer (checked below).
@Suite struct PropertyListReadingTests {
    nonisolated(unsafe) static let value: [String: Any] = [
        "CFBundleDisplayName": "Weather", "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"],
        "Count": 3, "Ratio": 0.5, "Enabled": true, "Off": false, "Items": ["a", 1, ["nested": "yes"]], "Blob": Data([0, 1, 2]),
        "When": Date(timeIntervalSince1970: 1_800_000_000), "Empty": [String: Any](), "None": [Any](),
    ]

    static let expected: PlistValue = .dictionary([
        "CFBundleDisplayName": .string("Weather"), "NSExtension": .dictionary(["NSExtensionPointIdentifier": .string("com.apple.widgetkit-extension")]),
        "Count": .integer(3), "Ratio": .real(0.5), "Enabled": .bool(true), "Off": .bool(false),
        "Items": .array([.string("a"), .integer(1), .dictionary(["nested": .string("yes")])]), "Blob": .data(Data([0, 1, 2])),
        "When": .date(Date(timeIntervalSince1970: 1_800_000_000)), "Empty": .dictionary([:]), "None": .array([]),
    ])

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func aPropertyListReadsAsFoundationWroteIt(_ format: PropertyListSerialization.PropertyListFormat) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: Self.value, format: format, options: 0)
        #expect(try PlistValue.parse(data, file: "Info.plist") == Self.expected)
        // What this project writes reads back the same.
        #expect(try PlistValue.parse(Self.expected.xmlData(), file: "Info.plist") == Self.expected)
    }

    @Test func aWholeRealReadsAsAnInteger() throws {
        let text = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key><real>2</real><key>b</key><real>2.5</real></dict></plist>"
        #expect(try PlistValue.parse(Data(text.utf8), file: "Info.plist") == .dictionary(["a": .integer(2), "b": .real(2.5)]))
    }

    @Test func aBrokenOneIsRefusedSayingWhere() {
        #expect {
            try PlistValue.parse(Data("<?xml version=\"1.0\"?><plist><dict><key>a</key></plist>".utf8), file: "Info.plist")
        } throws: { error in
            "\(error)".contains("Info.plist") && "\(error)".contains("not a valid property list: ") && "\(error)".contains("line")
        }
    }
}
