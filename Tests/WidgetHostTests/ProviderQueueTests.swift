import Foundation
import Synchronization
import Testing
import WidgetTestSupport
import WidgetWire

import WidgetABI
import WidgetSupport
import WidgetTimelines
@testable import WidgetHost
import WidgetRendering

/// The fixture's control functions, looked up in the loaded bundle.
struct FixtureControl: @unchecked Sendable {
    typealias KindFunction = @convention(c) (UnsafePointer<CChar>) -> Void
    typealias WaitFunction = @convention(c) (UnsafePointer<CChar>, Int32) -> Bool
    typealias CountFunction = @convention(c) (UnsafePointer<CChar>) -> Int32

    let handle: UnsafeMutableRawPointer

    init(bundle path: String) {
        handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD)!
    }

    private func function<F>(_ name: String, _ type: F.Type) -> F { unsafeBitCast(dlsym(handle, name)!, to: type) }

    func release(_ kind: String) { function("fixture_release", KindFunction.self)(kind) }
    /// Blocks until the provider has been entered `count` times (false after 10 s: the test fails, not hangs).
    func waitEntered(_ kind: String, _ count: Int32 = 1) async -> Bool {
        await blocking { function("fixture_wait_entered", WaitFunction.self)(kind, count) }
    }
    func entered(_ kind: String) -> Int32 { function("fixture_entered", CountFunction.self)(kind) }
    func maxOverlap(_ kind: String) -> Int32 { function("fixture_max_overlap", CountFunction.self)(kind) }
}

/// Each provider on its own serial queue, and deadlines on an injected clock. Providers that take
/// long are held by the test and released, never slept on.
@Suite struct ProviderQueueTests {
    /// A fresh registry and a private copy of the fixture: the held providers' counters are per image.
    /// On a clock that stands still unless a test moves it: a provider the test holds is never past
    /// its deadline because the test run is slow (a held call once outlived 15 real seconds).
    func load(clock: WidgetClock = ManualClock()) -> (WidgetRegistry, FixtureControl) {
        let directory = Fixtures.directory(["good", "behaviours"])
        let registry = WidgetRegistry.load(searchPath: [directory.path], clock: clock)
        return (registry, FixtureControl(bundle: directory.appendingPathComponent("behaviours.so").path))
    }

    /// (Were the other delayed, it would wait for the release, which comes after it: the time limit fails it.)
    @Test(.timeLimit(.minutes(1))) func slowProviderDoesNotDelayAnotherProvidersAnswer() async throws {
        let (registry, control) = load()
        let slow = Task { try await registry.request(.timeline, kind: "fixture.slow") }
        #expect(await control.waitEntered("fixture.slow"))
        // The slow provider is inside its call and stays there until released; another answers meanwhile.
        let good = try await registry.request(.timeline, kind: "fixture.good")
        #expect(good.entries.count == 1)
        #expect(control.entered("fixture.slow") == 1)
        control.release("fixture.slow")
        #expect(PlainTextRenderer.text(try await slow.value.entries[0].view) == "released")
    }

    /// A worker's reader runs a request on its own thread when the provider's queue is idle, and
    /// queues it behind the call in progress when it is not: calls to one provider still never overlap.
    @Test func anIdleQueueRunsARequestOnTheCallingThreadAndABusyOneQueuesIt() {
        let queue = ProviderQueue(kind: "test.here", memoryLimit: 30 << 20)
        let clock = ManualClock()
        let caller = pthread_self()
        let record = LockedList<String>()
        @Sendable func submit(hereIfIdle: Bool, _ body: @escaping @Sendable () -> String) {
            queue.submit(
                due: clock.now().addingTimeInterval(5), clock: clock, hereIfIdle: hereIfIdle,
                naming: QueuedRequest(requestKind: .timeline, kind: "test.here", bundlePath: "test.so", deadline: .seconds(5)),
                completion: { (result: Result<String, RequestError>) in record.append("answered \((try? result.get()) ?? "nothing")") }
            ) { _ in body() }
        }

        submit(hereIfIdle: true) {
            record.append(pthread_equal(pthread_self(), caller) != 0 ? "first here" : "first elsewhere")
            return "first"
        }
        // Run and answered before submit returned, on this thread.
        #expect(record.values == ["first here", "answered first"])

        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        submit(hereIfIdle: false) {
            entered.signal()
            release.wait()
            record.append("second done")
            return "second"
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        // From another thread, so that a submit that waited for the busy queue fails, not hangs.
        let submitted = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let submitter = pthread_self()
            submit(hereIfIdle: true) {
                record.append(pthread_equal(pthread_self(), submitter) != 0 ? "third here" : "third queued")
                done.signal()
                return "third"
            }
            submitted.signal()
        }
        // The queue was busy: submit returned without running it.
        #expect(submitted.wait(timeout: .now() + 10) == .success)
        #expect(record.values == ["first here", "answered first"])
        release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(record.values.prefix(4) == ["first here", "answered first", "second done", "answered second"])
        #expect(record.values.dropFirst(4).first == "third queued")
    }

