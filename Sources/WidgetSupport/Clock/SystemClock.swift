import FoundationEssentials

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

    private let condition = Condition()
    private var timers = TimerHeap()

    /// A heap of timers and the thread that runs them; the host uses the one `shared`. Tests of the
    /// heap alone make one with no thread (`running: false`), whose timers never run.
    init(running: Bool = true) {
        guard running else { return }
        startThread(named: "widgets.clock") { [unowned self] in self.run() }
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
    private var sleepingUntil = Date.distantFuture

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
