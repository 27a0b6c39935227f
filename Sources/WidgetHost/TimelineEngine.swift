import Foundation
import WidgetWire

/// A placed widget as the engine hosts it.
public struct EngineInstance: Sendable, Equatable {
    public let id: String
    public let kind: String
    public let family: WidgetFamily
    /// The configuration as the provider receives it (JSON text).
    public let configuration: String

    public init(id: String, kind: String, family: WidgetFamily, configuration: String = "{}") {
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
    }
}

/// A provider's timeline, as the engine keeps it.
public struct FetchedTimeline: Sendable, Equatable {
    public var entries: [WireEntry]
    public var policy: WireReloadPolicy

    public init(entries: [WireEntry], policy: WireReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}

/// Why a timeline request failed, in one line.
public struct TimelineFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// How many reloads an instance gets, as iOS gives each widget a daily budget.
///
/// Budgeted reloads (a policy coming due, a `WidgetCenter` request from an app in the background) are
/// at most `reloadsPerDay` in any rolling 24 hours, and at least `minimumInterval` after the
/// instance's previous reload of any kind. A reload the budget does not allow yet is deferred to the
/// earliest time it does, never dropped. `ReloadReason.isBudgeted` lists the exemptions.
public struct ReloadBudget: Sendable, Equatable {
    public var reloadsPerDay: Int
    public var minimumInterval: TimeInterval

    public init(reloadsPerDay: Int, minimumInterval: TimeInterval) {
        self.reloadsPerDay = max(1, reloadsPerDay)
        self.minimumInterval = max(0, minimumInterval)
    }

    /// 50 reloads in any 24 hours, 5 minutes apart: iOS documents 40 to 70 a day for a frequently
    /// viewed widget, which works out to one every 15 to 60 minutes.
    public static let standard = ReloadBudget(reloadsPerDay: 50, minimumInterval: 5 * 60)
    /// No daily limit, as WidgetKit has under the debugger. One second between reloads remains, so a
    /// timeline whose `.atEnd` is already past cannot spin its provider.
    public static let development = ReloadBudget(reloadsPerDay: .max, minimumInterval: 1)

    /// The rolling window the daily count is kept over.
    public static let window: TimeInterval = 24 * 60 * 60
}

/// Why an instance's timeline is reloaded.
public enum ReloadReason: String, Sendable, CaseIterable {
    /// The instance's first timeline (it was added, or the host started).
    case added
    /// Its timeline's reload policy came due (`.atEnd`, `.after(date)`).
    case policy
    /// An app or the shell asked (`WidgetCenter`, `widgets reload`).
    case requested
    /// An app in the foreground asked: on iOS its reloads are not counted.
    case foreground
    /// An intent ran in the widget (`Button(intent:)`, `Toggle`): reloaded once, at once.
    case interaction
    /// Its configuration changed.
    case configuration
    /// Its last timeline request failed; retried with backoff.
    case retry
    /// Its bundle was missing and is back.
    case bundleReturned

    /// Whether the reload counts against the instance's budget and waits for its minimum interval.
    public var isBudgeted: Bool { self == .policy || self == .requested }
}

/// What an instance shows and what comes next.
public struct InstanceStatus: Sendable, Equatable {
    public enum Phase: String, Sendable {
        /// No timeline yet, or none of its entries' dates has come: the placeholder shows.
        case loading
        /// An entry shows.
        case showing
        /// The bundle that provides its kind is not loaded; its configuration is kept.
        case bundleMissing
    }

    public var phase: Phase
    /// The entry shown: the latest whose date has come, of the latest timeline that has one.
    public var entry: WireEntry?
    /// Timelines received so far.
    public var timelines: Int
    /// Why the last timeline request failed, while the entry shown is the last good one.
    public var lastFailure: String?
    /// When the next timeline will be requested (after the budget), if one is due at all.
    public var nextReload: Date?
    public var nextReloadReason: ReloadReason?
    /// True when the budget moved the next reload later than asked.
    public var deferredByBudget: Bool
    /// Budgeted reloads in the last 24 hours.
    public var reloadsInWindow: Int
    /// True while a timeline request is under way.
    public var reloading: Bool
    /// True from an interaction (an intent being performed) until the timeline asked for after it
    /// arrives or fails: the entry may be stale, and views marked `invalidatableContent` show it.
    public var invalidated: Bool

