public import Foundation

/// When an intent-configured widget is relevant (iOS 18, for the Smart Stack): accepted, as there
/// is no Smart Stack here to order; an entry's `relevance` still orders what surfaces show first.
public struct WidgetRelevance<Configuration>: Sendable {
    public let attributes: [WidgetRelevanceAttribute<Configuration>]
    public init(_ attributes: [WidgetRelevanceAttribute<Configuration>]) { self.attributes = attributes }
}

/// A configuration and the context it is relevant in.
public struct WidgetRelevanceAttribute<Configuration>: @unchecked Sendable {
    public let configuration: Configuration
    public let context: RelevantContext
    public init(configuration: Configuration, context: RelevantContext) {
        self.configuration = configuration
        self.context = context
    }
}

/// Where or when something is relevant.
public struct RelevantContext: Sendable {
    public enum DateKind: Sendable { case `default`, scheduled, informational }
    public static func date(_ date: Date, kind: DateKind = .default) -> RelevantContext { RelevantContext() }
    public static func date(interval: DateInterval, kind: DateKind = .default) -> RelevantContext { RelevantContext() }
    public static func date(from: Date, to: Date) -> RelevantContext { RelevantContext() }
    public static func sleep(_ kind: SleepKind) -> RelevantContext { RelevantContext() }
    public static func fitness(_ kind: FitnessKind) -> RelevantContext { RelevantContext() }
    public enum SleepKind: Sendable { case bedtime, wakeup }
    public enum FitnessKind: Sendable { case workoutActive, activityRingsIncomplete }
}
