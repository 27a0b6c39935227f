import Foundation
import Testing
import WidgetTestSupport
import WidgetABI
import WidgetSupport
import WidgetTimelines
@testable import WidgetHost
import WidgetRendering
import WidgetWire

/// Process isolation with real fault bundles: each bundle in a worker process (the `widgets`
/// executable in worker mode), on a virtual clock. The host survives every fault, the other bundles
/// keep answering, and each diagnosis is exact.
@Suite struct ProcessIsolationTests {
    static let isolation = Isolation.process(ProcessIsolation(workerExecutable: Fixtures.workerExecutable))

    /// A process-isolated registry over private copies of the fixtures. Loading waits for the
    /// workers, so it runs off the cooperative pool.
    func load(_ fixtures: [String], clock: ManualClock = ManualClock(), isolation: Isolation = isolation) async -> WidgetRegistry {
        let directory = Fixtures.directory(fixtures)
        return await blocking { WidgetRegistry.load(searchPath: [directory.path], clock: clock, isolation: isolation) }
    }

    @Test func aSecondNameForOneFileInTheSameDirectoryIsLoadedOnce() async throws {
        let directory = Fixtures.directory(["good"])
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("zz-again.so").path, withDestinationPath: directory.appendingPathComponent("good.so").path)
        let registry = await blocking { WidgetRegistry.load(searchPath: [directory.path], isolation: Self.isolation) }
        defer { registry.shutDownWorkers() }
        #expect(registry.problems.map(\.message) == ["the same file as \(directory.path)/good.so, already loaded; skipped"])
        #expect(registry.bundles.count == 1)
    }

    /// Each worker's reading thread in the host is named by its bundle, so that `top -H` tells them
    /// apart (the kernel keeps 15 bytes of a name: a common prefix would be all it showed).
    @Test func aWorkersReadingThreadIsNamedByItsBundle() async throws {
        let registry = await load(["behaviours", "good"])
        defer { registry.shutDownWorkers() }
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap {
            try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
        }
        #expect(names.contains("w.behaviours") && names.contains("w.good"), "\(names.sorted())")
        #expect(WorkerProcess.readerName("libGameWidgets.so") == "w.GameWidgets")
        #expect(WorkerProcess.readerName("lib.so") == "w.lib")
    }

    func failure(_ registry: WidgetRegistry, _ kind: String, _ request: RequestKind = .timeline) async -> RequestError? {
        do {
            _ = try await registry.request(request, kind: kind)
            return nil
        } catch {
            return error
        }
    }

    func answers(_ registry: WidgetRegistry, _ kind: String) async -> Bool {
        (try? await registry.request(.timeline, kind: kind))?.entries.isEmpty == false
    }

    @Test(arguments: RequestKind.allCases.filter(\.answersWithEntries))
    func segfaultInAnyRequestEndsOnlyItsWorker(request: RequestKind) async throws {
        let registry = await load(["behaviours", "good"])
        defer { registry.shutDownWorkers() }
        let before = try #require(registry.widget(kind: "fixture.crash")?.bundle.workerProcessID)
        let error = try #require(await failure(registry, "fixture.crash", request))
        #expect(error.reason == .crashed)
        #expect(
            error.description
                == "widget \"fixture.crash\" (behaviours.so): crashed while answering \(request.rawValue): its worker was killed by SIGSEGV (segmentation fault); it restarts on a request after 1 s (1 of 5 crashes within 1 h disable it)"
        )
        #expect(await answers(registry, "fixture.good"))
        #expect(registry.widget(kind: "fixture.crash")?.bundle.workerProcessID == nil)
        #expect(kill(before, 0) != 0, "the crashed worker is gone and reaped")
        #expect(registry.statistics(kind: "fixture.crash")?.crashes == 1)
    }

    @Test func theEnvironmentReachesAViewBuiltInAWorker() async throws {
        // In process isolation: the environment crosses to the worker in the request's header.
        let registry = await load(["libFaultWidgets"])
        defer { registry.shutDownWorkers() }
        func shown(_ family: WidgetFamily, _ environment: RenderingEnvironment?) async throws -> String? {
            try await registry.request(.snapshot, kind: "fault.environment", family: family, environment: environment).entries[0].view["text"]?.stringValue
        }
        #expect(try await shown(.systemSmall, nil) == "light fullColor true", "a family's standard environment by default")
        #expect(try await shown(.accessoryCircular, nil) == "light vibrant false")
        #expect(try await shown(.systemSmall, .standard(for: .systemSmall, colorScheme: .dark, mode: .accented)) == "dark accented true")
    }

    @Test func abortTrapAndSwiftFatalErrorAreNamed() async throws {
        let registry = await load(["behaviours", "libFaultWidgets"])
        defer { registry.shutDownWorkers() }
        let clock = registry.clock as! ManualClock
        #expect(await failure(registry, "fixture.abort")?.message.hasPrefix("crashed while answering timeline: its worker was killed by SIGABRT (abort); ") == true)
        clock.advance(by: 1)
        #expect(
            await failure(registry, "fixture.trap")?.message.hasPrefix(
                "crashed while answering timeline: its worker was killed by SIGILL (illegal instruction: a Swift runtime trap such as fatalError or a failed precondition); "
            ) == true)
        let fatal = try #require(await failure(registry, "fault.fatal-error"))
        #expect(
            fatal.message
                == "crashed while answering timeline: its worker was killed by SIGILL (illegal instruction: a Swift runtime trap such as fatalError or a failed precondition); its last output: \"FaultWidgets/FaultWidgets.swift:29: Fatal error: the fault bundle's timeline gives up\"; it restarts on a request after 1 s (1 of 5 crashes within 1 h disable it)"
        )
        // Its sibling in the same bundle waits out the backoff, then gets a fresh worker.
        let refused = try #require(await failure(registry, "fault.steady"))
        #expect(refused.reason == .crashed)
        #expect(
            refused.message.hasPrefix(
                "not sent: its worker crashed (crashed while answering the timeline of \"fault.fatal-error\": its worker was killed by SIGILL"))
        #expect(refused.message.hasSuffix("; it restarts in 1 s"))
        clock.advance(by: 1)
        #expect(await answers(registry, "fault.steady"))
    }

    @Test func aWorkerThatRestartsOnAFileItCannotLoadSaysWhy() async throws {
        let directory = Fixtures.directory(["behaviours"])
        let registry = await blocking { WidgetRegistry.load(searchPath: [directory.path], clock: ManualClock(), isolation: Self.isolation) }
        defer { registry.shutDownWorkers() }
        let clock = registry.clock as! ManualClock
        #expect(await failure(registry, "fixture.crash") != nil)
        // Replaced (by rename, as installs should be) with something that is no bundle.
        let file = directory.appendingPathComponent("behaviours.so")
        try Data("not a shared object".utf8).write(to: directory.appendingPathComponent("new.tmp"))
        #expect(rename(directory.appendingPathComponent("new.tmp").path, file.path) == 0)
        clock.advance(by: 1)
        let refused = try #require(await failure(registry, "fixture.behaving"))
        #expect(refused.message.hasPrefix("not sent: its worker restarted but could not load the bundle: "), "\(refused.message)")
    }

    @Test func noWorkerStartsAfterTheHostShutsThemDown() async throws {
        let registry = await load(["good"])
        #expect(await answers(registry, "fixture.good"))
        registry.shutDownWorkers()
        let refused = try #require(await failure(registry, "fixture.good"))
        #expect(refused.message == "not sent: the host has shut its worker down")
        #expect(registry.widget(kind: "fixture.good")?.bundle.workerProcessID == nil)
    }

    @Test func backoffDoublesAndRepeatedCrashesDisableTheBundle() async throws {
        let registry = await load(["behaviours", "good"])
        defer { registry.shutDownWorkers() }
        let clock = registry.clock as! ManualClock
        for (crash, backoff) in [(1, 1), (2, 2), (3, 4), (4, 8)] {
            let error = try #require(await failure(registry, "fixture.crash"))
            #expect(error.message.hasSuffix("it restarts on a request after \(backoff) s (\(crash) of 5 crashes within 1 h disable it)"))
            clock.advance(by: TimeInterval(backoff) - 0.5)
            #expect(await failure(registry, "fixture.crash")?.message.hasPrefix("not sent: its worker crashed") == true)
            clock.advance(by: 0.5)
        }
        let fifth = try #require(await failure(registry, "fixture.crash"))
        #expect(fifth.message.hasSuffix("; the bundle is now disabled after 5 crashes within 1 h"))
        let bundle = try #require(registry.widget(kind: "fixture.behaving")?.bundle)
        #expect(
            bundle.disabledReason
                == "disabled after 5 crashes within 1 h; the last: crashed while answering the timeline of \"fixture.crash\": its worker was killed by SIGSEGV (segmentation fault)"
        )
        clock.advance(by: 3600)
        let disabled = try #require(await failure(registry, "fixture.behaving"))
        #expect(
            disabled.message
                == "not sent: disabled after 5 crashes within 1 h; the last: crashed while answering the timeline of \"fixture.crash\": its worker was killed by SIGSEGV (segmentation fault). Replace the bundle or restart the host to try again"
        )
        #expect(await answers(registry, "fixture.good"))
    }

    @Test func crashesOutsideTheWindowDoNotCount() async throws {
        let registry = await load(["behaviours"])
        defer { registry.shutDownWorkers() }
        let clock = registry.clock as! ManualClock
        for _ in 0..<6 {
            let error = try #require(await failure(registry, "fixture.crash"))
            #expect(error.message.hasSuffix("it restarts on a request after 1 s (1 of 5 crashes within 1 h disable it)"))
            clock.advance(by: 3600)
        }
        #expect(registry.widget(kind: "fixture.crash")?.bundle.disabledReason == nil)
    }

    @Test func bundleThatCrashesWhileLoadingIsReportedAndTheOthersLoad() async throws {
        let registry = await load(["crash-in-constructor", "crash-in-initialize", "good"])
        defer { registry.shutDownWorkers() }
        #expect(registry.widgets.map(\.kind) == ["fixture.good"])
        #expect(registry.problems.map(\.reason) == [.crashed, .crashed])
        for (problem, name) in zip(registry.problems, ["crash-in-constructor.so", "crash-in-initialize.so"]) {
            #expect(problem.path.hasSuffix("/\(name)"))
            #expect(
                problem.message
                    == "crashed while loading (in its static initializers or initialize): its worker was killed by SIGSEGV (segmentation fault)")
        }
        #expect(await answers(registry, "fixture.good"))
    }

    @Test func bundleThatHangsWhileLoadingIsKilledAtTheLoadDeadline() async throws {
        let clock = ManualClock()
        let directory = Fixtures.directory(["hang-in-initialize"])
        let isolation = Self.isolation
        let loading = Task { await blocking { WidgetRegistry.load(searchPath: [directory.path], clock: clock, isolation: isolation) } }
        // The load deadline is set when the worker starts.
        #expect(await blocking { clock.waitUntilScheduled(atLeast: 1) })
        clock.advance(by: 10)
        let registry = await loading.value
        #expect(registry.widgets.isEmpty)
        let problem = try #require(registry.problems.first)
        #expect(problem.reason == .timedOut)
        #expect(
            problem.message
                == "its worker was killed while loading (in its static initializers or initialize): it did not finish loading within 10 s (hung in its initializers or initialize)"
        )
    }

    /// A host that dies (here SIGKILL) while a worker's bundle hangs in its load leaves no worker
    /// behind: the worker watches for the host's hang-up while it loads, as it reads for it after.
    /// (Before, such workers lived on for ever: the load's deadline is kept by the host.)
    @Test func aWorkerWhoseHostDiesWhileItLoadsEndsToo() async throws {
        let directory = Fixtures.directory(["hang-in-initialize"])
        let said = Fixtures.temporaryDirectory("said").appendingPathComponent("stderr")
        let saying = open(said.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(saying >= 0)
        // The host's own load deadline (10 s of real time) past the test's look for the worker: in a
        // full run the look once came later than that, and the host had killed the worker.
        let host = try ChildProcess(
            Fixtures.widgetsExecutable, ["--plugins", directory.path, "--no-cache", "list", "--isolation", "process"],
            environment: widgetsEnvironment(extra: ["WIDGETS_LOAD_DEADLINE": "600"]), standardError: saying)
        close(saying)
        /// The host's descendants (its zygote and the worker forked from it, or a spawned worker),
        /// from the kernel's lists of children: no other process is read, as a scan of all would
        /// (reading another's maps can wait as long as that process dumps its core).
        @Sendable func descendants() -> [pid_t] {
            var found: [pid_t] = []
            var parents = [host.processIdentifier]
            while let parent = parents.popLast() {
                for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? [] {
                    let children = ((try? String(contentsOfFile: "/proc/\(parent)/task/\(task)/children", encoding: .utf8)) ?? "")
                        .split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                    found += children
                    parents += children
                }
            }
            return found
        }
        /// Whether `pid` has the fixture mapped: it is loading it (an ended one, or a zombie, has not).
        @Sendable func loads(_ pid: pid_t) -> Bool {
            guard let maps = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps")).readToEnd()).flatMap({ $0 }) else { return false }
            return String(decoding: maps, as: UTF8.self).contains(directory.path)
        }
        let found = LockedList<pid_t>()
        let started = try await eventually(within: 60) {
            let loading = descendants().filter(loads)
            for pid in loading { found.append(pid) }
            return !loading.isEmpty
        }
        let workers = Array(Set(found.values))
        #expect(started, "the worker is loading the fixture; the host said: \((try? String(contentsOf: said, encoding: .utf8)) ?? "")")
        kill(host.processIdentifier, SIGKILL)
        await blocking { host.waitForExit() }
        let ended = try await eventually(within: 30) { !workers.contains(where: loads) }
        #expect(ended, "worker \(workers) outlived its host")
        for pid in workers where loads(pid) { kill(pid, SIGKILL) }
    }

    @Test func providerStuckInsideItsCallIsKilledAtItsDeadlineWhileOthersAnswer() async throws {
        let registry = await load(["behaviours", "good"])
        defer { registry.shutDownWorkers() }
        let clock = registry.clock as! ManualClock
        TestLog.start()
        let hung = Task { await failure(registry, "fixture.hang", .placeholder) }
        // The provider says on its standard error when it is inside its call; the host relays it.
        #expect(await blocking { TestLog.wait { $0.hasSuffix("fixture.hang: inside its call") } })
        #expect(await answers(registry, "fixture.good"))
        clock.advance(by: 2)
        let error = try #require(await hung.value)
        #expect(error.reason == .timedOut)
        #expect(
            error.description
                == "widget \"fixture.hang\" (behaviours.so): placeholder did not complete within 2.0 seconds: it was stuck inside its call (hung), so its worker was killed; it restarts on a request after 1 s (1 of 5 crashes within 1 h disable it)"
        )
        // The kill counts as a crash: its siblings wait out the backoff, then run in a new worker.
        let refused = try #require(await failure(registry, "fixture.behaving"))
        #expect(refused.message.hasPrefix("not sent: its worker crashed (its worker was killed: \"fixture.hang\" was stuck inside its placeholder call past its 2.0 seconds deadline (hung))"))
        clock.advance(by: 1)
        #expect(await answers(registry, "fixture.behaving"))
    }

    @Test func aCallStuckInOneProviderDoesNotStopItsWorkerServingTheOthers() async throws {
        // The worker serves a request on the thread that read it; when that call does not return,
        // the reading must pass to another thread, so the stuck provider's siblings (in the same
        // worker) are still read and answered.
        let registry = await load(["behaviours"])
        defer { registry.shutDownWorkers() }
        let clock = registry.clock as! ManualClock
        TestLog.start()
        let hung = Task { await failure(registry, "fixture.hang", .placeholder) }
        #expect(await blocking { TestLog.wait { $0.hasSuffix("fixture.hang: inside its call") } })
        let answered = DispatchSemaphore(value: 0)
        let sibling = Task {
            let ok = await answers(registry, "fixture.behaving")
            answered.signal()
            return ok
        }
        // Real time, as a safety net: without the hand-off the sibling is never read (and the
        // worker is then shut down, so the awaits below end).
        let served = await blocking { answered.wait(timeout: .now() + 60) == .success }
        #expect(served)
        if !served { registry.shutDownWorkers() }
        #expect(await sibling.value)
        clock.advance(by: 2)
        #expect(await hung.value?.reason == .timedOut)
    }

    @Test func completionThatNeverComesTimesOutWithoutKillingTheWorker() async throws {
        let registry = await load(["behaviours"])
        defer { registry.shutDownWorkers() }
        let clock = registry.clock as! ManualClock
        let worker = registry.widget(kind: "fixture.never")?.bundle.workerProcessID
        let start = clock.now()
        let never = Task { await failure(registry, "fixture.never") }
        // The request's own deadline: the worker's idle timer is pending already, so "a timer is
        // set" would not say the request was sent, and time moved before it would leave it waiting
        // for ever (the test run hung so, twice).
        #expect(await blocking { clock.waitUntilScheduled(at: start.addingTimeInterval(15)) }, "the request's deadline")
        clock.advance(by: 15)
        let error = try #require(await never.value)
        #expect(error.reason == .timedOut)
        #expect(error.message == "timeline did not complete within 15.0 seconds")
        #expect(registry.widget(kind: "fixture.never")?.bundle.workerProcessID == worker)
        #expect(await answers(registry, "fixture.behaving"))
    }

    @Test func aWorkerAskedNothingForItsIdlePeriodIsStoppedAndStartsAgainAtTheNextRequest() async throws {
        var settings = ProcessIsolation(workerExecutable: Fixtures.workerExecutable)
        settings.idleStop = 60
        let registry = await load(["behaviours"], isolation: .process(settings))
        defer { registry.shutDownWorkers() }
        let clock = registry.clock as! ManualClock
        #expect(await answers(registry, "fixture.behaving"))
        let first = try #require(registry.widget(kind: "fixture.behaving")?.bundle.workerProcessID)
        // A request in flight keeps it: asked at 0, the one that never completes fails at its
        // deadline (15 s), and the period counts from then.
        let start = clock.now()
        let never = Task { await failure(registry, "fixture.never") }
        #expect(await blocking { clock.waitUntilScheduled(at: start.addingTimeInterval(15)) }, "the request's deadline")
        clock.advance(by: 15)
        #expect(try #require(await never.value).reason == .timedOut)
        #expect(clock.waitUntilScheduled(at: start.addingTimeInterval(75), limit: 0), "the idle period counts from the last answer")
        clock.advance(by: 59)
        #expect(registry.widget(kind: "fixture.behaving")?.bundle.workerProcessID == first, "not before its period")
        clock.advance(by: 1)
        // Closed, gently: it ends, and is not counted as a crash.
        #expect(try await eventually(within: 5) { kill(first, 0) != 0 })
        #expect(registry.widget(kind: "fixture.behaving")?.bundle.workerProcessID == nil)
        // The next request starts one again, at once.
        #expect(await answers(registry, "fixture.behaving"))
        let second = try #require(registry.widget(kind: "fixture.behaving")?.bundle.workerProcessID)
        #expect(second != first)
        #expect(registry.statistics(kind: "fixture.behaving")?.crashes == 0)
        #expect(registry.widget(kind: "fixture.behaving")?.bundle.disabledReason == nil)
    }

    @Test func providerOverItsMemoryLimitIsKilledForRealAndStartsAfresh() async throws {
        let registry = await load(["behaviours"])
        defer { registry.shutDownWorkers() }
        let worker = registry.widget(kind: "fixture.hog")?.bundle.workerProcessID
        let error = try #require(await failure(registry, "fixture.hog"))
        #expect(error.reason == .memoryLimitExceeded)
        #expect(
            error.description
                == "widget \"fixture.hog\" (behaviours.so): exceeded its memory limit: peak 100.0 MB, limit 30.0 MB; its worker was killed, and it starts afresh on the next request"
        )
        #expect(registry.statistics(kind: "fixture.hog")?.terminations == 1)
        // No backoff: the next request starts a new worker at once, and 29 MB then freed passes.
        let spike = try await registry.request(.timeline, kind: "fixture.spike")
        #expect(spike.entries.count == 1)
        let restarted = registry.widget(kind: "fixture.spike")?.bundle.workerProcessID
        #expect(restarted != nil && restarted != worker)
        let statistics = try #require(registry.statistics(kind: "fixture.spike"))
        #expect((statistics.peakBytes ?? 0) >= 29 << 20)
        #expect(statistics.memoryLimit == 30 << 20)
    }

    @Test func misbehavingAnswersAreDiagnosedAsInQueueMode() async throws {
        let registry = await load(["behaviours"])
        defer { registry.shutDownWorkers() }
        #expect(await failure(registry, "fixture.error")?.description == "widget \"fixture.error\" (behaviours.so): timeline failed: the server is down")
        #expect(await failure(registry, "fixture.garbage")?.reason == .malformedResult)
        #expect(await failure(registry, "fixture.missing-date")?.message == "malformed timeline result: entries[1]: missing \"date\"")
        #expect(try await registry.request(.timeline, kind: "fixture.twice").entries.count == 1)
        let many = try await registry.request(.timeline, kind: "fixture.many")
        #expect(many.entries.count == 10_000)
        #expect(many.policy == .atEnd)
        let unsorted = try await registry.request(.timeline, kind: "fixture.unsorted")
        #expect(unsorted.notes == ["entries were not in date order; sorted by date (equal dates keep their order)"])
        // The request reaches the provider whole, and its answer comes back whole.
        let answer = try await registry.request(.placeholder, kind: "fixture.behaving", family: .systemMedium)
        #expect(PlainTextRenderer.lines(answer.entries[0].view) == ["fixture.behaving", "placeholder family 1 preview 1 size 338x158"])
        let timeline = try await registry.request(.timeline, kind: "fixture.behaving")
        #expect(timeline.entries[0].relevance == WireRelevance(score: 0.5, duration: 60))
        #expect(timeline.policy == .after(1_763_750_900))
    }

    @Test func listReportsABundleThatCrashesWhileLoading() async {
        let directory = Fixtures.directory(["crash-in-constructor", "good"])
        let result = await widgets(["--plugins", directory.path, "list"])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("  - fixture.good  Fixture\n"))
        #expect(
            result.standardError
                == "widgets: error: \(directory.path)/crash-in-constructor.so: crashed while loading (in its static initializers or initialize): its worker was killed by SIGSEGV (segmentation fault)\n"
        )
    }

    @Test func requestCommandsContainACrashAndQueueModeRemainsAvailable() async {
        let directory = Fixtures.directory(["behaviours"])
        let crashed = await widgets(["--plugins", directory.path, "timeline", "fixture.crash"])
        #expect(crashed.status == 1)
        #expect(crashed.standardError.hasPrefix("widgets: error: widget \"fixture.crash\" (behaviours.so): crashed while answering timeline: its worker was killed by SIGSEGV (segmentation fault)"))
        let queue = await widgets(["--plugins", directory.path, "timeline", "fixture.behaving", "--isolation", "queue"])
        #expect(queue.status == 0)
        let bad = await widgets(["--plugins", directory.path, "timeline", "fixture.behaving", "--isolation", "thread"])
        #expect(bad.status == 2)
        #expect(bad.standardError.hasPrefix("widgets: --isolation takes 'process' or 'queue', not 'thread'\n"))
    }
}