    public init(
        phase: Phase, entry: WireEntry? = nil, timelines: Int = 0, lastFailure: String? = nil, nextReload: Date? = nil,
        nextReloadReason: ReloadReason? = nil, deferredByBudget: Bool = false, reloadsInWindow: Int = 0, reloading: Bool = false,
        invalidated: Bool = false
    ) {
        self.phase = phase
        self.entry = entry
        self.timelines = timelines
        self.lastFailure = lastFailure
        self.nextReload = nextReload
        self.nextReloadReason = nextReloadReason
        self.deferredByBudget = deferredByBudget
        self.reloadsInWindow = reloadsInWindow
        self.reloading = reloading
        self.invalidated = invalidated
    }
}

/// The system's half of WidgetKit: for each instance, request a timeline, show the latest entry
/// whose date has come, switch to later entries at their dates without calling the provider, and
/// request the next timeline when its policy, the budget, a request or a failure says so.
///
/// One timer on the injected clock, at the earliest due event of all instances: between events
/// nothing runs. Events are kept in one heap, an entry per instance (its next entry switch or reload,
/// whichever is earlier); an event superseded by a change is left in the heap and skipped.
///
/// Thread-safe. `fetch` and `observer` are called outside the engine's lock, on the thread that
/// caused the call (the clock's, or a caller's); `fetch` may complete on any thread, at once or later.
public final class TimelineEngine: @unchecked Sendable {
    public typealias Completion = @Sendable (Result<FetchedTimeline, TimelineFailure>) -> Void
    public typealias Fetch = @Sendable (EngineInstance, @escaping Completion) -> Void
    public typealias Observer = @Sendable (_ id: String, _ status: InstanceStatus) -> Void

    public let clock: WidgetClock
    public let budget: ReloadBudget
    private let fetch: Fetch
    private let observer: Observer?
    /// Where due events are processed and statuses reported, when given: off the clock's timer
    /// thread, which serves every deadline in the process and must never wait on an observer.
    private let workQueue: DispatchQueue?

    private let lock = NSLock()
    private var records: [String: Record] = [:]
    private var slots: [Record?] = []
    private var freeSlots: [Int32] = []
    private var heap = MinHeap<Event>()
    private var staleEvents = 0
    private var stamp: UInt32 = 0
    private var requestNumber: UInt64 = 0
    /// The date the clock's timer is set for, and the timer (nil while being set).
    private var armedDate: Double?
    private var armedToken: ScheduledAction?
    private var armSequence: UInt64 = 0
    private var count = Counters()

    /// Backoff after a failed request: 30 s, doubling, at most an hour.
    public static func retryDelay(afterFailures failures: Int) -> TimeInterval {
        min(3600, 30 * pow(2, Double(max(0, min(failures - 1, 16)))))
    }

    /// `workQueue`: a serial queue for timer events and status reports (a host passes one); nil runs
    /// them on the clock's thread and the caller's, as tests on a `ManualClock` want.
    public init(
        clock: WidgetClock, budget: ReloadBudget = .standard, workQueue: DispatchQueue? = nil, fetch: @escaping Fetch,
        observer: Observer? = nil
    ) {
        self.clock = clock
        self.budget = budget
        self.workQueue = workQueue
        self.fetch = fetch
        self.observer = observer
    }

    // MARK: Instances

    /// Starts hosting an instance: its first timeline is requested at once (outside the budget). An
    /// instance of the same id is replaced.
    public func add(_ instance: EngineInstance, bundleMissing: Bool = false) {
        perform { now, work in
            if let old = records[instance.id] { retire(old) }
            let record = Record(instance: instance, slot: takeSlot())
            slots[Int(record.slot)] = record
            records[instance.id] = record
            record.missing = bundleMissing
            if !bundleMissing { record.pending = Pending(date: now, reason: .added) }
            update(record, now: now, work: &work, notify: true)
        }
    }

