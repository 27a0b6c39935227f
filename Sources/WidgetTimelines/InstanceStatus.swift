import FoundationEssentials
import WidgetWire

/// What an instance shows and what comes next.
public struct InstanceStatus: Sendable, Equatable {
    public enum Phase: String, Sendable {
        /// No timeline yet, or none of its entries' dates has come: the placeholder shows.
        case loading
        /// An entry shows.
        case showing
        /// The bundle that provides its kind is not loaded; its configuration is kept.
        case bundleMissing
    }

    public var phase: Phase
    /// The entry shown: the latest whose date has come, of the latest timeline that has one.
    public var entry: WireEntry?
    /// Timelines received so far.
    public var timelines: Int
    /// Why the last timeline request failed, while the entry shown is the last good one.
    public var lastFailure: String?
    /// When the next timeline will be requested (after the budget), if one is due at all.
    public var nextReload: Date?
    public var nextReloadReason: ReloadReason?
    /// When the next entry of the timeline shown takes over (no provider call), if it has one.
    public var nextEntryDate: Date?
    /// True when the budget moved the next reload later than asked.
    public var deferredByBudget: Bool
    /// Budgeted reloads in the last 24 hours.
    public var reloadsInWindow: Int
    /// True while a timeline request is under way.
    public var reloading: Bool
    /// True from an interaction (an intent being performed) until the timeline asked for after it
    /// arrives or fails: the entry may be stale, and views marked `invalidatableContent` show it.
    public var invalidated: Bool

    public init(
        phase: Phase, entry: WireEntry? = nil, timelines: Int = 0, lastFailure: String? = nil, nextReload: Date? = nil,
        nextReloadReason: ReloadReason? = nil, deferredByBudget: Bool = false, reloadsInWindow: Int = 0, reloading: Bool = false,
        invalidated: Bool = false, nextEntryDate: Date? = nil
    ) {
        self.nextEntryDate = nextEntryDate
        self.phase = phase
        self.entry = entry
        self.timelines = timelines
        self.lastFailure = lastFailure
        self.nextReload = nextReload
        self.nextReloadReason = nextReloadReason
        self.deferredByBudget = deferredByBudget
        self.reloadsInWindow = reloadsInWindow
        self.reloading = reloading
        self.invalidated = invalidated
    }

    /// When what the instance shows will next change on its own: its next entry, or its next reload.
    public var nextChange: Date? {
        switch (nextEntryDate, nextReload) {
        case (let entry?, let reload?): min(entry, reload)
        case (let entry, let reload): entry ?? reload
        }
    }
}
