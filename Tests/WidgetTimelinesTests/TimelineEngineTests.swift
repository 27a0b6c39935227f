import Foundation
import Testing
import WidgetTestSupport
@testable import WidgetTimelines
import WidgetSupport
import WidgetWire

/// A provider for the engine: answers each request with `answer` (at once), or holds it until the
/// test completes it. Records every request and when it came.
final class ScriptedProvider: @unchecked Sendable {
    private let lock = NSLock()
    private let clock: ManualClock
    private var requests: [(id: String, at: TimeInterval)] = []
    private var held: [TimelineEngine.Completion] = []
    var hold = false
    var answer: @Sendable (_ id: String, _ now: TimeInterval) -> Result<FetchedTimeline, TimelineFailure>

    init(clock: ManualClock, answer: @escaping @Sendable (String, TimeInterval) -> Result<FetchedTimeline, TimelineFailure>) {
        self.clock = clock
        self.answer = answer
    }

    var fetch: TimelineEngine.Fetch {
        { instance, completion in
            let now = self.clock.now().timeIntervalSince1970
            let holding: Bool = self.lock.withLock {
                self.requests.append((instance.id, now))
                if self.hold { self.held.append(completion) }
                return self.hold
            }
            if !holding { completion(self.answer(instance.id, now)) }
        }
    }

    /// Times of the requests for `id`, relative to `start`.
    func times(_ id: String, since start: TimeInterval) -> [TimeInterval] {
        lock.withLock { requests.filter { $0.id == id }.map { $0.at - start } }
    }

    var count: Int { lock.withLock { requests.count } }

    /// Answers the held requests with `answer`.
    func releaseHeld() {
        let completions = lock.withLock {
            hold = false
            defer { held = [] }
            return held
        }
        let now = clock.now().timeIntervalSince1970
        for completion in completions { completion(answer("", now)) }
    }
}

func entry(_ date: TimeInterval, _ text: String) -> WireEntry {
    WireEntry(date: date, view: ViewNode("text", attributes: JSONObject([("text", .string(text))])))
}

func shownText(_ engine: TimelineEngine, _ id: String) -> String? {
    engine.status(id: id)?.entry?.view["text"]?.stringValue
}

/// The engine on a virtual clock: hours of timeline behaviour in milliseconds.
@Suite struct TimelineEngineTests {
    let clock = ManualClock()
    var start: TimeInterval { 1_800_000_000 }
    let widget = EngineInstance(id: "w-1", kind: "test.kind", family: .systemSmall)

    @Test func entriesSwitchAtTheirDatesWithoutCallingTheProvider() {
        let provider = ScriptedProvider(clock: clock) { _, now in
            .success(FetchedTimeline(entries: [entry(now + 120, "c"), entry(now, "a"), entry(now + 60, "b")], policy: .never))
        }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        #expect(shownText(engine, "w-1") == "a")
        clock.advance(by: 59)
        #expect(shownText(engine, "w-1") == "a")
        clock.advance(by: 1)
        #expect(shownText(engine, "w-1") == "b")
        clock.advance(by: 3600 * 48)
        #expect(shownText(engine, "w-1") == "c")
        #expect(provider.count == 1, ".never: no request after the first")
        #expect(engine.counters.entrySwitches == 2)
        #expect(engine.status(id: "w-1")?.nextReload == nil)
        #expect(clock.pendingCount == 0, "nothing left to wake for")
    }

    @Test func aTimelineWhoseEntriesAreAllLaterKeepsTheLastGoodEntryUntilTheFirstComes() {
        let provider = ScriptedProvider(clock: clock) { _, now in
            .success(FetchedTimeline(entries: [entry(now + 600, "later")], policy: .never))
        }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        #expect(engine.status(id: "w-1")?.phase == .loading)
        clock.advance(by: 600)
        #expect(shownText(engine, "w-1") == "later")
        engine.reload(id: "w-1", reason: .foreground)
        #expect(provider.count == 2)
        #expect(shownText(engine, "w-1") == "later", "the new timeline's first entry is 10 min away")
    }