    /// A provider runs under its memory guard or not at all: with every slot taken (a host with
    /// thousands of providers), its requests are refused, saying why, and it runs once a slot frees.
    @Test func aProviderWithoutAMemoryGuardSlotIsRefusedNotRunUnmetered() throws {
        let free = Mutex(false)
        let queue = ProviderQueue(kind: "test.unslotted", memoryLimit: 30 << 20) { _ in free.withLock { $0 } ? 4000 : 0 }
        let clock = ManualClock()
        let ran = Mutex(0)
        func ask() -> Result<String, RequestError>? {
            let answer = Mutex<Result<String, RequestError>?>(nil)
            queue.submit(
                due: clock.now().addingTimeInterval(5), clock: clock, hereIfIdle: true,
                naming: QueuedRequest(requestKind: .timeline, kind: "test.unslotted", bundlePath: "test.so", deadline: .seconds(5)),
                completion: { (result: Result<String, RequestError>) in answer.withLock { $0 = result } }
            ) { _ in
                ran.withLock { $0 += 1 }
                return "ran"
            }
            return answer.withLock { $0 }
        }
        guard case .failure(let error) = ask() else { Issue.record("it ran without a slot"); return }
        #expect("\(error)".contains("no memory guard slot was free for it (all 4095 are in use by other providers), so it is not run"), "\(error)")
        #expect(ran.withLock { $0 } == 0)
        free.withLock { $0 = true }
        #expect(try ask()?.get() == "ran")
        #expect(queue.memorySlot == 4000)
    }

    @Test(.timeLimit(.minutes(1))) func differentProvidersRunInParallel() async throws {
        let (registry, control) = load()
        let first = Task { try await registry.request(.timeline, kind: "fixture.slow") }
        let second = Task { try await registry.request(.timeline, kind: "fixture.slow-2") }
        // Both are inside their calls at once: neither waits for the other.
        #expect(await control.waitEntered("fixture.slow"))
        #expect(await control.waitEntered("fixture.slow-2"))
        control.release("fixture.slow")
        control.release("fixture.slow-2")
        _ = try await (first.value, second.value)
    }

