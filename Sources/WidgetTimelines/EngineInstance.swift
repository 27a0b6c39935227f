import FoundationEssentials
import WidgetWire

/// A placed widget as the engine hosts it.
public struct EngineInstance: Sendable, Equatable {
    public let id: String
    public let kind: String
    public let family: WidgetFamily
    /// The configuration as the provider receives it (JSON text).
    public let configuration: String

    public init(id: String, kind: String, family: WidgetFamily, configuration: String = "{}") {
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
    }
}

/// A provider's timeline, as the engine keeps it.
public struct FetchedTimeline: Sendable, Equatable {
    public var entries: [WireEntry]
    public var policy: WireReloadPolicy

    public init(entries: [WireEntry], policy: WireReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}

/// Why a timeline request failed, in one line.
public struct TimelineFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
