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

/// A pending action of a clock; `cancel()` stops it if it has not run yet. It is also the clock's
/// own record of the timer, in its heap (a request sets one and cancels it on every call, so the
/// caller's token and the clock's record are one object).
public final class ScheduledAction: Sendable, HeapElement {
    let date: Date
    /// The order it was scheduled in: timers of the same date run in that order.
    let sequence: UInt64
    /// The action until it runs or is cancelled. Let go of then, not kept until the clock drops the
    /// timer: an action may hold what holds this timer.
    private let action: Locked<(@Sendable () -> Void)?>

    init(date: Date, sequence: UInt64, action: @escaping @Sendable () -> Void) {
        self.date = date
        self.sequence = sequence
        self.action = Locked(action)
    }

    /// Cancelling tells the clock nothing: it drops the timer when it comes to it.
    public func cancel() {
        // Released after the lock, in case it holds the last reference to something.
        _ = claim()
    }

    /// Claims the right to run: the action, or nil when cancelled (or already run).
    func claim() -> (@Sendable () -> Void)? {
        action.withLock { action in
            defer { action = nil }
            return action
        }
    }

    /// Whether it was cancelled or has run.
    var isCancelledOrDone: Bool { action.withLock { $0 == nil } }

    func precedes(_ other: ScheduledAction) -> Bool { (date, sequence) < (other.date, other.sequence) }
}

/// A clock's timers: a binary heap by date (then by the order they were set). A cancelled timer
/// stays until it reaches the top, where the next `add` or look at the top drops it, or until
/// cancelled ones have doubled the heap since it was last swept.
struct TimerHeap {
    private var heap = MinHeap<ScheduledAction>()
    private var sequence: UInt64 = 0
    /// The size past which the heap is swept of cancelled timers.
    private var sweepAbove = 1024

    /// Timers held, cancelled ones not yet dropped included.
    var count: Int { heap.count }

    /// Timers neither cancelled nor run; counted one by one.
    var pendingCount: Int { heap.elements.count { !$0.isCancelledOrDone } }

    mutating func add(at date: Date, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        // Cancelled timers at the top go now, not at their dates: a request's deadline is
        // cancelled by its answer, so one request after another would otherwise pile them up
        // until the next sweep, at the cost of every push.
        dropCancelledTop()
        sequence += 1
        let timer = ScheduledAction(date: date, sequence: sequence, action: action)
        heap.push(timer)
        if heap.count > sweepAbove {
            heap.removeAll { $0.isCancelledOrDone }
            sweepAbove = max(1024, 2 * heap.count)
        }
        return timer
    }

    /// The earliest timer not cancelled, if any.
    mutating func first() -> ScheduledAction? {
        dropCancelledTop()
        return heap.first
    }

    /// Takes the earliest timer not cancelled, if it is due at `date`.
    mutating func popFirst(dueBy date: Date) -> ScheduledAction? {
        guard let first = first(), first.date <= date else { return nil }
        heap.popFirst()
        return first
    }

    private mutating func dropCancelledTop() {
        while let first = heap.first, first.isCancelledOrDone { heap.popFirst() }
    }
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

    private let condition = NSCondition()
    // `@exclusivity(unchecked)`: state only touched under a lock (docs/ISOLATION.md, "Cost").
    @exclusivity(unchecked) private var timers = TimerHeap()

    /// A heap of timers and the thread that runs them; the host uses the one `shared`. Tests of the
    /// heap alone make one with no thread (`running: false`), whose timers never run.
    init(running: Bool = true) {
        guard running else { return }
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "widgets.clock"
        thread.start()
    }

    /// Timers in the heap, cancelled ones not yet dropped included.
    var heapCount: Int { condition.withLock { timers.count } }

    func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        // Cancelling wakes nobody: if it was the earliest, the thread wakes at its date once, finds
        // it cancelled, and sleeps on (waking it now would cost every request a wakeup instead).
        condition.withLock {
            let timer = timers.add(at: date, action)
            // Only a timer earlier than the one the thread sleeps for changes how long it sleeps.
            if date < sleepingUntil, timers.first() === timer { condition.signal() }
            return timer
        }
    }

    /// The date the thread sleeps until (distantFuture while there is no timer); under the lock.
    @exclusivity(unchecked) private var sleepingUntil = Date.distantFuture

    private func run() {
        condition.lock()
        while true {
            guard let first = timers.first() else {
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
            _ = timers.popFirst(dueBy: now)
            condition.unlock()
            if let action = first.claim() { action() }
            condition.lock()
        }
    }
}

/// A clock that moves only when told: tests run hours of behaviour in milliseconds.
public final class ManualClock: WidgetClock, @unchecked Sendable {
    private let lock = NSCondition()
    // `@exclusivity(unchecked)`: state only touched under a lock (docs/ISOLATION.md, "Cost").
    @exclusivity(unchecked) private var current: Date
    @exclusivity(unchecked) private var timers = TimerHeap()

    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = now
    }

    public func now() -> Date { lock.withLock { current } }

    /// Actions scheduled and not yet run or cancelled.
    public var pendingCount: Int {
        lock.withLock { timers.pendingCount }
    }

    @discardableResult
    public func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let (timer, runNow): (ScheduledAction, Bool) = lock.withLock {
            // One whose date has come is not kept: it runs now, here.
            if date <= current { return (ScheduledAction(date: date, sequence: 0, action: action), true) }
            let timer = timers.add(at: date, action)
            lock.broadcast()
            return (timer, false)
        }
        if runNow, let action = timer.claim() { action() }
        return timer
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
        while timers.pendingCount < count {
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
            let next: ScheduledAction? = lock.withLock {
                guard let timer = timers.popFirst(dueBy: target) else {
                    current = max(current, target)
                    return nil
                }
                current = max(current, timer.date)
                return timer
            }
            guard let next else { return }
            if let action = next.claim() { action() }
        }
    }
}
