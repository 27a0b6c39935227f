import Foundation
import Glibc
import Testing
import WidgetTestSupport

@testable import WidgetBuild

/// Which Swift a compiler is: asked once, then remembered until the compiler's files change.
@Suite struct SwiftCompilerTests {
    /// A stand-in `swiftc` beside a `swift-frontend`, saying `version` and counting how often it is asked.
    func compiler(saying version: String, in folder: URL) throws -> (path: String, asked: URL) {
        let asked = folder.appendingPathComponent("asked")
        let path = folder.appendingPathComponent("swiftc").path
        try writeExecutable("#!/bin/sh\necho x >> \(asked.path)\necho 'Swift version \(version) (swift-\(version)-RELEASE)'\n", to: URL(fileURLWithPath: path))
        try "".write(to: folder.appendingPathComponent("swift-frontend"), atomically: true, encoding: .utf8)
        return (path, asked)
    }

    func count(_ asked: URL) -> Int { ((try? String(contentsOf: asked, encoding: .utf8)) ?? "").split(separator: "\n").count }

    @Test func theVersionIsAskedOnceAndAgainWhenTheCompilerChanges() throws {
        let folder = Fixtures.temporaryDirectory("compiler")
        let cache = Fixtures.temporaryDirectory("cache").path
        let (path, asked) = try compiler(saying: "6.3.1", in: folder)
        let runner = ProcessRunner(passesOutputThrough: false)
        let first = try SwiftCompiler.locate(environment: ["SWIFTC": path], runner: runner, cacheDirectory: cache)
        let second = try SwiftCompiler.locate(environment: ["SWIFTC": path], runner: runner, cacheDirectory: cache)
        #expect(first.version == "6.3.1" && second.version == "6.3.1")
        #expect(count(asked) == 1, "the second build did not ask again")

        // Another compiler installed at the same path (a new size and time): asked again.
        _ = try compiler(saying: "6.4", in: folder)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
        let third = try SwiftCompiler.locate(environment: ["SWIFTC": path], runner: runner, cacheDirectory: cache)
        #expect(third.version == "6.4")
        #expect(count(asked) == 2)
    }

    @Test func bundlesAreLinkedByTheLLDBesideTheCompilerWhenThereIsOne() throws {
        let folder = Fixtures.temporaryDirectory("compiler")
        let (path, _) = try compiler(saying: "6.3.1", in: folder)
        let runner = ProcessRunner(passesOutputThrough: false)
        let cache = Fixtures.temporaryDirectory("cache").path
        #expect(try SwiftCompiler.locate(environment: ["SWIFTC": path], runner: runner, cacheDirectory: cache).linkerFlags == [])
        let lld = folder.appendingPathComponent("ld.lld").path
        #expect(FileManager.default.createFile(atPath: lld, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        #expect(try SwiftCompiler.locate(environment: ["SWIFTC": path], runner: runner, cacheDirectory: cache).linkerFlags == ["-use-ld=lld"])
        // Found beside the compiler itself, not beside a link to it.
        let elsewhere = Fixtures.temporaryDirectory("bin")
        let link = elsewhere.appendingPathComponent("swiftc").path
        #expect(symlink(path, link) == 0)
        #expect(try SwiftCompiler.locate(environment: ["SWIFTC": link], runner: runner, cacheDirectory: cache).linkerFlags == ["-use-ld=lld"])
    }
}