/// A worker executable of another build: refused at its hello, naming both protocol versions.
@Suite struct WorkerProtocolTests {
    /// Builds a stand-in worker that answers its host with `hello` (JSON) and then waits for its
    /// channel to close, as a worker of another version would. Compiled on a thread of its own
    /// (`runProcess`): waited for on the cooperative pool, the two cases' compilers held both its
    /// threads, and every other test with them.
    static func worker(saying hello: String) async -> String {
        let directory = Fixtures.temporaryDirectory("worker")
        let source = directory.appendingPathComponent("worker.c")
        let json = hello.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        try! """
            #include <stdint.h>
            #include <string.h>
            #include <unistd.h>
            int main(void) {
                const char *json = "\(json)";
                uint32_t length = (uint32_t)strlen(json) + 1;
                unsigned char tag = 1;
                write(3, &length, 4);
                write(3, &tag, 1);
                write(3, json, length - 1);
                char byte;
                while (read(3, &byte, 1) > 0) {}
                return 0;
            }
            """.write(to: source, atomically: true, encoding: .utf8)
        let executable = directory.appendingPathComponent("old-worker").path
        let built = await runProcess("/usr/bin/env", ["cc", "-o", executable, source.path])
        precondition(built.status == 0, "cannot compile \(source.path): \(built.standardError)")
        return executable
    }

    @Test(arguments: [
        (#"{"protocol":1,"pid":1}"#, "speaks worker protocol 1"),
        (#"{"pid":1,"bundle":{"name":"x","abiMajor":1,"abiMinor":4}}"#, "speaks an older worker protocol (it names none)"),
    ])
    func aWorkerOfAnotherProtocolIsRefusedNamingBothVersions(hello: String, spoken: String) async {
        let executable = await Self.worker(saying: hello)
        let directory = Fixtures.directory(["good"])
        let registry = await blocking {
            WidgetRegistry.load(searchPath: [directory.path], isolation: .process(ProcessIsolation(workerExecutable: executable)))
        }
        defer { registry.shutDownWorkers() }
        #expect(registry.bundles.isEmpty)
        #expect(
            registry.problems.map(\.message) == [
                "its worker executable \(executable) \(spoken), but this host speaks worker protocol 3: use the worker executable built with this host"
            ])
    }
}
