import FoundationEssentials
import WidgetABI
import WidgetWire

/// A validated answer: dates in order, a well-formed policy for timelines.
public struct ProviderResult: Sendable {
    public let kind: String
    public let requestKind: RequestKind
    public let family: WidgetFamily
    public let entries: [WireEntry]
    /// Present for timelines.
    public let policy: WireReloadPolicy?
    /// What the host corrected and the author should know (e.g. entries sorted by date).
    public let notes: [String]
    /// For options and recommendations: the answer, checked to be a JSON object (no entries).
    public let payload: JSONValue?
    /// For previews: the author's previews, checked.
    public let previews: [WirePreview]

    init(
        kind: String, requestKind: RequestKind, family: WidgetFamily, entries: [WireEntry], policy: WireReloadPolicy?,
        notes: [String], payload: JSONValue? = nil, previews: [WirePreview] = []
    ) {
        self.kind = kind
        self.requestKind = requestKind
        self.family = family
        self.entries = entries
        self.policy = policy
        self.notes = notes
        self.payload = payload
        self.previews = previews
    }

    /// The entry shown at `date`: the latest whose date has come, else (all are later) the first.
    /// Validation guarantees at least one entry.
    public func entry(at date: Date) -> WireEntry {
        entries.last { $0.date <= date.timeIntervalSince1970 } ?? entries[0]
    }
}
