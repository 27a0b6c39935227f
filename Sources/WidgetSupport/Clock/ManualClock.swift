import FoundationEssentials

/// A clock that moves only when told: tests run hours of behaviour in milliseconds.
public final class ManualClock: WidgetClock, @unchecked Sendable {
    private let lock = Condition()
    private var current: Date
    private var timers = TimerHeap()

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
    /// has not happened within `limit` of real time (a safety net, so a broken test fails, not hangs;
    /// generous, as a worker started while the whole suite runs on two cores can take seconds).
    /// Blocking: call it off Swift's cooperative thread pool.
    @discardableResult
    public func waitUntilScheduled(atLeast count: Int, limit: TimeInterval = 30) -> Bool {
        let giveUp = Date().addingTimeInterval(limit)
        lock.lock()
        defer { lock.unlock() }
        while timers.pendingCount < count {
            if !lock.wait(until: giveUp) { return false }
        }
        return true
    }

    /// Blocks until an action waits to run at `date` (false if none does within `limit` of real
    /// time): for a test that must know which of several timers has been set.
    @discardableResult
    public func waitUntilScheduled(at date: Date, limit: TimeInterval = 30) -> Bool {
        let giveUp = Date().addingTimeInterval(limit)
        lock.lock()
        defer { lock.unlock() }
        while !timers.isPending(at: date) {
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
