import Foundation

/// The host's sense of time: what time it is, and running something once a time has come.
///
/// Everything in the host that depends on time (request deadlines now; timeline entries, reload
/// policies and budgets later) takes a clock, so tests drive a `ManualClock` instead of sleeping.
public protocol WidgetClock: Sendable {
    func now() -> Date
    /// Runs `action` once, on some thread, when `date` has come (at once if it has already).
    /// Cancelling the returned token before then means it never runs.
    @discardableResult
    func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> ScheduledAction
}

/// A pending action of a clock; `cancel()` stops it if it has not run yet.
public final class ScheduledAction: Sendable {
    private struct State {
        var cancelHandler: (@Sendable () -> Void)?
        var isDone = false
    }

    private let state: Locked<State>

    init(cancel: (@Sendable () -> Void)? = nil) {
        state = Locked(State(cancelHandler: cancel))
    }

    public func cancel() {
        let handler: (@Sendable () -> Void)? = state.withLock { state in
            guard !state.isDone else { return nil }
            state.isDone = true
            return state.cancelHandler
        }
        handler?()
    }

    /// Claims the right to run; false when cancelled (or already run).
    func claim() -> Bool {
        state.withLock { state in
            guard !state.isDone else { return false }
            state.isDone = true
            return true
        }
    }

    /// Whether it was cancelled or has run.
    var isCancelledOrDone: Bool { state.withLock { $0.isDone } }
}

/// The real clock: wall time, and timers on wall time (which keep counting while the machine
/// sleeps, as timeline dates do).
///
/// All timers share one thread of their own, which sleeps until the earliest one is due: nothing
/// polls, and setting or cancelling a timer that is not the earliest wakes nobody (a request's
/// deadline is set and cancelled on every request). Not Dispatch's shared queues either: a bundle
/// that blocks their threads must not be able to delay the deadlines that contain it. Actions run on
/// that thread, one after another, and must be short.
public struct SystemClock: WidgetClock {
    public init() {}

    public func now() -> Date { Date() }

    @discardableResult
    public func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        TimerThread.shared.schedule(at: date, action)
    }
}

/// The timers of every `SystemClock`: a binary heap by due date, and one thread that waits on a
/// condition until the top one is due (or an earlier one is added).
final class TimerThread: @unchecked Sendable {
    static let shared = TimerThread()
    static let longestWait: TimeInterval = 365 * 24 * 3600

    private struct Entry: HeapElement {
        let date: Date
        let sequence: UInt64
        let token: ScheduledAction
        let action: @Sendable () -> Void

        func precedes(_ other: Entry) -> Bool { (date, sequence) < (other.date, other.sequence) }
    }

    private let condition = NSCondition()
    private var heap = MinHeap<Entry>()
    private var sequence: UInt64 = 0
    /// Entries cancelled but still in the heap; compacted away when they outnumber the live ones.
    private var cancelled = 0

    /// A heap of timers and the thread that runs them; the host uses the one `shared`. Tests of the
    /// heap alone make one with no thread (`running: false`), whose timers never run.
    init(running: Bool = true) {
        guard running else { return }
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "widgets.clock"
        thread.start()
    }

    /// Timers in the heap, cancelled ones not yet dropped included.
    var heapCount: Int { condition.withLock { heap.count } }