    /// Stops hosting an instance; a request under way for it is answered into nothing.
    public func remove(id: String) {
        perform { _, _ in
            if let record = records[id] { retire(record) }
        }
    }

    /// A changed configuration or family: the instance reloads at once, outside the budget.
    public func update(_ instance: EngineInstance) {
        perform { now, work in
            guard let record = records[instance.id] else { return }
            record.instance = instance
            request(record, .configuration, now: now, work: &work)
        }
    }

    /// Asks for a new timeline for one instance. False when there is no such instance.
    @discardableResult
    public func reload(id: String, reason: ReloadReason = .requested) -> Bool {
        perform { now, work in
            guard let record = records[id] else { return false }
            request(record, reason, now: now, work: &work)
            return true
        }
    }

    /// An intent of this instance is being performed (a tap on a button): its entry is stale from
    /// now until the reload that follows (`reload(id:reason: .interaction)`) ends, or
    /// `interactionFailed(id:)` says none follows.
    public func interactionBegan(id: String) {
        perform { now, work in
            guard let record = records[id], !record.missing, record.interaction == .none else { return }
            record.interaction = .performing
            update(record, now: now, work: &work, notify: true)
        }
    }

    /// The intent could not be performed: no reload follows, and the entry is as valid as before.
    public func interactionFailed(id: String) {
        perform { now, work in
            guard let record = records[id], record.interaction == .performing else { return }
            record.interaction = .none
            update(record, now: now, work: &work, notify: true)
        }
    }

    /// Asks for new timelines for every instance of `kind` (every instance when nil): what
    /// `WidgetCenter.reloadTimelines(ofKind:)` and `reloadAllTimelines()` do. Returns how many.
    @discardableResult
    public func reload(kind: String?, reason: ReloadReason = .requested) -> Int {
        perform { now, work in
            var count = 0
            for record in records.values where kind == nil || record.instance.kind == kind {
                request(record, reason, now: now, work: &work)
                count += 1
            }
            return count
        }
    }

    /// Marks the instances of these kinds as missing their bundle (it was removed or failed to load):
    /// no requests go out, their configuration is kept, and they show `bundleMissing`.
    public func bundleMissing(kinds: Set<String>) {
        perform { now, work in
            for record in records.values where kinds.contains(record.instance.kind) && !record.missing {
                record.missing = true
                record.interaction = .none
                record.pending = nil
                record.again = nil
                record.requestNumber = 0  // an answer under way is dropped
                record.inFlight = false
                update(record, now: now, work: &work, notify: true)
            }
        }
    }

    /// The bundle for these kinds is back (or was replaced): their instances reload at once. An
    /// answer still awaited from before is the old bundle's, and is dropped.
    public func bundleAvailable(kinds: Set<String>) {
        perform { now, work in
            for record in records.values where kinds.contains(record.instance.kind) {
                record.missing = false
                record.inFlight = false
                record.requestNumber = 0
                record.again = nil
                request(record, .bundleReturned, now: now, work: &work)
            }
        }
    }

    public func status(id: String) -> InstanceStatus? {
        lock.withLock {
            guard let record = records[id] else { return nil }
            return status(of: record, now: clock.now().timeIntervalSince1970)
        }
    }

    public var instances: [EngineInstance] {
        lock.withLock { records.values.map(\.instance).sorted { $0.id < $1.id } }
    }

    /// What the engine has done so far (for tests and benchmarks).
    public struct Counters: Sendable, Equatable {
        /// Timeline requests started, by reason.
        public var requests: [ReloadReason: Int] = [:]
        /// Entries switched to without calling a provider.
        public var entrySwitches = 0
        /// Times the engine's timer fired.
        public var wakeups = 0
        /// Reloads the budget moved later.
        public var deferrals = 0
        public var failures = 0
    }

