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
