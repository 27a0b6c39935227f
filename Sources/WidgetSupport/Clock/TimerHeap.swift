import FoundationEssentials

/// A clock's timers: a binary heap by date (then by the order they were set). A cancelled timer
/// stays until it reaches the top, where the next `add` or look at the top drops it, or until
/// cancelled ones have doubled the heap since it was last swept.
struct TimerHeap {
    /// A timer in the heap: the action itself, ordered by its date.
    private struct Entry: HeapElement {
        let timer: ScheduledAction
        func precedes(_ other: Entry) -> Bool { timer.precedes(other.timer) }
    }

    private var heap = MinHeap<Entry>()
    private var sequence: UInt64 = 0
    /// The size past which the heap is swept of cancelled timers.
    private var sweepAbove = 1024

    /// Timers held, cancelled ones not yet dropped included.
    var count: Int { heap.count }

    /// Timers neither cancelled nor run; counted one by one.
    var pendingCount: Int { heap.elements.count { !$0.timer.isCancelledOrDone } }
    /// Whether an action waits to run at `date`.
    func isPending(at date: Date) -> Bool { heap.elements.contains { !$0.timer.isCancelledOrDone && $0.timer.date == date } }

    mutating func add(at date: Date, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        // Cancelled timers at the top go now, not at their dates: a request's deadline is
        // cancelled by its answer, so one request after another would otherwise pile them up
        // until the next sweep, at the cost of every push.
        dropCancelledTop()
        sequence += 1
        let timer = ScheduledAction(date: date, sequence: sequence, action: action)
        heap.push(Entry(timer: timer))
        if heap.count > sweepAbove {
            heap.removeAll { $0.timer.isCancelledOrDone }
            sweepAbove = max(1024, 2 * heap.count)
        }
        return timer
    }

    /// The earliest timer not cancelled, if any.
    mutating func first() -> ScheduledAction? {
        dropCancelledTop()
        return heap.first?.timer
    }

    /// Takes the earliest timer not cancelled, if it is due at `date`.
    mutating func popFirst(dueBy date: Date) -> ScheduledAction? {
        guard let first = first(), first.date <= date else { return nil }
        heap.popFirst()
        return first
    }

    private mutating func dropCancelledTop() {
        while let first = heap.first, first.timer.isCancelledOrDone { heap.popFirst() }
    }
}