    public var counters: Counters { lock.withLock { count } }

    // MARK: The clock

    /// Runs what has come due: entry switches and reloads. `sequence` names the arming that set the
    /// timer; only that one's state is cleared (an older timer that still fires just does the work).
    private func fire(_ sequence: UInt64) {
        perform { now, work in
            if armSequence == sequence {
                armedDate = nil
                armedToken = nil
            }
            count.wakeups += 1
            while let top = heap.first, top.due <= now {
                heap.popFirst()
                guard let record = slots[Int(top.slot)], record.stamp == top.stamp else {
                    staleEvents = max(0, staleEvents - 1)
                    continue
                }
                record.stamp = 0
                update(record, now: now, work: &work, notify: false)
            }
        }
    }

    /// Sets the clock's timer for the earliest live event, unless one is set for it or earlier.
    private func arm() {
        let plan: (date: Double, cancel: ScheduledAction?, sequence: UInt64)? = lock.withLock {
            // Superseded events on top would wake the process for nothing.
            while let top = heap.first, slots[Int(top.slot)]?.stamp != top.stamp {
                heap.popFirst()
                staleEvents = max(0, staleEvents - 1)
            }
            guard let top = heap.first?.due else {
                let old = armedToken
                armedDate = nil
                armedToken = nil
                armSequence += 1
                return old.map { (0, $0, 0) }
            }
            if let armed = armedDate, armed <= top { return nil }
            let old = armedToken
            armSequence += 1
            armedDate = top
            armedToken = nil
            return (top, old, armSequence)
        }
        guard let plan else { return }
        plan.cancel?.cancel()
        guard plan.sequence != 0 else { return }
        let sequence = plan.sequence
        let queue = workQueue
        let token = clock.schedule(at: Date(timeIntervalSince1970: plan.date)) { [weak self] in
            guard let engine = self else { return }
            if let queue { queue.async { engine.fire(sequence) } } else { engine.fire(sequence) }
        }
        let kept = lock.withLock {
            guard armSequence == sequence && armedDate == plan.date else { return false }
            armedToken = token
            return true
        }
        // Superseded while being set (another thread armed an earlier date meanwhile): never left
        // behind to fire on its own.
        if !kept { token.cancel() }
    }

    // MARK: Under the lock

    /// What to do once the lock is released: requests to send, statuses to report.
    private struct Work {
        var requests: [(EngineInstance, UInt64)] = []
        var statuses: [(String, InstanceStatus)] = []
    }

    /// Runs `body` under the lock with the current time, then sends the requests and reports the
    /// statuses it produced, and sets the timer.
    private func perform<T>(_ body: (Double, inout Work) -> T) -> T {
        var work = Work()
        let result: T = lock.withLock {
            let result = body(clock.now().timeIntervalSince1970, &work)
            // Queued under the lock, so reports arrive in the order the changes happened.
            if let observer, let workQueue, !work.statuses.isEmpty {
                let statuses = work.statuses
                workQueue.async { for (id, status) in statuses { observer(id, status) } }
                work.statuses = []
            }
            return result
        }
        if let observer {
            for (id, status) in work.statuses { observer(id, status) }
        }
        for (instance, number) in work.requests {
            fetch(instance) { [weak self] result in self?.complete(instance.id, number, result) }
        }
        arm()
        return result
    }

