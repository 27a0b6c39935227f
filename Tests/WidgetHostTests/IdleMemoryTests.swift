import CHostShims
import CWidgetABI
import Foundation
import Testing
import WidgetTestSupport
@testable import WidgetHost
import WidgetSupport

/// What an idle worker gives back (ProcessIsolation.idleRelease, idle_memory.c): the pages of the
/// files it maps read-only, mapped again from the page cache, unchanged, when next touched.
@Suite struct IdleMemoryTests {
    /// The resident kilobytes of `file`'s mappings in process `pid` whose permissions are `permissions`
    /// ("r-xp": its code), from /proc/PID/smaps.
    static func residentKiB(pid: pid_t, file: String, permissions: String) -> Int {
        // Read to its end: String(contentsOfFile:) reads a /proc file's first page only.
        let descriptor = open("/proc/\(pid)/smaps", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while case let count = read(descriptor, &chunk, chunk.count), count > 0 { bytes += chunk[..<count] }
        let smaps = String(decoding: bytes, as: UTF8.self)
        var total = 0
        var counting = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), range.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                counting = fields.count >= 6 && fields[1] == permissions && fields[5...].joined(separator: " ").hasSuffix("/" + file)
            } else if counting, fields.first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
                total += kilobytes
            }
        }
        return total
    }

    /// A registry of a copy of `fixture` in process isolation, whose workers give back their pages
    /// after `seconds` asked nothing, on `clock`.
    static func load(_ fixture: String, releasingAfter seconds: TimeInterval, clock: ManualClock) async -> WidgetRegistry {
        var settings = ProcessIsolation(workerExecutable: Fixtures.workerExecutable)
        settings.idleRelease = seconds
        let isolation = Isolation.process(settings)
        let directory = Fixtures.directory([fixture])
        return await blocking { WidgetRegistry.load(searchPath: [directory.path], clock: clock, isolation: isolation) }
    }

    @Test func theCodeOfLoadedObjectsIsGivenBackAndWhatTheLoaderWroteIsKept() throws {
        // A copy of its own: no other test runs this image's code meanwhile.
        let directory = Fixtures.directory(["idle-release.so": "good"])
        let path = directory.appendingPathComponent("idle-release.so").path
        let handle = try #require(dlopen(path, RTLD_NOW | RTLD_LOCAL))
        let symbol = try #require(dlsym(handle, WIDGET_BUNDLE_ENTRY_SYMBOL))
        let entry = unsafeBitCast(symbol, to: widget_bundle_entry_fn.self)
        let before = try #require(entry())
        let name = String(cString: before.pointee.name)
        #expect(Self.residentKiB(pid: getpid(), file: "idle-release.so", permissions: "r-xp") > 0)
        #expect(host_release_file_pages() > 0)
        #expect(Self.residentKiB(pid: getpid(), file: "idle-release.so", permissions: "r-xp") == 0, "its code is given back")
        // Called again: its code maps again, and its relocated data (the bundle's pointers, which
        // the dynamic loader wrote) is what it was.
        let after = try #require(entry())
        #expect(after == before)
        #expect(String(cString: after.pointee.name) == name)
        #expect(Self.residentKiB(pid: getpid(), file: "idle-release.so", permissions: "r-xp") > 0)
    }

    /// A Swift bundle's worker, asked nothing for `idleRelease`, gives back its code (its bundle's,
    /// which no other process maps), then answers its next request as before, in the same process.
    @Test func aWorkerAskedNothingForAWhileGivesBackItsCodeAndAnswersAsBefore() async throws {
        let clock = ManualClock()
        let registry = await Self.load("libSystemWidgets.so", releasingAfter: 2, clock: clock)
        defer { registry.shutDownWorkers() }
        let kind = "org.widgets.system.memory"
        let first = try await registry.request(.timeline, kind: kind)
        #expect(!first.entries.isEmpty)
        let worker = try #require(registry.widget(kind: kind)?.bundle.workerProcessID)
        let code: @Sendable () -> Int = { Self.residentKiB(pid: worker, file: "libSystemWidgets.so", permissions: "r-xp") }
        let ran = code()
        #expect(ran > 256, "the bundle's code it ran")
        #expect(await blocking { clock.waitUntilScheduled(at: clock.now().addingTimeInterval(2), limit: 5) }, "the idle release")
        clock.advance(by: 1.5)
        #expect(code() == ran, "not before its period")
        clock.advance(by: 0.5)
        #expect(await blocking { () -> Bool in
            // Given back, all but what the dynamic loader's later look-ups read again (the first
            // page holds the ELF headers): a tenth of it is left at most.
            let giveUp = Date().addingTimeInterval(10)
            while code() * 10 > ran, Date() < giveUp { usleep(10_000) }
            return code() * 10 <= ran
        }, "its code given back")
        let second = try await registry.request(.timeline, kind: kind)
        #expect(second.entries.count == first.entries.count)
        #expect(registry.widget(kind: kind)?.bundle.workerProcessID == worker, "the same worker")
        #expect(registry.statistics(kind: kind)?.crashes == 0)
    }

    /// A bundle whose thread holds the dynamic loader for ever (as one stuck in a library's
    /// constructor would) stalls the release, which walks the loaded objects under the loader's
    /// lock; the worker's reading goes on, and its requests are answered.
    @Test func aReleaseStuckBehindTheDynamicLoaderStopsNoRequest() async throws {
        let clock = ManualClock()
        let registry = await Self.load("holds-loader", releasingAfter: 2, clock: clock)
        defer { registry.shutDownWorkers() }
        #expect(registry.problems.isEmpty, "\(registry.problems)")
        let kind = "fixture.holding"
        #expect(try await registry.request(.timeline, kind: kind).entries.count == 1)
        for round in 0..<3 {
            #expect(await blocking { clock.waitUntilScheduled(at: clock.now().addingTimeInterval(2), limit: 5) }, "the idle release, round \(round)")
            clock.advance(by: 2)
            // Answered in real time, though the release (each round's, or the first's, still stuck) waits.
            let answered = LockedList<Bool>()
            let request = Task {
                let answer = try? await registry.request(.timeline, kind: kind)
                answered.append(answer?.entries.count == 1)
            }
            // A stuck worker never answers; 30 s is for a test run whose compilers take both cores.
            let done = await blocking { () -> Bool in
                let giveUp = Date().addingTimeInterval(30)
                while answered.values.isEmpty, Date() < giveUp { usleep(10_000) }
                return answered.values == [true]
            }
            #expect(done, "round \(round): the request after the release was answered")
            if !done { request.cancel() }
        }
        // The first release is still stuck; the later idle periods started no other.
        let worker = try #require(registry.widget(kind: kind)?.bundle.workerProcessID)
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(worker)/task").compactMap {
            try? String(contentsOfFile: "/proc/\(worker)/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
        }
        #expect(names.filter { $0 == "widgets.release" }.count == 1, "\(names.sorted())")
    }
}
