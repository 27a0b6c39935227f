import Foundation
import Testing
import WidgetSupport

/// A path's parts, as `dirname` and `basename` give them (NSString's versions, which these replace on
/// the loading path, answer "" for "//" and trap on a trailing double slash).
@Suite struct PathTextTests {
    static let cases: [(path: String, directory: String, fileName: String)] = [
        ("", "", ""), ("/", "/", "/"), ("//", "/", "/"), ("a", "", "a"), ("a/", "", "a"), ("/a", "/", "a"), ("/a/", "/", "a"),
        ("a/b", "a", "b"), ("/a/b", "/a", "b"), ("/a//b", "/a", "b"), ("/a/b//", "/a", "b"), ("widgets.d/libX.so", "widgets.d", "libX.so"),
        ("./x.so", ".", "x.so"), ("../lib/x.so", "../lib", "x.so"), ("/tmp/widgets-bench-1/bundle-001.so", "/tmp/widgets-bench-1", "bundle-001.so"),
        ("/ü/ñ/🐳.so", "/ü/ñ", "🐳.so"),
    ]

    @Test(arguments: cases) func aPathSplitsAsDirnameAndBasenameSplitIt(_ example: (path: String, directory: String, fileName: String)) {
        #expect(example.path.pathDirectory == example.directory)
        #expect(example.path.pathFileName == example.fileName)
    }
}

/// Trimming spaces as Foundation's `trimmingCharacters(in: .whitespaces)` trims them (the table of
/// `widgets list` trims each row so, without NSString).
@Suite struct WhitespaceTests {
    static let cases = [
        "", " ", "\t \t", "a", " a ", "a  b   ", "\ta\t", "\u{A0}a\u{3000}", "a\n", "\n a \n", " é\u{301} ", " \u{301}x",
        "org.widgets.clock   Clock       small,circular", "\u{2003}\u{200B}a\u{200B}", "🐳  ", "  🇫🇷",
    ]

    @Test(arguments: cases) func spacesAreTrimmedAsFoundationTrimsWhitespace(_ text: String) {
        #expect(text.trimmingSpaces == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        #expect(text[...].trimmingSpaces == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
    }
}
