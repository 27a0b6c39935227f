import Foundation
import Glibc
import Testing
import WidgetTestSupport
import WidgetWire

/// Listing without running code: the registry cache (`$XDG_CACHE_HOME/widgets/registry.json`).
@Suite struct RegistryCacheTests {
    /// `widgets -v list` in a cache home of the test's: its listing and the cache's debug line.
    func list(_ plugins: URL, cache: URL, _ extra: [String] = []) async -> ProcessResult {
        await widgets(["--plugins", plugins.path, "-v"] + extra + ["list"], extraEnvironment: ["XDG_CACHE_HOME": cache.path])
    }

    func counts(_ result: ProcessResult) -> (read: Int, loaded: Int)? {
        guard let line = result.standardError.split(separator: "\n").first(where: { $0.contains("registry cache") }) else { return nil }
        let numbers = line.split(separator: ":").last!.split(separator: " ").compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    @Test func unchangedBundlesAreListedFromTheCacheAndAChangedOneIsLoadedAgain() async throws {
        let plugins = Fixtures.temporaryDirectory("plugins")
        for name in ["good", "metadata"] {
            try FileManager.default.copyItem(
                at: Fixtures.directory([name]).appendingPathComponent("\(name).so"), to: plugins.appendingPathComponent("\(name).so"))
        }
        let cache = Fixtures.temporaryDirectory("cache")
        let first = await list(plugins, cache: cache)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(counts(first).map { $0 == (0, 2) } == true)
        let file = cache.appendingPathComponent("widgets/registry.json")
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o600)

        let second = await list(plugins, cache: cache)
        #expect(counts(second).map { $0 == (2, 0) } == true, "nothing loaded: \(second.standardError)")
        #expect(second.standardOutput == first.standardOutput, "the same listing, metadata and all")

        // A file changed in place (a new modification time) is loaded again; the other is not.
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, plugins.appendingPathComponent("good.so").path, &times, 0) == 0)
        let third = await list(plugins, cache: cache)
        #expect(counts(third).map { $0 == (1, 1) } == true)
        #expect(third.standardOutput == first.standardOutput)

        // --no-cache loads every bundle.
        #expect(counts(await list(plugins, cache: cache, ["--no-cache"])) == nil)
        let afterBypass = await list(plugins, cache: cache)
        #expect(counts(afterBypass).map { $0 == (2, 0) } == true)
    }

    @Test func aRefusalIsCachedUntilItsFileChanges() async throws {
        let plugins = Fixtures.directory(["crash-in-initialize"])
        let cache = Fixtures.temporaryDirectory("cache")
        let first = await list(plugins, cache: cache)
        #expect(first.status == 1)
        let refusal = try #require(first.standardError.split(separator: "\n").first { $0.contains("crash-in-initialize.so") })
        let second = await list(plugins, cache: cache)
        #expect(counts(second).map { $0 == (1, 0) } == true, "the crash is not repeated: \(second.standardError)")
        #expect(second.status == 1)
        #expect(second.standardError.contains(refusal), "the same refusal, word for word")
    }

    @Test func aCorruptOrForeignCacheIsIgnoredAndWrittenAfresh() async throws {
        let plugins = Fixtures.directory(["good"])
        let cache = Fixtures.temporaryDirectory("cache")
        let file = cache.appendingPathComponent("widgets/registry.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "{\"host\": \"widg".write(to: file, atomically: true, encoding: .utf8)
        let corrupt = await list(plugins, cache: cache)
        #expect(corrupt.status == 0, "\(corrupt.standardError)")
        #expect(counts(corrupt).map { $0 == (0, 1) } == true)
        #expect(counts(await list(plugins, cache: cache)).map { $0 == (1, 0) } == true, "written afresh")

        // Another host's cache (another release or ABI): its entries are not read.
        let text = try String(contentsOf: file, encoding: .utf8)
        let root = try JSONValue.parse(text)
        var object = try #require(root.objectValue)
        object["host"] = .string("widgets 0.1; ABI 1.0; worker protocol 1")
        try JSONValue.object(object).jsonText.write(to: file, atomically: true, encoding: .utf8)
        #expect(counts(await list(plugins, cache: cache)).map { $0 == (0, 1) } == true)
    }

    /// The cache vouches for what a file registered, never for the file: a bundle made writable by
    /// others after it was cached (a mode change leaves its modification time) is refused as any is.
    @Test func aCachedBundleIsStillCheckedForOwnershipAndMode() async throws {
        let plugins = Fixtures.temporaryDirectory("plugins")
        let bundle = plugins.appendingPathComponent("good.so")
        try FileManager.default.copyItem(at: Fixtures.directory(["good"]).appendingPathComponent("good.so"), to: bundle)
        chmod(bundle.path, 0o644)
        let cache = Fixtures.temporaryDirectory("cache")
        #expect(await list(plugins, cache: cache).status == 0)
        var before = stat()
        #expect(stat(bundle.path, &before) == 0)
        #expect(chmod(bundle.path, 0o666) == 0)
        var after = stat()
        #expect(stat(bundle.path, &after) == 0 && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec && after.st_mtim.tv_sec == before.st_mtim.tv_sec)
        let refused = await list(plugins, cache: cache)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("good.so: refused: writable by group or others (mode 0666)"), "\(refused.standardError)")
        #expect(!refused.standardOutput.contains("fixture.good"))
        #expect(chmod(bundle.path, 0o644) == 0)
        let again = await list(plugins, cache: cache)
        #expect(again.status == 0 && counts(again).map { $0 == (1, 0) } == true, "listed from the cache again: \(again.standardError)")
    }

    /// A cache whose bytes are not UTF-8 is a corrupt cache: ignored, and written afresh.
    @Test func aCacheThatIsNotUTF8IsIgnored() async throws {
        let plugins = Fixtures.directory(["good"])
        let cache = Fixtures.temporaryDirectory("cache")
        #expect(await list(plugins, cache: cache).status == 0)
        let file = cache.appendingPathComponent("widgets/registry.json")
        var bytes = [UInt8](try Data(contentsOf: file))
        let name = Array("Fixture".utf8)
        let at = try #require((0...(bytes.count - name.count)).first { Array(bytes[$0..<$0 + name.count]) == name })
        bytes[at] = 0xFF
        try Data(bytes).write(to: file)
        let listed = await list(plugins, cache: cache)
        #expect(listed.status == 0 && counts(listed).map { $0 == (0, 1) } == true, "\(listed.standardError)")
        #expect(listed.standardOutput.contains("Fixture") && !listed.standardOutput.contains("\u{FFFD}"))
    }
}
