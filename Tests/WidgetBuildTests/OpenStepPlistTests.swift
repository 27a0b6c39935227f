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