    func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        // Cancelling wakes nobody: if it was the earliest, the thread wakes at its date once, finds
        // it cancelled, and sleeps on (waking it now would cost every request a wakeup instead).
        let token = ScheduledAction { [unowned self] in
            self.condition.withLock { self.cancelled += 1 }
        }
        condition.withLock {
            // Cancelled timers at the top go now, not at their dates: a request's deadline is
            // cancelled by its answer, so one request after another would otherwise pile them up
            // until the next compaction, at the cost of every push.
            dropCancelledTop()
            sequence += 1
            heap.push(Entry(date: date, sequence: sequence, token: token, action: action))
            // Only a timer earlier than the one the thread sleeps for changes how long it sleeps.
            if heap.first?.token === token, date < sleepingUntil { condition.signal() }
            if cancelled > 1024 && cancelled > heap.count / 2 { compact() }
        }
        return token
    }

    /// The date the thread sleeps until (distantFuture while there is no timer); under the lock.
    private var sleepingUntil = Date.distantFuture

    private func run() {
        condition.lock()
        while true {
            dropCancelledTop()
            guard let first = heap.first else {
                sleepingUntil = .distantFuture
                condition.wait()
                continue
            }
            let now = Date()
            if first.date > now {
                sleepingUntil = first.date
                // Foundation converts the date to nanoseconds in an Int64, which traps past 2262
                // (a provider's `.after(.distantFuture)`): a date that far is waited for a year at a
                // time, one wakeup a year.
                _ = condition.wait(until: min(first.date, now.addingTimeInterval(Self.longestWait)))
                continue
            }
            sleepingUntil = .distantPast
            heap.popFirst()
            condition.unlock()
            if first.token.claim() { first.action() }
            condition.lock()
        }
    }

    /// Pops the cancelled timers at the top of the heap. Called with the lock held.
    private func dropCancelledTop() {
        while let first = heap.first, first.token.isCancelledOrDone {
            heap.popFirst()
            cancelled = max(0, cancelled - 1)
        }
    }

    private func compact() {
        heap.removeAll { $0.token.isCancelledOrDone }
        cancelled = 0
    }
}

/// A clock that moves only when told: tests run hours of behaviour in milliseconds.
public final class ManualClock: WidgetClock, @unchecked Sendable {
    private struct Entry {
        let date: Date
        let sequence: Int
        let token: ScheduledAction
        let action: @Sendable () -> Void
    }

    private let lock = NSCondition()
    private var current: Date
    /// Pending actions by their sequence number; a cancelled one is removed at once.
    private var entries: [Int: Entry] = [:]
    private var sequence = 0

    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = now
    }

    public func now() -> Date { lock.withLock { current } }

    /// Actions scheduled and not yet run or cancelled.
    public var pendingCount: Int {
        lock.withLock { entries.count }
    }

    @discardableResult
    public func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let (token, runNow): (ScheduledAction, Bool) = lock.withLock {
            sequence += 1
            let number = sequence
            let token = ScheduledAction { [weak self] in
                guard let self else { return }
                self.lock.withLock { _ = self.entries.removeValue(forKey: number) }
            }
            if date <= current { return (token, true) }
            entries[number] = Entry(date: date, sequence: number, token: token, action: action)
            lock.broadcast()
            return (token, false)
        }
        if runNow, token.claim() { action() }
        return token
    }

    /// Blocks until at least `count` actions are waiting to run: a test that started work on another
    /// thread uses it to know the work has set its timers before moving time. Returns false if that
    /// has not happened within `limit` of real time (a safety net, so a broken test fails, not hangs).
    /// Blocking: call it off Swift's cooperative thread pool.
    @discardableResult
    public func waitUntilScheduled(atLeast count: Int, limit: TimeInterval = 10) -> Bool {
        let giveUp = Date().addingTimeInterval(limit)
        lock.lock()
        defer { lock.unlock() }
        while entries.count < count {
            if !lock.wait(until: giveUp) { return false }
        }
        return true
    }

    /// Moves time forward, running every action that comes due, in date order (then in the order
    /// scheduled), on the calling thread, with `now()` at the action's date.
    public func advance(by interval: TimeInterval) {
        let target = lock.withLock { current.addingTimeInterval(interval) }
        advance(to: target)
    }

    public func advance(to target: Date) {
        while true {
            let next: Entry? = lock.withLock {
                guard let entry = entries.values.filter({ $0.date <= target }).min(by: { ($0.date, $0.sequence) < ($1.date, $1.sequence) })
                else {
                    current = max(current, target)
                    return nil
                }
                entries[entry.sequence] = nil
                current = max(current, entry.date)
                return entry
            }
            guard let next else { return }
            if next.token.claim() { next.action() }
        }
    }
}
