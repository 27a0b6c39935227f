import FoundationEssentials
@_spi(WidgetsInternal) import WidgetSupport
import WidgetWire

/// A reload waiting to happen: no earlier than `date`, for `reason`.
struct Pending {
    var date: Double
    var reason: ReloadReason
}

/// One instance's state. Dates are seconds since 1970.
final class Record {
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
struct Event: HeapElement {
    let due: Double
    let slot: Int32
    let stamp: UInt32

    func precedes(_ other: Event) -> Bool { due < other.due }
}
