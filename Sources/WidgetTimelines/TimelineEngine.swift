import Dispatch
import FoundationEssentials
import Synchronization
@_spi(WidgetsInternal) import WidgetSupport
import WidgetWire

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
public final class TimelineEngine: Sendable {
    public typealias Completion = @Sendable (Result<FetchedTimeline, TimelineFailure>) -> Void
    public typealias Fetch = @Sendable (EngineInstance, @escaping Completion) -> Void
    public typealias Observer = @Sendable (_ id: String, _ status: InstanceStatus) -> Void

    public let clock: WidgetClock
    public let budget: ReloadBudget
    let fetch: Fetch
    let observer: Observer?
    /// Where due events are processed and statuses reported, when given: off the clock's timer
    /// thread, which serves every deadline in the process and must never wait on an observer.
    let workQueue: DispatchQueue?

    /// Every instance's record, the events, the timer: behind one lock.
    let state: Mutex<EngineState>

    /// Backoff after a failed request: 30 s, doubling, at most an hour.
    public static func retryDelay(afterFailures failures: Int) -> TimeInterval {
        min(3600, 30 * Double(1 << max(0, min(failures - 1, 16))))
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
        state = Mutex(EngineState(budget: budget))
    }

    // MARK: Instances

    /// Starts hosting an instance: its first timeline is requested at once (outside the budget). An
    /// instance of the same id is replaced.
    public func add(_ instance: EngineInstance, bundleMissing: Bool = false) {
        perform { state, now, work in
            if let old = state.records[instance.id] { state.retire(old) }
            let record = Record(instance: instance, slot: state.takeSlot())
            state.slots[Int(record.slot)] = record
            state.records[instance.id] = record
            record.missing = bundleMissing
            if !bundleMissing { record.pending = Pending(date: now, reason: .added) }
            state.update(record, now: now, work: &work, notify: true)
        }
    }

    /// Stops hosting an instance; a request under way for it is answered into nothing.
    public func remove(id: String) {
        perform { state, _, _ in
            if let record = state.records[id] { state.retire(record) }
        }
    }

    /// A changed configuration or family: the instance reloads at once, outside the budget.
    public func update(_ instance: EngineInstance) {
        perform { state, now, work in
            guard let record = state.records[instance.id] else { return }
            record.instance = instance
            state.request(record, .configuration, now: now, work: &work)
        }
    }

    /// Asks for a new timeline for one instance. False when there is no such instance.
    @discardableResult
    public func reload(id: String, reason: ReloadReason = .requested) -> Bool {
        perform { state, now, work in
            guard let record = state.records[id] else { return false }
            state.request(record, reason, now: now, work: &work)
            return true
        }
    }

    /// An intent of this instance is being performed (a tap on a button): its entry is stale from
    /// now until the reload that follows (`reload(id:reason: .interaction)`) ends, or
    /// `interactionFailed(id:)` says none follows.
    public func interactionBegan(id: String) {
        perform { state, now, work in
            guard let record = state.records[id], !record.missing, record.interaction == .none else { return }
            record.interaction = .performing
            state.update(record, now: now, work: &work, notify: true)
        }
    }

    /// The intent could not be performed: no reload follows, and the entry is as valid as before.
    public func interactionFailed(id: String) {
        perform { state, now, work in
            guard let record = state.records[id], record.interaction == .performing else { return }
            record.interaction = .none
            state.update(record, now: now, work: &work, notify: true)
        }
    }

    /// Asks for new timelines for every instance of `kind` (every instance when nil): what
    /// `WidgetCenter.reloadTimelines(ofKind:)` and `reloadAllTimelines()` do. Returns how many.
    @discardableResult
    public func reload(kind: String?, reason: ReloadReason = .requested) -> Int {
        reload(kinds: kind.map { [$0] }, reason: reason)
    }

    /// Reloads the instances of these kinds (all, for nil); returns how many.
    @discardableResult
    public func reload(kinds: Set<String>?, reason: ReloadReason = .requested) -> Int {
        perform { state, now, work in
            var reloaded = 0
            for record in state.records.values where kinds?.contains(record.instance.kind) ?? true {
                state.request(record, reason, now: now, work: &work)
                reloaded += 1
            }
            return reloaded
        }
    }

    /// Marks the instances of these kinds as missing their bundle (it was removed or failed to load):
    /// no requests go out, their configuration is kept, and they show `bundleMissing`.
    public func bundleMissing(kinds: Set<String>) {
        perform { state, now, work in
            for record in state.records.values where kinds.contains(record.instance.kind) && !record.missing {
                record.missing = true
                record.interaction = .none
                record.pending = nil
                record.again = nil
                record.requestNumber = 0  // an answer under way is dropped
                record.inFlight = false
                state.update(record, now: now, work: &work, notify: true)
            }
        }
    }

    /// The bundle for these kinds is back (or was replaced): their instances reload at once. An
    /// answer still awaited from before is the old bundle's, and is dropped.
    public func bundleAvailable(kinds: Set<String>) {
        perform { state, now, work in
            for record in state.records.values where kinds.contains(record.instance.kind) {
                record.missing = false
                record.inFlight = false
                record.requestNumber = 0
                record.again = nil
                state.request(record, .bundleReturned, now: now, work: &work)
            }
        }
    }

    public func status(id: String) -> InstanceStatus? {
        state.withLock { state in
            guard let record = state.records[id] else { return nil }
            return state.status(of: record, now: clock.now().timeIntervalSince1970)
        }
    }

    public var instances: [EngineInstance] {
        state.withLock { state in state.records.values.map(\.instance).sorted { $0.id < $1.id } }
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

    public var counters: Counters { state.withLock { state in state.count } }

    // MARK: The clock

    /// Runs what has come due: entry switches and reloads. `sequence` names the arming that set the
    /// timer; only that one's state is cleared (an older timer that still fires just does the work).
    func fire(_ sequence: UInt64) {
        perform { state, now, work in
            if state.armSequence == sequence {
                state.armedDate = nil
                state.armedToken = nil
            }
            state.count.wakeups += 1
            while let top = state.heap.first, top.due <= now {
                state.heap.popFirst()
                guard let record = state.slots[Int(top.slot)], record.stamp == top.stamp else {
                    state.staleEvents = max(0, state.staleEvents - 1)
                    continue
                }
                record.stamp = 0
                state.update(record, now: now, work: &work, notify: false)
            }
        }
    }

    /// Sets the clock's timer for the earliest live event, unless one is set for it or earlier.
    func arm() {
        let plan: (date: Double, cancel: ScheduledAction?, sequence: UInt64)? = state.withLock { state in
            // Superseded events on top would wake the process for nothing.
            while let top = state.heap.first, state.slots[Int(top.slot)]?.stamp != top.stamp {
                state.heap.popFirst()
                state.staleEvents = max(0, state.staleEvents - 1)
            }
            guard let top = state.heap.first?.due else {
                let old = state.armedToken
                state.armedDate = nil
                state.armedToken = nil
                state.armSequence += 1
                return old.map { (0, $0, 0) }
            }
            if let armed = state.armedDate, armed <= top { return nil }
            let old = state.armedToken
            state.armSequence += 1
            state.armedDate = top
            state.armedToken = nil
            return (top, old, state.armSequence)
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
        let kept = state.withLock { state in
            guard state.armSequence == sequence && state.armedDate == plan.date else { return false }
            state.armedToken = token
            return true
        }
        // Superseded while being set (another thread armed an earlier date meanwhile): never left
        // behind to fire on its own.
        if !kept { token.cancel() }
    }
}
