import Foundation

// Live Activities (ActivityKit), which Xcode's widget-extension template puts beside the widget in
// every bundle: its `ActivityConfiguration` with the Lock Screen view and the Dynamic Island's
// regions. A bundle with one compiles unchanged, with Apple's names and signatures, and its widgets
// are listed and run as ever; the activity itself is not shown anywhere yet (no surface of this
// host draws a Live Activity, and `Activity.request` says so), as docs/PORTING.md says.

/// What an activity is about: fixed attributes, and its `ContentState`, which updates change.
public protocol ActivityAttributes: Decodable, Encodable {
    associatedtype ContentState: Decodable, Encodable, Hashable
}

/// An activity's content: its state, when it turns stale, and how relevant it is among others.
public struct ActivityContent<State: Decodable & Encodable & Hashable>: Equatable, Hashable {
    public var state: State
    public var staleDate: Date?
    public var relevanceScore: Double

    public init(state: State, staleDate: Date?, relevanceScore: Double = 0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// Where an activity is in its life.
public enum ActivityState: Equatable, Hashable, Sendable {
    case active, ended, dismissed, stale, pending
}

/// When an ended activity leaves the Lock Screen.
public struct ActivityUIDismissalPolicy: Equatable, Hashable, Sendable {
    let after: Date?
    let immediately: Bool
    public static let `default` = ActivityUIDismissalPolicy(after: nil, immediately: false)
    public static let immediate = ActivityUIDismissalPolicy(after: nil, immediately: true)
    public static func after(_ date: Date) -> ActivityUIDismissalPolicy { ActivityUIDismissalPolicy(after: date, immediately: false) }
}

/// How an activity's updates arrive by push (none arrive here).
public enum PushType: Equatable, Hashable, Sendable {
    case token
    case channel(String)
}

/// Why an activity was not started.
public enum ActivityAuthorizationError: Error, LocalizedError, Equatable, Sendable {
    case attributesTooLarge, denied, globalMaximumExceeded, malformedActivityIdentifier, missingProcessIdentifier
    case persistenceFailure, reconnectNotPermitted, targetMaximumExceeded, unentitled, unsupported, unsupportedTarget, visibility

    public var errorDescription: String? {
        switch self {
        case .unsupported: "Live Activities are not shown by this widget host (Linux): the activity was not started"
        default: "the activity was not started (\(self))"
        }
    }
}

/// Whether this device shows Live Activities: not this host, yet.
public struct ActivityAuthorizationInfo: Sendable {
    public init() {}
    public var areActivitiesEnabled: Bool { false }
    public var frequentPushesEnabled: Bool { false }
    public var activityEnablementUpdates: AsyncStream<Bool> { AsyncStream { $0.finish() } }
    public var frequentPushEnablementUpdates: AsyncStream<Bool> { AsyncStream { $0.finish() } }
}

/// A Live Activity, as an app starts, updates and ends it. None starts here: `request` throws
/// `ActivityAuthorizationError.unsupported`, and `activities` is empty.
public final class Activity<Attributes: ActivityAttributes>: Identifiable, @unchecked Sendable {
    public typealias ContentState = Attributes.ContentState
    public let id: String
    public let attributes: Attributes
    public private(set) var content: ActivityContent<Attributes.ContentState>
    public private(set) var activityState: ActivityState = .ended
    public var pushToken: Data? { nil }
    public static var pushToStartToken: Data? { nil }
    public static var pushToStartTokenUpdates: AsyncStream<Data> { AsyncStream { $0.finish() } }
    /// The state as iOS 16.1's API named it.
    public var contentState: Attributes.ContentState { content.state }
    public var pushTokenUpdates: AsyncStream<Data> { AsyncStream { $0.finish() } }
    public var activityStateUpdates: AsyncStream<ActivityState> { AsyncStream { $0.finish() } }
    public var contentUpdates: AsyncStream<ActivityContent<Attributes.ContentState>> { AsyncStream { $0.finish() } }

    init(attributes: Attributes, content: ActivityContent<Attributes.ContentState>) {
        id = UUID().uuidString
        self.attributes = attributes
        self.content = content
    }

    /// The activities of this type the app has started: none here.
    public static var activities: [Activity<Attributes>] { [] }
    public static var activityUpdates: AsyncStream<Activity<Attributes>> { AsyncStream { $0.finish() } }

    public static func request(
        attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        throw ActivityAuthorizationError.unsupported
    }

    public static func request(
        attributes: Attributes, contentState: Attributes.ContentState, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        throw ActivityAuthorizationError.unsupported
    }

    public static func request(
        attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil, style: ActivityStyle
    ) throws -> Activity<Attributes> {
        throw ActivityAuthorizationError.unsupported
    }

    public func update(_ content: ActivityContent<Attributes.ContentState>) async { self.content = content }
    public func update(_ content: ActivityContent<Attributes.ContentState>, alertConfiguration: AlertConfiguration?) async { self.content = content }
    public func update(_ content: ActivityContent<Attributes.ContentState>, alertConfiguration: AlertConfiguration? = nil, timestamp: Date) async {
        self.content = content
    }
    public func update(using contentState: Attributes.ContentState) async { content.state = contentState }
    public func update(using contentState: Attributes.ContentState, alertConfiguration: AlertConfiguration?) async { content.state = contentState }

    public func end(_ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        if let content { self.content = content }
        activityState = .ended
    }
    public func end(
        _ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default, timestamp: Date
    ) async {
        if let content { self.content = content }
        activityState = .ended
    }
    public func end(using contentState: Attributes.ContentState? = nil, dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        if let contentState { content.state = contentState }
        activityState = .ended
    }
}

/// How long an activity stays (iOS 18): standard, or transient (the Dynamic Island only).
public enum ActivityStyle: Hashable, Sendable {
    case standard, transient
}

/// An alert an update may raise on the device (none here).
public struct AlertConfiguration: Sendable {
    public struct AlertSound: Sendable {
        public static let `default` = AlertSound()
        public static func named(_ name: String) -> AlertSound { AlertSound() }
    }
    public init(title: LocalizedStringResource, body: LocalizedStringResource, sound: AlertSound) {}
}

/// What an activity's views are built from: its attributes, its state, whether it is stale.
public struct ActivityViewContext<Attributes: ActivityAttributes> {
    public let attributes: Attributes
    public let state: Attributes.ContentState
    public let isStale: Bool
    public let activityID: String
}

/// A Live Activity's configuration: its Lock Screen view and its Dynamic Island. It declares no
/// widget: the bundle's widgets are registered, the activity is accepted and not shown.
public struct ActivityConfiguration<Attributes: ActivityAttributes>: WidgetConfiguration {
    public init<Content: View>(
        for attributesType: Attributes.Type, @ViewBuilder content: @escaping (ActivityViewContext<Attributes>) -> Content,
        dynamicIsland: @escaping (ActivityViewContext<Attributes>) -> DynamicIsland
    ) {}

    public func _definitions() -> [_WidgetDefinition] { [] }
}

extension WidgetConfiguration {
    /// The families a Live Activity also shows in (the Apple Watch's Smart Stack, CarPlay).
    public func supplementalActivityFamilies(_ families: [ActivityFamily]) -> some WidgetConfiguration { self }
}

extension EnvironmentValues {
    /// The family an activity is drawn in (iOS 18): medium, the Lock Screen's, here.
    public var activityFamily: ActivityFamily { .medium }
    /// Whether the activity fills the screen (StandBy): never here.
    public var isActivityFullscreen: Bool { false }
}

/// Where else an activity may show (iOS 18).
public enum ActivityFamily: Hashable, Sendable {
    case small, medium
}

/// The Dynamic Island's presentations of an activity: expanded regions, compact leading and
/// trailing views, and the minimal one.
public struct DynamicIsland {
    public init<Expanded: View, CompactLeading: View, CompactTrailing: View, Minimal: View>(
        @DynamicIslandExpandedContentBuilder expanded: () -> DynamicIslandExpandedContent<Expanded>,
        @ViewBuilder compactLeading: () -> CompactLeading, @ViewBuilder compactTrailing: () -> CompactTrailing,
        @ViewBuilder minimal: () -> Minimal
    ) {}

    /// The tint of the island's outline.
    public func keylineTint(_ color: Color?) -> DynamicIsland { self }
    public func widgetURL(_ url: URL?) -> DynamicIsland { self }
    public func contentMargins(_ edges: Edge.Set = .all, _ length: CGFloat? = nil, for mode: DynamicIslandMode) -> DynamicIsland { self }
}

/// How the Dynamic Island shows an activity.
public enum DynamicIslandMode: Hashable, Sendable {
    case compact, minimal, expanded
}

/// A region of the expanded Dynamic Island.
public struct DynamicIslandExpandedRegionPosition: Hashable, Sendable {
    let name: String
    public static let leading = DynamicIslandExpandedRegionPosition(name: "leading")
    public static let trailing = DynamicIslandExpandedRegionPosition(name: "trailing")
    public static let center = DynamicIslandExpandedRegionPosition(name: "center")
    public static let bottom = DynamicIslandExpandedRegionPosition(name: "bottom")
}

/// A view in a region of the expanded Dynamic Island.
public struct DynamicIslandExpandedRegion<Content: View> {
    public init(_ position: DynamicIslandExpandedRegionPosition, priority: Double = 0, @ViewBuilder content: () -> Content) {}

    public func contentMargins(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> DynamicIslandExpandedRegion<Content> { self }
}

/// The expanded Dynamic Island's regions.
public struct DynamicIslandExpandedContent<Content: View> {
    init() {}
}

@resultBuilder
public enum DynamicIslandExpandedContentBuilder {
    public static func buildExpression<Content: View>(_ region: DynamicIslandExpandedRegion<Content>) -> DynamicIslandExpandedContent<EmptyView> {
        DynamicIslandExpandedContent()
    }
    /// The regions another builder function made (`@DynamicIslandExpandedContentBuilder func …`).
    public static func buildExpression<Content: View>(_ content: DynamicIslandExpandedContent<Content>) -> DynamicIslandExpandedContent<EmptyView> {
        DynamicIslandExpandedContent()
    }
    public static func buildBlock(_ regions: DynamicIslandExpandedContent<EmptyView>...) -> DynamicIslandExpandedContent<EmptyView> {
        DynamicIslandExpandedContent()
    }
    public static func buildOptional(_ region: DynamicIslandExpandedContent<EmptyView>?) -> DynamicIslandExpandedContent<EmptyView> {
        DynamicIslandExpandedContent()
    }
    public static func buildEither(first: DynamicIslandExpandedContent<EmptyView>) -> DynamicIslandExpandedContent<EmptyView> { first }
    public static func buildEither(second: DynamicIslandExpandedContent<EmptyView>) -> DynamicIslandExpandedContent<EmptyView> { second }
    public static func buildLimitedAvailability(_ region: DynamicIslandExpandedContent<EmptyView>) -> DynamicIslandExpandedContent<EmptyView> {
        region
    }
}

/// Where the expanded Dynamic Island's view sits against the TrueDepth camera.
public struct DynamicIslandExpandedRegionVerticalPlacement: Hashable, Sendable {
    public static let belowIfTooWide = DynamicIslandExpandedRegionVerticalPlacement()
}

extension View {
    /// Where the view sits in the expanded Dynamic Island.
    public func dynamicIsland(verticalPlacement: DynamicIslandExpandedRegionVerticalPlacement) -> some View { unchanged }
    /// The background of the activity's Lock Screen presentation.
    public func activityBackgroundTint(_ color: Color?) -> some View { unchanged }
    /// The colour of the system's action button beside the activity on the Lock Screen.
    public func activitySystemActionForegroundColor(_ color: Color?) -> some View { unchanged }
}

/// What a Live Activity's `#Preview` shows: its Lock Screen content or a Dynamic Island mode.
public enum ActivityPreviewViewKind: Hashable, Sendable {
    case content
    case dynamicIsland(DynamicIslandMode)
}

/// The states a Live Activity's `#Preview` steps through.
@resultBuilder
public enum ActivityPreviewContentStateBuilder<State> {
    public static func buildExpression(_ state: State) -> [State] { [state] }
    public static func buildBlock(_ states: [State]...) -> [State] { states.flatMap { $0 } }
    public static func buildOptional(_ states: [State]?) -> [State] { states ?? [] }
    public static func buildEither(first: [State]) -> [State] { first }
    public static func buildEither(second: [State]) -> [State] { second }
    public static func buildArray(_ states: [[State]]) -> [State] { states.flatMap { $0 } }
}

/// A Live Activity's preview (Xcode's canvas for the Lock Screen or the Dynamic Island): accepted
/// and not drawn, as the activity is not.
@freestanding(declaration)
public macro Preview<Attributes: ActivityAttributes, W: Widget>(
    _ name: String? = nil, as viewKind: ActivityPreviewViewKind, using attributes: Attributes, widget: () -> W,
    @ActivityPreviewContentStateBuilder<Attributes.ContentState> contentStates: @escaping () -> [Attributes.ContentState]
) = #externalMacro(module: "WidgetKitMacros", type: "ActivityPreviewMacro")

/// A Live Activity's preview of the contents written.
@freestanding(declaration)
public macro Preview<Attributes: ActivityAttributes, W: Widget>(
    _ name: String? = nil, as viewKind: ActivityPreviewViewKind, using attributes: Attributes, widget: () -> W,
    @ActivityPreviewContentStateBuilder<ActivityContent<Attributes.ContentState>> contents: @escaping () -> [ActivityContent<Attributes.ContentState>]
) = #externalMacro(module: "WidgetKitMacros", type: "ActivityPreviewMacro")
