import Foundation
import Testing
import WidgetTestSupport

@testable import WidgetBuild

/// The imports of an extension's files, as `widgets build` finds them before compiling.
@Suite struct ImportCheckTests {
    @Test func importsAreFoundWithTheFilesImportingThemAndThoseUnderAnIfOnlyWhenAsked() throws {
        let folder = Fixtures.temporaryDirectory("imports")
        let widget = folder.appendingPathComponent("Widget.swift")
        let view = folder.appendingPathComponent("View.swift")
        try "import WidgetKit\n@preconcurrency import SwiftUI\n/*\nimport Hidden\n*/\n#if canImport(ActivityKit)\nimport ActivityKit\n#endif\n"
            .write(to: widget, atomically: true, encoding: .utf8)
        try "import struct SwiftUI.Color\nimport Charts;\n".write(to: view, atomically: true, encoding: .utf8)
        let files = [widget.path, view.path]
        #expect(ImportCheck.imports(of: files) == ["WidgetKit": [widget.path], "SwiftUI": [widget.path, view.path], "Charts": [view.path]])
        #expect(ImportCheck.imports(of: files, includingConditional: true)["ActivityKit"] == [widget.path])
    }

    /// A file is read once per build, and again when it has changed since (as an edit between two
    /// builds of one process changes it): replaced, or written over in place with its times set back
    /// as `cp -p` sets them. A file modified in the last two seconds is read each time.
    @Test func aFileChangedSinceItWasReadIsReadAgain() throws {
        let file = Fixtures.temporaryDirectory("imports").appendingPathComponent("Widget.swift")
        let past = Date().addingTimeInterval(-3600)
        func write(_ text: String, inPlace: Bool = false) throws {
            if inPlace {
                let handle = try FileHandle(forWritingTo: file)
                try handle.write(contentsOf: Data(text.utf8))
                try handle.close()
            } else {
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file.path)
        }
        try write("import WidgetKit\n")
        #expect(Array(ImportCheck.imports(of: [file.path]).keys) == ["WidgetKit"])
        #expect(Array(ImportCheck.imports(of: [file.path]).keys) == ["WidgetKit"], "kept")
        try write("import SwiftData\n")
        #expect(Array(ImportCheck.imports(of: [file.path]).keys) == ["SwiftData"], "replaced: the same size and time, another inode")
        try write("import CloudKit\n", inPlace: true)
        #expect(Array(ImportCheck.imports(of: [file.path]).keys) == ["CloudKit"], "written over: the same size, inode and time")
        try "import Charts\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(Array(ImportCheck.imports(of: [file.path]).keys) == ["Charts"])
        try FileManager.default.removeItem(at: file)
        #expect(ImportCheck.imports(of: [file.path]).isEmpty)
    }
}