    private func complete(_ id: String, _ number: UInt64, _ result: Result<FetchedTimeline, TimelineFailure>) {
        perform { now, work in
            guard let record = records[id], record.inFlight, record.requestNumber == number else { return }
            record.inFlight = false
            // The reload the last interaction asked for ended, with a timeline or a failure; one
            // asked for by a later tap, queued behind it, keeps the entry stale until it ends too.
            if record.interaction == .awaitingReload, !record.interactionAfterStart { record.interaction = .none }
            switch result {
            case .success(let timeline):
                record.entries = timeline.entries.sorted { $0.date < $1.date }
                record.shown = -1
                record.timelines += 1
                record.failure = nil
                record.failures = 0
                switch timeline.policy {
                case .atEnd: record.pending = Pending(date: record.entries.last?.date ?? now, reason: .policy)
                case .after(let date): record.pending = Pending(date: date, reason: .policy)
                case .never: record.pending = nil
                }
            case .failure(let failure):
                count.failures += 1
                record.failure = failure.description
                record.failures += 1
                record.pending = Pending(date: now + Self.retryDelay(afterFailures: record.failures), reason: .retry)
            }
            if let again = record.again {
                record.again = nil
                record.pending = Pending(date: now, reason: again)
            }
            update(record, now: now, work: &work, notify: true)
        }
    }

    /// A reload request: merged into one already pending or under way (coalescing).
    private func request(_ record: Record, _ reason: ReloadReason, now: Double, work: inout Work) {
        guard !record.missing else { return }
        if reason == .interaction {
            record.interaction = .awaitingReload
            if record.inFlight { record.interactionAfterStart = true }
        }
        if record.inFlight {
            record.again = Self.merged(record.again, reason)
        } else if let pending = record.pending {
            if !reason.isBudgeted {
                record.pending = Pending(date: now, reason: reason)
            } else if pending.reason != .retry {
                // Budgeted either way: the earlier date, an exempt reason kept.
                record.pending = Pending(date: min(pending.date, now), reason: Self.merged(pending.reason, reason))
            }
            // A budgeted request while a failure waits for its backoff joins the retry, not sooner.
        } else {
            record.pending = Pending(date: now, reason: reason)
        }
        update(record, now: now, work: &work, notify: true)
    }

    /// Two reasons for one reload: an exempt one wins, so merging never costs budget.
    private static func merged(_ old: ReloadReason?, _ new: ReloadReason) -> ReloadReason {
        guard let old else { return new }
        return new.isBudgeted ? old : new
    }

    /// Brings a record up to `now`: switches its entry, starts its reload if due, and files its next
    /// event.
    private func update(_ record: Record, now: Double, work: inout Work, notify: Bool) {
        var changed = notify
        let entries = record.entries
        var shown = record.shown
        while shown + 1 < entries.count, entries[shown + 1].date <= now { shown += 1 }
        if shown != record.shown {
            if record.shown >= 0 || record.current != nil { count.entrySwitches += 1 }
            record.shown = shown
            record.current = entries[shown]
            changed = true
        }
        if !record.missing, !record.inFlight, let pending = record.pending {
            let (date, deferred) = allowed(pending, record)
            if deferred && !record.deferred { count.deferrals += 1 }
            record.deferred = deferred
            if date <= now {
                record.pending = nil
                record.deferred = false
                record.inFlight = true
                record.interactionAfterStart = false
                record.lastStart = now
                if pending.reason.isBudgeted && budget.reloadsPerDay != .max {
                    record.history.append(now)
                    if record.history.count > budget.reloadsPerDay { record.history.removeFirst() }
                }
                requestNumber += 1
                record.requestNumber = requestNumber
                count.requests[pending.reason, default: 0] += 1
                work.requests.append((record.instance, requestNumber))
                changed = true
            }
        }
        schedule(record, now: now)
        if changed { work.statuses.append((record.instance.id, status(of: record, now: now))) }
    }

    /// The earliest date the budget allows a pending reload, and whether that is later than asked.
    private func allowed(_ pending: Pending, _ record: Record) -> (Double, Bool) {
        guard pending.reason.isBudgeted else { return (pending.date, false) }
        var date = pending.date
        if let last = record.lastStart { date = max(date, last + budget.minimumInterval) }
        if record.history.count >= budget.reloadsPerDay, let oldest = record.history.first {
            date = max(date, oldest + ReloadBudget.window)
        }
        return (date, date > pending.date)
    }

