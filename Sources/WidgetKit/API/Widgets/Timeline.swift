public import Foundation
public import WidgetWire

/// The sizes and shapes a widget can take; `String(describing:)` gives `"systemSmall"` and so on.
public typealias WidgetFamily = WidgetWire.WidgetFamily

/// A type that specifies the date to display a widget, and, optionally, its relevance.
public protocol TimelineEntry: SendableMetatype {
    /// The date for the system to display the widget.
    var date: Date { get }
    /// The relevance of the widget's content, for ordering in stacks. Defaults to nil.
    var relevance: TimelineEntryRelevance? { get }
}

extension TimelineEntry {
    public var relevance: TimelineEntryRelevance? { nil }
}

/// How relevant an entry is, compared with the widget's other entries.
public struct TimelineEntryRelevance: Equatable, Sendable {
    public let score: Float
    public let duration: TimeInterval

    /// `duration` 0 means the score holds until the next entry.
    public init(score: Float, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }
}

/// When the system should ask the provider for a new timeline. Dates are the earliest time, as on iOS.
public struct TimelineReloadPolicy: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case atEnd
        case after(Date)
        case never
    }
    let kind: Kind

    /// Request a new timeline after the last entry's date has passed.
    public static let atEnd = TimelineReloadPolicy(kind: .atEnd)
    /// Never request a new timeline on its own; only when asked (WidgetCenter, a configuration change).
    public static let never = TimelineReloadPolicy(kind: .never)
    /// Request a new timeline no earlier than `date`.
    public static func after(_ date: Date) -> TimelineReloadPolicy { TimelineReloadPolicy(kind: .after(date)) }

    var wire: WireReloadPolicy {
        switch kind {
        case .atEnd: .atEnd
        case .never: .never
        case .after(let date): .after(date.timeIntervalSince1970)
        }
    }
}

/// Entries to display, in date order, and when to ask for the next timeline.
public struct Timeline<EntryType: TimelineEntry> {
    public let entries: [EntryType]
    public let policy: TimelineReloadPolicy

    public init(entries: [EntryType], policy: TimelineReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}

/// What the provider is asked for: the family, whether it is a preview, and the size in points.
public struct TimelineProviderContext: Sendable {
    public let family: WidgetFamily
    /// True when the widget is shown in the gallery or as a placeholder: answer quickly, with sample data.
    public let isPreview: Bool
    public let displaySize: CGSize

    /// Apple's has no public initializer; this one is for hosts and benchmarks that call a provider
    /// directly, not for widget code.
    @_spi(Host) public init(family: WidgetFamily, isPreview: Bool, displaySize: CGSize) {
        self.family = family
        self.isPreview = isPreview
        self.displaySize = displaySize
    }
}

/// A type that advises the system when to update a widget's display.
///
/// Completions may be called after the method returns, from any thread or from a `Task`, once.
public protocol TimelineProvider: SendableMetatype {
    associatedtype Entry: TimelineEntry
    typealias Context = TimelineProviderContext

    /// Sample data, returned at once, shown redacted while the widget loads.
    func placeholder(in context: Context) -> Entry
    /// One entry for the current moment, for the gallery and transient displays.
    func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void)
    /// Entries for now and, optionally, future dates, with a reload policy.
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)
}
