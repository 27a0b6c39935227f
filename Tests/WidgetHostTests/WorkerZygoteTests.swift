import Foundation
import Testing
import WidgetTestSupport
@testable import WidgetHost
import WidgetSupport

/// Workers forked from the zygote (docs/ISOLATION.md): each starts as a spawned one would, a zygote
/// that ends is started again, and a host that cannot have one spawns its workers.
@Suite struct WorkerZygoteTests {
    func load(_ fixtures: [String], _ settings: ProcessIsolation = ProcessIsolation(workerExecutable: Fixtures.workerExecutable)) async -> WidgetRegistry {
        let directory = Fixtures.directory(fixtures)
        return await blocking { WidgetRegistry.load(searchPath: [directory.path], isolation: .process(settings)) }
    }

    /// A process's parent, from /proc/PID/stat (the field after the command's closing parenthesis).
    static func parent(of pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    static func commandLine(of pid: Int32) -> String {
        let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// What each open descriptor of a process is: "0 -> /dev/null", "3 -> socket", ...
    static func descriptors(of pid: Int32) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return entries.compactMap { Int($0) }.sorted().map { number in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(number)")) ?? "?"
            // A socket's inode differs from process to process, and each loaded a copy of the
            // bundle in a directory of its own: their kinds and file names do not.
            if target.hasPrefix("anon_inode:") { return "\(number) -> \(target)" }
            return "\(number) -> \(target.hasPrefix("/dev/") ? target : target.split(separator: ":").first.map(String.init)?.pathFileName ?? target)"
        }
    }

    static func status(of pid: Int32, _ field: String) -> String? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix(field + ":") }.map { String($0.dropFirst(field.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    /// A process's VmData (what the kernel counts toward RLIMIT_DATA), in bytes.
    static func dataSegment(of pid: Int32) -> Int64? {
        status(of: pid, "VmData")?.split(separator: " ").first.flatMap { Int64($0) }.map { $0 * 1024 }
    }

    /// A worker's kernel bound on its data (RLIMIT_DATA, docs/SECURITY.md) is set once it has
    /// loaded: what it held then (its VmData), plus the guard's limits, its threads' stacks and a
    /// margin, so that the guard, which can say what happened, ends it first.
    @Test func aWorkersDataLimitStandsAboveWhatItHeldOnceLoaded() async throws {
        let registry = await load(["good"])
        defer { registry.shutDownWorkers() }
        let pid = try #require(registry.widget(kind: "fixture.good")?.bundle.workerProcessID)
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max data size") })
        // "Max data size   <soft>   <hard>   bytes"
        let soft = try #require(line.split(separator: " ").dropFirst(3).first.flatMap { Int64($0) }, "not bounded: \(line)")
        let held = try #require(Self.dataSegment(of: pid))
        // Its threads' stacks (128 of 8 MiB) and 256 MiB over what it held when the limit was set,
        // and over that the guard's limits: a provider's 30 MB and 32 MiB. It has grown a little
        // since (its reading thread's stack), so 64 MiB are allowed below.
        let margin: Int64 = 128 * (8 << 20) + (256 << 20)
        #expect(soft >= held + margin + 30_000_000 + (32 << 20) - (64 << 20), "limit \(soft), VmData \(held)")
        #expect(soft <= held + margin + (256 << 20), "limit \(soft), VmData \(held)")
        // What it held is read as the kernel says it (VmData in /proc/self/status): here, in this
        // process, between two reads of this test's own (other tests' threads come and go).
        let before = try #require(Self.dataSegment(of: getpid()))
        let read = WorkerLimits.dataSegment()
        let after = try #require(Self.dataSegment(of: getpid()))
        #expect(read >= min(before, after) - (8 << 20) && read <= max(before, after) + (8 << 20), "\(read) against \(before) and \(after)")
    }

    @Test func aForkedWorkerStartsAsASpawnedOneWould() async throws {
        let forked = await load(["good"])
        defer { forked.shutDownWorkers() }
        var spawning = ProcessIsolation(workerExecutable: Fixtures.workerExecutable)
        spawning.forksWorkers = false
        let spawned = await load(["good"], spawning)
        defer { spawned.shutDownWorkers() }
        let pid = try #require(forked.widget(kind: "fixture.good")?.bundle.workerProcessID)
        let spawnedPID = try #require(spawned.widget(kind: "fixture.good")?.bundle.workerProcessID)

        // Forked by the zygote, not spawned by this process.
        let zygote = try #require(Self.parent(of: pid))
        #expect(zygote != getpid())
        #expect(Self.commandLine(of: zygote).contains("--widgets-worker --zygote"))
        #expect(Self.parent(of: spawnedPID) == getpid())
        // Its command line names its bundle, as a spawned worker's does.
        let path = try #require(forked.widget(kind: "fixture.good")?.bundle.path)
        #expect(Self.commandLine(of: pid).hasPrefix(Fixtures.workerExecutable + " --widgets-worker \(path) --memory-limit "), "\(Self.commandLine(of: pid))")
        // A session and group of its own; no signal blocked or ignored; the same descriptors as a
        // spawned worker (the zygote's channel to the host is not among them).
        #expect(getsid(pid) == pid && getpgid(pid) == pid)
        #expect(Self.status(of: pid, "SigBlk") == Self.status(of: spawnedPID, "SigBlk"))
        #expect(Self.status(of: pid, "SigIgn") == Self.status(of: spawnedPID, "SigIgn"))
        #expect(Self.status(of: pid, "SigBlk") == "0000000000000000")
        // (Beyond them a forked worker's main run loop has its event descriptors: an epoll, its
        // eventfds and timerfds; nothing the zygote had open.)
        let descriptors = Self.descriptors(of: pid)
        let runLoop = descriptors.filter { $0.hasSuffix("-> anon_inode:[eventpoll]") || $0.hasSuffix("-> anon_inode:[eventfd]") || $0.hasSuffix("-> anon_inode:[timerfd]") }
        #expect(descriptors.filter { !runLoop.contains($0) } == Self.descriptors(of: spawnedPID), "\(descriptors) \(Self.descriptors(of: spawnedPID))")
        let firstTargets = descriptors.prefix(6).map { (line: String) -> String? in line.split(separator: " ").last.map { String($0) } }
        #expect(firstTargets == ["/dev/null", "socket", "socket", "socket", "socket", "good.so"])
        // And it serves.
        let timeline = try await forked.request(.timeline, kind: "fixture.good")
        #expect(!timeline.entries.isEmpty)
        // A sibling forked from the same zygote has its bundle at another address.
        let sibling = await load(["good"])
        defer { sibling.shutDownWorkers() }
        let siblingPID = try #require(sibling.widget(kind: "fixture.good")?.bundle.workerProcessID)
        #expect(Self.parent(of: siblingPID) == zygote)
        let here = try #require(Self.address(of: "good.so", in: pid))
        let there = try #require(Self.address(of: "good.so", in: siblingPID))
        #expect(here != there, "the bundle lies at \(here) in both")
    }

    /// Where the first mapping of a file named `name` starts in a process.
    static func address(of name: String, in pid: Int32) -> String? {
        // Read to its end (its size, as the kernel gives it, is 0).
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else { return nil }
        defer { try? file.close() }
        let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        return maps.split(separator: "\n").first { $0.hasSuffix("/" + name) }.map { String($0.prefix { $0 != "-" }) }
    }

    @Test func aCrashIsDiagnosedFromTheStatusTheZygoteReaped() async throws {
        let registry = await load(["behaviours"])
        defer { registry.shutDownWorkers() }
        let pid = try #require(registry.widget(kind: "fixture.crash")?.bundle.workerProcessID)
        #expect(Self.parent(of: pid) != getpid())
        do {
            _ = try await registry.request(.timeline, kind: "fixture.crash")
            Issue.record("the crash answered")
        } catch {
            #expect(error.message.hasPrefix("crashed while answering timeline: its worker was killed by SIGSEGV (segmentation fault)"), "\(error.message)")
        }
        #expect(kill(pid, 0) != 0, "reaped")
    }

    @Test func aZygoteThatEndsIsStartedAgain() async throws {
        // A zygote of its own (one per environment), which no other test is using.
        var settings = ProcessIsolation(workerExecutable: Fixtures.workerExecutable)
        settings.environment = ["WIDGETS_TEST_OWN_ZYGOTE": UUID().uuidString]
        let first = await load(["good"], settings)
        defer { first.shutDownWorkers() }
        let worker = try #require(first.widget(kind: "fixture.good")?.bundle.workerProcessID)
        let zygote = try #require(Self.parent(of: worker))
        #expect(kill(zygote, SIGKILL) == 0)
        // Its worker lives on.
        #expect(try await eventually(within: 2) { Self.parent(of: worker) != zygote })
        #expect(try await first.request(.timeline, kind: "fixture.good").entries.isEmpty == false)
        // The next worker is forked by a zygote started again.
        let second = await load(["good"], settings)
        defer { second.shutDownWorkers() }
        let next = try #require(second.widget(kind: "fixture.good")?.bundle.workerProcessID)
        let again = try #require(Self.parent(of: next))
        #expect(again != zygote && again != getpid())
        #expect(Self.commandLine(of: again).contains("--zygote"))
        #expect(try await second.request(.timeline, kind: "fixture.good").entries.isEmpty == false)
    }

    @Test func aWorkerExecutableThatCannotBeAZygoteHasItsWorkersSpawned() async throws {
        // An embedding host's worker executable that knows the worker's flag but not the zygote's.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("widgets-zygote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("no-zygote-worker")
        try writeExecutable(
            "#!/bin/sh\n[ \"$2\" = --zygote ] && { echo refused > \(directory.path)/asked; exit 2; }\nexec '\(Fixtures.workerExecutable)' \"$@\"\n",
            to: script)
        let registry = await load(["good"], ProcessIsolation(workerExecutable: script.path))
        defer { registry.shutDownWorkers() }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("asked").path), "a zygote was asked for")
        let pid = try #require(registry.widget(kind: "fixture.good")?.bundle.workerProcessID)
        #expect(Self.parent(of: pid) == getpid(), "spawned")
        #expect(try await registry.request(.timeline, kind: "fixture.good").entries.isEmpty == false)
    }
}