    /// Files the record's next event: its next entry's date or its reload, whichever is earlier.
    private func schedule(_ record: Record, now: Double) {
        var due = Double.infinity
        if record.shown + 1 < record.entries.count { due = record.entries[record.shown + 1].date }
        if !record.missing, !record.inFlight, let pending = record.pending { due = min(due, allowed(pending, record).0) }
        if record.stamp != 0 {
            if record.scheduled == due { return }
            staleEvents += 1
        }
        guard due.isFinite else {
            record.stamp = 0
            return
        }
        stamp = stamp == .max ? 1 : stamp + 1
        record.stamp = stamp
        record.scheduled = due
        heap.push(Event(due: due, slot: record.slot, stamp: stamp))
        if staleEvents > 1024 && staleEvents > heap.count / 2 {
            heap.removeAll { event in slots[Int(event.slot)]?.stamp != event.stamp }
            staleEvents = 0
        }
    }

    private func status(of record: Record, now: Double) -> InstanceStatus {
        let phase: InstanceStatus.Phase = record.missing ? .bundleMissing : record.current == nil ? .loading : .showing
        var next: Date?
        var deferred = false
        if !record.missing, !record.inFlight, let pending = record.pending {
            let (date, isDeferred) = allowed(pending, record)
            next = Date(timeIntervalSince1970: date)
            deferred = isDeferred
        }
        return InstanceStatus(
            phase: phase, entry: record.current, timelines: record.timelines, lastFailure: record.failure, nextReload: next,
            nextReloadReason: record.missing ? nil : (record.inFlight ? record.again : record.pending?.reason),
            deferredByBudget: deferred, reloadsInWindow: record.history.count(where: { $0 > now - ReloadBudget.window }),
            reloading: record.inFlight,
            invalidated: !record.missing && record.interaction != .none)
    }

    private func takeSlot() -> Int32 {
        if let slot = freeSlots.popLast() { return slot }
        slots.append(nil)
        return Int32(slots.count - 1)
    }

    private func retire(_ record: Record) {
        records[record.instance.id] = nil
        slots[Int(record.slot)] = nil
        freeSlots.append(record.slot)
        if record.stamp != 0 { staleEvents += 1 }
        record.stamp = 0
        record.requestNumber = 0
    }
}

/// A reload waiting to happen: no earlier than `date`, for `reason`.
private struct Pending {
    var date: Double
    var reason: ReloadReason
}

/// One instance's state. Dates are seconds since 1970.
private final class Record {
    var instance: EngineInstance
    let slot: Int32
    var entries: [WireEntry] = []
    /// The index in `entries` of the entry shown, -1 before the first one's date.
    var shown = -1
    /// The entry shown, which outlives its timeline until the next one has an entry due.
    var current: WireEntry?
    var timelines = 0
    var failure: String?
    var failures = 0
    var pending: Pending?
    var inFlight = false
    /// Where an interaction with the instance is: its entry is stale until the reload it asks for.
    var interaction = Interaction.none
    /// An interaction asked for a reload after the request under way began: that request's end
    /// does not end the staleness, the one queued behind it does.
    var interactionAfterStart = false

    enum Interaction: UInt8 {
        case none, performing, awaitingReload
    }
    /// A reload asked for while one was under way: one more follows it.
    var again: ReloadReason?
    var deferred = false
    var missing = false
    var lastStart: Double?
    /// Start times of budgeted reloads, oldest first, at most `reloadsPerDay` of them.
    var history: [Double] = []
    /// The request whose answer is awaited; 0 when none.
    var requestNumber: UInt64 = 0
    /// The stamp of this record's live event in the heap (0: none) and its date.
    var stamp: UInt32 = 0
    var scheduled = 0.0

    init(instance: EngineInstance, slot: Int32) {
        self.instance = instance
        self.slot = slot
    }
}

/// An instance's next event in the engine's heap; stale when the stamp no longer matches its record's.
private struct Event: HeapElement {
    let due: Double
    let slot: Int32
    let stamp: UInt32

    func precedes(_ other: Event) -> Bool { due < other.due }
}
