import FoundationEssentials
@_spi(WidgetsInternal) import WidgetSupport

/// What the timeline engine holds, behind its one lock: every instance's record (by id, and by
/// slot for the events), the heap of events, the timer's state and the counters. Its methods run
/// with the lock held (TimelineEngine+Updates.swift).
struct EngineState {
    let budget: ReloadBudget
    var records: [String: Record] = [:]
    var slots: [Record?] = []
    var freeSlots: [Int32] = []
    var heap = MinHeap<Event>()
    var staleEvents = 0
    var stamp: UInt32 = 0
    var requestNumber: UInt64 = 0
    /// The date the clock's timer is set for, and the timer (nil while being set).
    var armedDate: Double?
    var armedToken: ScheduledAction?
    var armSequence: UInt64 = 0
    var count = TimelineEngine.Counters()

    init(budget: ReloadBudget) {
        self.budget = budget
    }
}