    @Test func callsToOneProviderNeverOverlap() async throws {
        let (registry, control) = load()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 { group.addTask { _ = try await registry.request(.timeline, kind: "fixture.counted") } }
            try await group.waitForAll()
        }
        #expect(control.entered("fixture.counted") == 16)
        #expect(control.maxOverlap("fixture.counted") == 1)
        #expect(registry.statistics(kind: "fixture.counted")?.calls == 16)
        #expect(registry.statistics(kind: "fixture.counted")?.failures == 0)
    }

    @Test func completionThatNeverComesTimesOutOnTheInjectedClock() async throws {
        let clock = ManualClock()
        let (registry, _) = load(clock: clock)
        let never = Task { try await registry.request(.snapshot, kind: "fixture.never") }
        #expect(await blocking { clock.waitUntilScheduled(atLeast: 1) })
        clock.advance(by: 4.999)
        #expect(clock.pendingCount == 1, "5 s is the snapshot deadline: not yet")
        clock.advance(by: 0.001)
        do {
            _ = try await never.value
            Issue.record("a request whose completion never comes must time out")
        } catch let error as RequestError {
            #expect(error.reason == .timedOut)
            #expect(error.description == "widget \"fixture.never\" (behaviours.so): snapshot did not complete within 5.0 seconds")
        }
        #expect(registry.statistics(kind: "fixture.never")?.failures == 1)
    }

    @Test func lateCompletionIsDroppedAndReportedAndTheProviderAnswersAgain() async throws {
        TestLog.start()
        let clock = ManualClock()
        let (registry, control) = load(clock: clock)
        let held = Task { try await registry.request(.timeline, kind: "fixture.held") }
        // The provider must have the request before time moves, or the request is never sent.
        #expect(await control.waitEntered("fixture.held"))
        #expect(await blocking { clock.waitUntilScheduled(atLeast: 1) })
        clock.advance(by: 15)
        await #expect(throws: RequestError.self) { try await held.value }
        // The deadline may have caught the fixture a few instructions before it returned from its call.
        #expect(await noCallStuck(registry, "fixture.held"))
        control.release("fixture.held")  // the answer comes now, too late
        #expect(TestLog.messages.contains { $0.contains("(timeline of \"fixture.held\" in behaviours.so, timed out): it had already completed or timed out") })

        let again = Task { try await registry.request(.timeline, kind: "fixture.held") }
        #expect(await control.waitEntered("fixture.held", 2))
        control.release("fixture.held")
        #expect(PlainTextRenderer.text(try await again.value.entries[0].view) == "released")
    }

    @Test func providerHoldingTheCallPastItsDeadlineTimesOutEvenIfItThenAnswers() async throws {
        let clock = ManualClock()
        let (registry, control) = load(clock: clock)
        let slow = Task { try await registry.request(.placeholder, kind: "fixture.slow") }
        #expect(await control.waitEntered("fixture.slow"))
        clock.advance(by: 3)
        control.release("fixture.slow")
        do {
            _ = try await slow.value
            Issue.record("an answer after the deadline must not count")
        } catch let error as RequestError {
            #expect(error.message == "placeholder did not complete within 2.0 seconds")
        }
    }

    @Test func providerStuckInsideItsCallTimesOutAndIsNotSentMoreUntilItReturns() async throws {
        let clock = ManualClock()
        let (registry, control) = load(clock: clock)
        let stuck = Task { try await registry.request(.timeline, kind: "fixture.slow") }
        #expect(await control.waitEntered("fixture.slow"))
        #expect(await blocking { clock.waitUntilScheduled(atLeast: 1) })
        clock.advance(by: 15)
        // The caller has its answer although the provider is still inside its call.
        await #expect(throws: RequestError.self) { try await stuck.value }

        // While the call is stuck, requests fail at once instead of piling up behind it.
        do {
            _ = try await registry.request(.timeline, kind: "fixture.slow")
            Issue.record("a stuck provider must not be sent more requests")
        } catch {
            #expect(error.reason == .refused)
            #expect(error.message == "still inside an earlier call that passed its deadline; its requests fail until that call returns")
        }

        #expect(registry.statistics(kind: "fixture.slow")?.stuckCalls == 1)
        control.release("fixture.slow")  // the stuck call returns; its late answer is dropped
        #expect(await noCallStuck(registry, "fixture.slow"))
        let next = Task { try await registry.request(.timeline, kind: "fixture.slow") }
        #expect(await control.waitEntered("fixture.slow", 2))
        control.release("fixture.slow")
        #expect(PlainTextRenderer.text(try await next.value.entries[0].view) == "released")
        #expect(control.entered("fixture.slow") == 2, "the refused request was never sent")
    }

    @Test func deadlinesAreAHostSetting() async throws {
        let clock = ManualClock()
        let (registry, _) = load(clock: clock)
        registry.deadlines = RequestDeadlines(placeholder: .milliseconds(100), snapshot: .milliseconds(200), timeline: .seconds(60))
        let never = Task { try await registry.request(.timeline, kind: "fixture.never") }
        #expect(await blocking { clock.waitUntilScheduled(atLeast: 1) })
        clock.advance(by: 59)
        #expect(clock.pendingCount == 1)
        clock.advance(by: 1)
        await #expect(throws: RequestError.self) { try await never.value }
    }
}

/// Waits for a provider's queue to report no call stuck in the bundle: the stuck thread runs on by
/// itself, not by the clock, so this checks each millisecond of real time, on a thread of its own
/// (a spin of yields could end before a busy machine has run that thread). False after 10 s.
func noCallStuck(_ registry: WidgetRegistry, _ kind: String) async -> Bool {
    await blocking {
        let giveUp = Date().addingTimeInterval(10)
        while Date() < giveUp {
            if registry.statistics(kind: kind)?.stuckCalls == 0 { return true }
            usleep(1000)
        }
        return false
    }
}