    @Test func atEndRequestsTheNextTimelineAtTheLastEntrysDateNotBefore() {
        let provider = ScriptedProvider(clock: clock) { _, now in
            .success(FetchedTimeline(entries: [entry(now, "a"), entry(now + 3600, "b")], policy: .atEnd))
        }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        #expect(engine.status(id: "w-1")?.nextReload == Date(timeIntervalSince1970: start + 3600))
        clock.advance(by: 3599)
        #expect(provider.count == 1)
        clock.advance(by: 1)
        #expect(provider.times("w-1", since: start) == [0, 3600])
        clock.advance(by: 3600)
        #expect(provider.times("w-1", since: start) == [0, 3600, 7200])
    }

    @Test func afterRequestsAtItsDateAndAPastDateWaitsForTheMinimumInterval() {
        let provider = ScriptedProvider(clock: clock) { _, now in
            .success(FetchedTimeline(entries: [entry(now, "a")], policy: .after(now + 900)))
        }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        clock.advance(by: 3600)
        #expect(provider.times("w-1", since: start) == [0, 900, 1800, 2700, 3600])

        provider.answer = { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .after(now - 60))) }
        engine.reload(id: "w-1", reason: .interaction)  // answered with a date already past
        let status = engine.status(id: "w-1")
        #expect(status?.nextReload == Date(timeIntervalSince1970: start + 3600 + 300))
        #expect(status?.deferredByBudget == true)
        #expect(engine.counters.deferrals == 1)
        clock.advance(by: 300)
        #expect(provider.times("w-1", since: start).suffix(2) == [3600, 3900])
    }

    @Test func neverReloadsOnlyWhenAsked() {
        let provider = ScriptedProvider(clock: clock) { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .never)) }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        clock.advance(by: 86_400 * 3)
        #expect(provider.count == 1)
        #expect(engine.reload(kind: "test.kind") == 1)
        let threeDays: TimeInterval = 86_400 * 3
        #expect(provider.times("w-1", since: start) == [0, threeDays])
        #expect(engine.reload(kind: "other.kind") == 0)
    }

    @Test func theBudgetAllowsFiftyReloadsInAnyTwentyFourHoursFiveMinutesApart() {
        // A provider asking every minute gets what the budget allows.
        let provider = ScriptedProvider(clock: clock) { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .after(now + 60))) }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        clock.advance(by: 86_400)
        let times = provider.times("w-1", since: start)
        // The first is the instance's first timeline, outside the budget; then 50 budgeted, 5 min apart.
        #expect(times.count == 51)
        #expect(times.prefix(4) == [0, 300, 600, 900])
        #expect(engine.status(id: "w-1")?.reloadsInWindow == 50)
        #expect(engine.status(id: "w-1")?.deferredByBudget == true)
        // The 51st budgeted reload waits until the first leaves the window.
        #expect(engine.status(id: "w-1")?.nextReload == Date(timeIntervalSince1970: start + 300 + 86_400))
        clock.advance(by: 300)
        #expect(provider.times("w-1", since: start).last ?? 0 == 86_700)
        #expect(engine.counters.requests[.policy] == 51)
    }

    @Test func interactionsAndForegroundAppsReloadAtOnceOutsideTheBudget() {
        let provider = ScriptedProvider(clock: clock) { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .after(now + 60))) }
        let engine = TimelineEngine(clock: clock, budget: ReloadBudget(reloadsPerDay: 2, minimumInterval: 300), fetch: provider.fetch)
        engine.add(widget)
        clock.advance(by: 900)
        #expect(provider.times("w-1", since: start) == [0, 300, 600], "two budgeted, then the budget is spent")
        engine.reload(id: "w-1", reason: .requested)
        #expect(provider.count == 3, "a background request waits for the budget")
        #expect(engine.status(id: "w-1")?.deferredByBudget == true)
        engine.reload(id: "w-1", reason: .interaction)
        #expect(provider.count == 4, "after an interaction: at once")
        engine.reload(id: "w-1", reason: .foreground)
        #expect(provider.count == 5, "an app in the foreground: at once")
        engine.update(EngineInstance(id: "w-1", kind: "test.kind", family: .systemSmall, configuration: #"{"coin":"ETH"}"#))
        #expect(provider.count == 6, "a configuration change: at once")
        #expect(engine.status(id: "w-1")?.reloadsInWindow == 2, "none of those counted")
        clock.advance(by: 86_400 - 900 + 300)
        #expect(provider.times("w-1", since: start).last ?? 0 == 86_700, "the budget refills as the first leaves the window")
    }

    @Test func anInteractionInvalidatesTheEntryUntilItsReloadEnds() {
        let provider = ScriptedProvider(clock: clock) { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .never)) }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        provider.hold = true
        engine.reload(id: "w-1", reason: .foreground)
        #expect(engine.status(id: "w-1")?.reloading == true)
        #expect(engine.status(id: "w-1")?.invalidated == false, "a reload an app asked for leaves the entry valid")
        engine.reload(id: "w-1", reason: .interaction)
        #expect(engine.status(id: "w-1")?.invalidated == true, "queued behind the request under way")
        provider.releaseHeld()
        #expect(provider.count == 3)
        #expect(engine.status(id: "w-1")?.invalidated == false, "its reload came")
        provider.hold = true
        engine.reload(id: "w-1", reason: .interaction)
        #expect(engine.status(id: "w-1")?.invalidated == true, "its own reload under way")
        provider.releaseHeld()
        #expect(engine.status(id: "w-1")?.invalidated == false)
        // From the moment the intent is being performed; a reload that began before it, or for
        // another reason, does not end it.
        engine.interactionBegan(id: "w-1")
        #expect(engine.status(id: "w-1")?.invalidated == true, "while perform() runs")
        engine.reload(id: "w-1", reason: .foreground)
        #expect(engine.status(id: "w-1")?.invalidated == true, "an app's reload meanwhile is not the interaction's")
        provider.hold = true
        engine.reload(id: "w-1", reason: .interaction)
        engine.reload(id: "w-1", reason: .foreground)
        #expect(engine.status(id: "w-1")?.invalidated == true, "a later reason merged into it keeps it")
        provider.releaseHeld()
        #expect(engine.status(id: "w-1")?.invalidated == false)
        // A second tap while the first's reload is under way: stale until the reload after it ends.
        provider.hold = true
        engine.reload(id: "w-1", reason: .interaction)
        engine.reload(id: "w-1", reason: .interaction)
        nonisolated(unsafe) var staleDuringSecond: [Bool] = []
        provider.answer = { _, now in
            staleDuringSecond.append(engine.status(id: "w-1")?.invalidated ?? false)
            return .success(FetchedTimeline(entries: [entry(now, "a")], policy: .never))
        }
        provider.releaseHeld()
        #expect(staleDuringSecond == [true, true], "the first reload's end leaves it stale: the second's is under way")
        #expect(engine.status(id: "w-1")?.invalidated == false)
        provider.answer = { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .never)) }
        // An intent that could not be performed leaves the entry as valid as it was.
        engine.interactionBegan(id: "w-1")
        engine.interactionFailed(id: "w-1")
        #expect(engine.status(id: "w-1")?.invalidated == false)
        // A failed reload ends it too: the entry shown is the last good one, and says so.
        provider.answer = { _, _ in .failure(TimelineFailure("no network")) }
        engine.reload(id: "w-1", reason: .interaction)
        #expect(engine.status(id: "w-1")?.invalidated == false)
        #expect(engine.status(id: "w-1")?.lastFailure == "no network")
    }

    @Test func developmentModeHasNoDailyLimit() {
        let provider = ScriptedProvider(clock: clock) { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .after(now + 60))) }
        let engine = TimelineEngine(clock: clock, budget: .development, fetch: provider.fetch)
        engine.add(widget)
        clock.advance(by: 86_400)
        #expect(provider.count == 1 + 1440)
        // A faulty .atEnd whose date is already past is held off a second, not spun.
        provider.answer = { _, now in .success(FetchedTimeline(entries: [entry(now - 10, "a")], policy: .atEnd)) }
        engine.reload(id: "w-1", reason: .interaction)
        let before = provider.count
        clock.advance(by: 10)
        #expect(provider.count == before + 10)
    }

    @Test func requestsForTheSameInstanceCoalesce() {
        let provider = ScriptedProvider(clock: clock) { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .never)) }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        // While a request is under way, ten thousand more make one more request after it.
        provider.hold = true
        engine.reload(id: "w-1", reason: .interaction)
        for _ in 0..<10_000 { engine.reload(kind: "test.kind", reason: .foreground) }
        #expect(provider.count == 2)
        #expect(engine.status(id: "w-1")?.reloading == true)
        provider.releaseHeld()
        #expect(provider.count == 3)
        // While one waits for the budget, more requests join it.
        provider.answer = { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .after(now + 60))) }
        engine.reload(id: "w-1", reason: .interaction)
        for _ in 0..<100 { engine.reload(id: "w-1", reason: .requested) }
        clock.advance(by: 3600)
        let times = provider.times("w-1", since: start)
        #expect(times.count == 4 + 12, "the 100 requests and the policy make one reload at a time, 5 min apart: \(times)")
    }

    @Test func aFailedTimelineKeepsTheLastGoodEntryAndRetriesWithBackoff() {
        let provider = ScriptedProvider(clock: clock) { _, now in .success(FetchedTimeline(entries: [entry(now, "good")], policy: .never)) }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        provider.answer = { _, _ in .failure(TimelineFailure("timed out after 15 s")) }
        engine.reload(id: "w-1", reason: .interaction)
        let status = engine.status(id: "w-1")
        #expect(status?.entry?.view["text"]?.stringValue == "good")
        #expect(status?.lastFailure == "timed out after 15 s")
        #expect(status?.nextReloadReason == .retry)
        clock.advance(by: 30 + 60 + 120 + 240)
        #expect(provider.times("w-1", since: start) == [0, 0, 30, 90, 210, 450])
        provider.answer = { _, now in .success(FetchedTimeline(entries: [entry(now, "back")], policy: .never)) }
        clock.advance(by: 480)
        #expect(shownText(engine, "w-1") == "back")
        #expect(engine.status(id: "w-1")?.lastFailure == nil)
        #expect(engine.status(id: "w-1")?.nextReload == nil, "retries stop once it answers")
        #expect(engine.counters.failures == 5)
        #expect(TimelineEngine.retryDelay(afterFailures: 40) == 3600)
    }

    @Test func oneTimerServesEveryInstanceAndWakesOncePerDueDate() {
        let provider = ScriptedProvider(clock: clock) { id, now in
            let step = TimeInterval(60 * (Int(id.split(separator: "-").last!)! % 5 + 1))
            return .success(FetchedTimeline(entries: (0..<4).map { entry(now + Double($0) * step, "\($0)") }, policy: .never))
        }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        for number in 0..<1000 { engine.add(EngineInstance(id: "w-\(number)", kind: "k", family: .systemSmall)) }
        #expect(clock.pendingCount == 1)
        let wakeupsBefore = engine.counters.wakeups
        clock.advance(by: 3600)
        // Steps of 1 to 5 min, three later entries each: 60 120 180 240 300 360 480 540 600 720 900.
        #expect(engine.counters.wakeups - wakeupsBefore == 11)
        #expect(engine.counters.entrySwitches == 3000)
        #expect(provider.count == 1000)
        #expect(clock.pendingCount == 0)
    }

    @Test func aMissingBundlesInstancesKeepTheirPlaceAndReloadWhenItIsBack() {
        let provider = ScriptedProvider(clock: clock) { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .after(now + 900))) }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        engine.bundleMissing(kinds: ["test.kind"])
        #expect(engine.status(id: "w-1")?.phase == .bundleMissing)
        clock.advance(by: 3600)
        engine.reload(kind: nil)
        #expect(provider.count == 1, "no requests while missing")
        engine.bundleAvailable(kinds: ["test.kind"])
        #expect(provider.count == 2)
        #expect(engine.status(id: "w-1")?.phase == .showing)
        // An instance added while its bundle is missing waits for it too.
        engine.add(EngineInstance(id: "w-2", kind: "gone.kind", family: .systemSmall), bundleMissing: true)
        #expect(engine.status(id: "w-2")?.phase == .bundleMissing)
        #expect(provider.count == 2)
    }

    @Test func anAnswerForARemovedInstanceIsDropped() {
        let provider = ScriptedProvider(clock: clock) { _, now in .success(FetchedTimeline(entries: [entry(now, "a")], policy: .atEnd)) }
        provider.hold = true
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        engine.remove(id: "w-1")
        provider.releaseHeld()
        #expect(engine.status(id: "w-1") == nil)
        #expect(engine.instances.isEmpty)
        #expect(clock.pendingCount == 0)
    }

    @Test func noTimerIsLeftForEventsThatNoLongerExist() {
        let provider = ScriptedProvider(clock: clock) { _, now in
            .success(FetchedTimeline(entries: [entry(now, "a"), entry(now + 60, "b")], policy: .after(now + 3600)))
        }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)
        #expect(clock.pendingCount == 1)
        engine.remove(id: "w-1")
        #expect(clock.pendingCount == 0, "nothing to wake for once the instance is gone")
        #expect(engine.counters.wakeups == 0)
    }

    @Test func aBackgroundRequestDuringABackoffWaitsForTheRetry() {
        let provider = ScriptedProvider(clock: clock) { _, _ in .failure(TimelineFailure("down")) }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch)
        engine.add(widget)  // fails: retry in 30 s
        for _ in 0..<100 { engine.reload(id: "w-1", reason: .requested) }
        #expect(provider.count == 1, "a budgeted request does not jump the backoff")
        clock.advance(by: 30)
        #expect(provider.times("w-1", since: start) == [0, 30])
        engine.reload(id: "w-1", reason: .foreground)
        #expect(provider.count == 3, "an exempt one does")
    }

    @Test func aWorkQueueReportsInOrderOffTheClocksThread() async {
        let seen = LockedList<String>()
        let queue = DispatchQueue(label: "engine-test")
        let provider = ScriptedProvider(clock: clock) { _, now in
            .success(FetchedTimeline(entries: [entry(now, "a"), entry(now + 60, "b"), entry(now + 120, "c")], policy: .never))
        }
        let engine = TimelineEngine(clock: clock, workQueue: queue, fetch: provider.fetch) { _, status in
            seen.append(status.entry?.view["text"]?.stringValue ?? "-")
        }
        engine.add(widget)
        // The switch is queued, not done on this thread; the switch queues its report in turn, behind
        // whatever was queued while it waited: one wait for the switch, one for the report.
        func settle() async { await blocking { queue.sync {}; queue.sync {} } }
        clock.advance(by: 60)
        await settle()
        clock.advance(by: 60)
        await settle()
        #expect(seen.values == ["-", "a", "b", "c"])
    }

    @Test func theObserverHearsEachChangeOfWhatIsShown() {
        let seen = LockedList<String>()
        let provider = ScriptedProvider(clock: clock) { _, now in
            .success(FetchedTimeline(entries: [entry(now, "a"), entry(now + 60, "b")], policy: .never))
        }
        let engine = TimelineEngine(clock: clock, fetch: provider.fetch) { id, status in
            seen.append("\(id) \(status.phase.rawValue) \(status.entry?.view["text"]?.stringValue ?? "-")")
        }
        engine.add(widget)
        clock.advance(by: 60)
        #expect(seen.values == ["w-1 loading -", "w-1 showing a", "w-1 showing b"])
    }
}
