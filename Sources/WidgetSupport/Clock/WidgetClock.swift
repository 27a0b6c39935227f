import FoundationEssentials

/// The host's sense of time: what time it is, and running something once a time has come.
///
/// Everything in the host that depends on time (request deadlines, timeline entries, reload policies
/// and budgets, the dashboard's ticking text) takes a clock, so tests drive a `ManualClock` instead of
/// sleeping.
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
public final class ScheduledAction: Sendable {
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

    /// Earlier first, and of two at one date, the one set first.
    func precedes(_ other: ScheduledAction) -> Bool { (date, sequence) < (other.date, other.sequence) }
}
