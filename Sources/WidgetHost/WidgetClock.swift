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
public final class ScheduledAction: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelHandler: (@Sendable () -> Void)?
    private var isDone = false

    init(cancel: (@Sendable () -> Void)? = nil) {
        cancelHandler = cancel
    }

    public func cancel() {
        let handler: (@Sendable () -> Void)? = lock.withLock {
            guard !isDone else { return nil }
            isDone = true
            return cancelHandler
        }
        handler?()
    }

    /// Claims the right to run; false when cancelled (or already run).
    func claim() -> Bool {
        lock.withLock {
            guard !isDone else { return false }
            isDone = true
            return true
        }
    }
}

/// The real clock: wall time, and Dispatch timers on wall time (which keep counting while the
/// machine sleeps, as timeline dates do).
///
/// Timers fire on a queue of their own, not Dispatch's shared global queues: a bundle that blocks
/// the shared worker threads must not be able to delay the deadlines that contain it. Actions must
/// be short.
public struct SystemClock: WidgetClock {
    private static let timers = DispatchQueue(label: "widgets.clock")

    public init() {}

    public func now() -> Date { Date() }

    @discardableResult
    public func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        // Dispatch sources are thread-safe; the box only tells the compiler so.
        let timer = _SendableTimer(source: DispatchSource.makeTimerSource(queue: Self.timers))
        let token = ScheduledAction { timer.source.cancel() }
        timer.source.setEventHandler {
            if token.claim() { action() }
            timer.source.cancel()
        }
        let seconds = date.timeIntervalSince1970
        let wallDeadline = DispatchWallTime(
            timespec: timespec(tv_sec: Int(seconds.rounded(.down)), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9)))
        timer.source.schedule(wallDeadline: wallDeadline, leeway: .milliseconds(1))
        timer.source.activate()
        return token
    }
}

private struct _SendableTimer: @unchecked Sendable {
    let source: DispatchSourceTimer
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
    private var entries: [Entry] = []
    private var sequence = 0

    public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = now
    }

    public func now() -> Date { lock.withLock { current } }

    /// Actions scheduled and not yet run or cancelled.
    public var pendingCount: Int {
        lock.withLock { entries.filter { !$0.token.isCancelledOrDone }.count }
    }

    @discardableResult
    public func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let token = ScheduledAction()
        let runNow: Bool = lock.withLock {
            if date <= current { return true }
            sequence += 1
            entries.append(Entry(date: date, sequence: sequence, token: token, action: action))
            lock.broadcast()
            return false
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
        while entries.filter({ !$0.token.isCancelledOrDone }).count < count {
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
                guard let index = entries.indices.filter({ entries[$0].date <= target })
                    .min(by: { (entries[$0].date, entries[$0].sequence) < (entries[$1].date, entries[$1].sequence) })
                else {
                    current = max(current, target)
                    return nil
                }
                let entry = entries.remove(at: index)
                current = max(current, entry.date)
                return entry
            }
            guard let next else { return }
            if next.token.claim() { next.action() }
        }
    }
}

extension ScheduledAction {
    fileprivate var isCancelledOrDone: Bool { lock.withLock { isDone } }
}
