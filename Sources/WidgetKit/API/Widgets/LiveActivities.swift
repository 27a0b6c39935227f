import Foundation
import WidgetWire

// Live Activities (ActivityKit), which Xcode's widget-extension template puts beside the widget in
// every bundle: its `ActivityConfiguration` with the Lock Screen view and the Dynamic Island's
// regions, with Apple's names and signatures. The bundle registers each configuration with the host
// (ABI 1.7, by its attributes type's name) and draws an activity's presentations when the host asks;
// an app starts, updates and ends activities through the running host (`Activity.request`), which
// keeps them (docs/ACTIVITIES.md).

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

    public var errorDescription: String? { "the activity was not started (\(self))" }
}

/// Why the host did not start, update or list an activity: no host running, a type no bundle
/// draws, attributes the bundle cannot read (named), in one line.
public struct ActivityHostError: Error, LocalizedError, CustomStringConvertible, Sendable {
    public let description: String
    public var errorDescription: String? { description }
}

/// Whether this device shows Live Activities: whether a widget host runs for this user.
public struct ActivityAuthorizationInfo: Sendable {
    public init() {}
    public var areActivitiesEnabled: Bool { (try? ActivityHost.send(.activities(type: nil))) != nil }
    public var frequentPushesEnabled: Bool { false }
    public var activityEnablementUpdates: AsyncStream<Bool> { AsyncStream { $0.finish() } }
    public var frequentPushEnablementUpdates: AsyncStream<Bool> { AsyncStream { $0.finish() } }
}

/// The running host, as activities reach it: its control socket.
enum ActivityHost {
    static func send(_ request: ControlRequest) throws(ActivityHostError) -> ControlAnswer {
        let answer: ControlAnswer
        do {
            answer = try ControlClient(path: ControlSocket.path()).send(request)
        } catch {
            throw ActivityHostError(description: "\(error)")
        }
        if case .refused(let reason) = answer { throw ActivityHostError(description: reason) }
        return answer
    }

    static func record(_ request: ControlRequest) throws(ActivityHostError) -> ActivityRecord {
        guard case .activity(let record) = try send(request) else { throw ActivityHostError(description: "the host answered no activity") }
        return record
    }

    static func content<State: Encodable>(
        _ state: State, staleDate: Date?, relevance: Double
    ) throws(ActivityHostError) -> ControlRequest.ActivityContentValue {
        do {
            return ControlRequest.ActivityContentValue(
                state: try ActivityCoding.encode(state), staleDate: staleDate?.timeIntervalSince1970, relevance: relevance)
        } catch {
            throw ActivityHostError(description: "the activity's content state does not encode: \(error)")
        }
    }
}

/// A Live Activity, as an app starts, updates and ends it: kept by the running host (`widgets
/// run`), drawn by the bundle whose `ActivityConfiguration` is for `Attributes`, shown on the home
/// screen page, the desktop, as a notification and in bars (docs/ACTIVITIES.md).
///
/// Linux differences: updates and ends reach the host at once, from the calling thread, and what
/// the host refuses is written to standard error (iOS's `update` and `end` report nothing).
public final class Activity<Attributes: ActivityAttributes>: Identifiable, @unchecked Sendable {
    public typealias ContentState = Attributes.ContentState
    public let id: String
    public let attributes: Attributes
    public private(set) var content: ActivityContent<Attributes.ContentState>
    public private(set) var activityState: ActivityState
    public var pushToken: Data? { nil }
    public static var pushToStartToken: Data? { nil }
    public static var pushToStartTokenUpdates: AsyncStream<Data> { AsyncStream { $0.finish() } }
    /// The state as iOS 16.1's API named it.
    public var contentState: Attributes.ContentState { content.state }
    public var pushTokenUpdates: AsyncStream<Data> { AsyncStream { $0.finish() } }
    public var activityStateUpdates: AsyncStream<ActivityState> { AsyncStream { $0.finish() } }
    public var contentUpdates: AsyncStream<ActivityContent<Attributes.ContentState>> { AsyncStream { $0.finish() } }

    init(id: String, attributes: Attributes, content: ActivityContent<Attributes.ContentState>, state: ActivityState) {
        self.id = id
        self.attributes = attributes
        self.content = content
        activityState = state
    }

    /// The activities of this type the host keeps (ended ones until they are dismissed); none when
    /// no host runs.
    public static var activities: [Activity<Attributes>] {
        guard case .activities(let records)? = try? ActivityHost.send(.activities(type: ActivityTypeName.of(Attributes.self))) else { return [] }
        return records.compactMap { record in
            guard let attributes = try? ActivityCoding.decode(Attributes.self, from: record.attributes, what: "attributes"),
                let state = try? ActivityCoding.decode(ContentState.self, from: record.state, what: "content state")
            else { return nil }
            let content = ActivityContent(
                state: state, staleDate: record.staleDate.map(Date.init(timeIntervalSince1970:)), relevanceScore: record.relevance)
            return Activity(id: record.id, attributes: attributes, content: content, state: ActivityState(record.phase))
        }
    }
    public static var activityUpdates: AsyncStream<Activity<Attributes>> { AsyncStream { $0.finish() } }

    public static func request(
        attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        let encoded: JSONValue
        do { encoded = try ActivityCoding.encode(attributes) } catch { throw ActivityHostError(description: "the activity's attributes do not encode: \(error)") }
        let record = try ActivityHost.record(
            .activityStart(
                type: ActivityTypeName.of(Attributes.self), attributes: encoded,
                content: try ActivityHost.content(content.state, staleDate: content.staleDate, relevance: content.relevanceScore)))
        return Activity(id: record.id, attributes: attributes, content: content, state: ActivityState(record.phase))
    }

    public static func request(
        attributes: Attributes, contentState: Attributes.ContentState, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        try request(attributes: attributes, content: ActivityContent(state: contentState, staleDate: nil), pushType: pushType)
    }

    public static func request(
        attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil, style: ActivityStyle
    ) throws -> Activity<Attributes> {
        try request(attributes: attributes, content: content, pushType: pushType)
    }

    public func update(_ content: ActivityContent<Attributes.ContentState>) async { send(content) }
    public func update(_ content: ActivityContent<Attributes.ContentState>, alertConfiguration: AlertConfiguration?) async { send(content) }
    public func update(_ content: ActivityContent<Attributes.ContentState>, alertConfiguration: AlertConfiguration? = nil, timestamp: Date) async {
        send(content)
    }
    public func update(using contentState: Attributes.ContentState) async { send(ActivityContent(state: contentState, staleDate: content.staleDate, relevanceScore: content.relevanceScore)) }
    public func update(using contentState: Attributes.ContentState, alertConfiguration: AlertConfiguration?) async {
        send(ActivityContent(state: contentState, staleDate: content.staleDate, relevanceScore: content.relevanceScore))
    }

    public func end(_ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        finish(content, dismissalPolicy)
    }
    public func end(
        _ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default, timestamp: Date
    ) async {
        finish(content, dismissalPolicy)
    }
    public func end(using contentState: Attributes.ContentState? = nil, dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        finish(contentState.map { ActivityContent(state: $0, staleDate: content.staleDate, relevanceScore: content.relevanceScore) }, dismissalPolicy)
    }

    private func send(_ content: ActivityContent<Attributes.ContentState>) {
        do {
            let record = try ActivityHost.record(
                .activityUpdate(id: id, content: try ActivityHost.content(content.state, staleDate: content.staleDate, relevance: content.relevanceScore)))
            self.content = content
            activityState = ActivityState(record.phase)
        } catch {
            FileHandle.standardError.write(Data("ActivityKit: activity \(id) not updated: \(error)\n".utf8))
        }
    }

    private func finish(_ content: ActivityContent<Attributes.ContentState>?, _ policy: ActivityUIDismissalPolicy) {
        let dismissal: ActivityDismissal = policy.immediately ? .immediate : policy.after.map { .after($0.timeIntervalSince1970) } ?? .default
        do {
            let value = try content.map { content throws(ActivityHostError) in
                try ActivityHost.content(content.state, staleDate: content.staleDate, relevance: content.relevanceScore)
            }
            let record = try ActivityHost.record(.activityEnd(id: id, content: value, dismissal: dismissal))
            if let content { self.content = content }
            activityState = ActivityState(record.phase)
        } catch {
            FileHandle.standardError.write(Data("ActivityKit: activity \(id) not ended: \(error)\n".utf8))
        }
    }
}

extension ActivityState {
    init(_ phase: ActivityRecord.Phase) {
        switch phase {
        case .active: self = .active
        case .stale: self = .stale
        case .ended: self = .ended
        case .dismissed: self = .dismissed
        }
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

    /// The context of an activity request: its attributes and state decoded as the app's
    /// `JSONEncoder` wrote them. A member that does not decode is named.
    init(request configuration: String) throws(ActivityDecodingError) {
        let value: JSONValue
        do { value = try JSONValue.parse(Array(configuration.utf8)) } catch { throw ActivityDecodingError(text: "the activity is not JSON: \(error)") }
        attributes = try ActivityCoding.decode(Attributes.self, from: value["attributes"] ?? .null, what: "attributes")
        state = try ActivityCoding.decode(Attributes.ContentState.self, from: value["state"] ?? .null, what: "content state")
        isStale = value["isStale"]?.boolValue ?? false
        activityID = value["id"]?.stringValue ?? ""
    }
}

/// A Live Activity's configuration: its Lock Screen view and its Dynamic Island. Registered with the
/// host by its attributes type's name (`String(describing: Attributes.self)`), which is the type an
/// app's `Activity<Attributes>.request` and `widgets activity start TYPE` name.
public struct ActivityConfiguration<Attributes: ActivityAttributes>: WidgetConfiguration {
    var definition: _WidgetDefinition

    public init<Content: View>(
        for attributesType: Attributes.Type, @ViewBuilder content: @escaping (ActivityViewContext<Attributes>) -> Content,
        dynamicIsland: @escaping (ActivityViewContext<Attributes>) -> DynamicIsland
    ) {
        let answer = ActivityDrawing.answer(content: content, dynamicIsland: dynamicIsland)
        definition = _WidgetDefinition(kind: ActivityTypeName.of(Attributes.self), configurationKind: .activity) { request, reply in
            guard request.kind == .activity else { return reply(.failure("a Live Activity is asked only to draw activities")) }
            reply(answer.value(request))
        }
        definition.families = [.systemMedium]
        definition.displayName = ActivityTypeName.of(Attributes.self)
    }

    public func _definitions() -> [_WidgetDefinition] { [definition] }
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
    let regions: [_IslandRegion]
    let compactLeading: _IslandView
    let compactTrailing: _IslandView
    let minimal: _IslandView
    var keyline: Color?
    var url: URL?

    public init<Expanded: View, CompactLeading: View, CompactTrailing: View, Minimal: View>(
        @DynamicIslandExpandedContentBuilder expanded: () -> DynamicIslandExpandedContent<Expanded>,
        @ViewBuilder compactLeading: () -> CompactLeading, @ViewBuilder compactTrailing: () -> CompactTrailing,
        @ViewBuilder minimal: () -> Minimal
    ) {
        regions = expanded().regions
        self.compactLeading = _IslandView(compactLeading())
        self.compactTrailing = _IslandView(compactTrailing())
        self.minimal = _IslandView(minimal())
    }

    /// The tint of the island's outline.
    public func keylineTint(_ color: Color?) -> DynamicIsland {
        var island = self
        island.keyline = color
        return island
    }
    public func widgetURL(_ url: URL?) -> DynamicIsland {
        var island = self
        island.url = url
        return island
    }
    public func contentMargins(_ edges: Edge.Set = .all, _ length: CGFloat? = nil, for mode: DynamicIslandMode) -> DynamicIsland { self }
}

/// A view of the island, kept until it is drawn in the request's environment.
struct _IslandView {
    let resolve: (EnvironmentValues) -> ViewNode
    init<V: View>(_ view: V) { resolve = { ViewResolver.root(of: view, in: $0) } }
}

/// A region of the expanded island and its view.
public struct _IslandRegion {
    let position: DynamicIslandExpandedRegionPosition
    let view: _IslandView
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
    let region: _IslandRegion

    public init(_ position: DynamicIslandExpandedRegionPosition, priority: Double = 0, @ViewBuilder content: () -> Content) {
        region = _IslandRegion(position: position, view: _IslandView(content()))
    }

    public func contentMargins(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> DynamicIslandExpandedRegion<Content> { self }
}

/// The expanded Dynamic Island's regions.
public struct DynamicIslandExpandedContent<Content: View> {
    let regions: [_IslandRegion]
    init(_ regions: [_IslandRegion] = []) { self.regions = regions }
}

@resultBuilder
public enum DynamicIslandExpandedContentBuilder {
    public static func buildExpression<Content: View>(_ region: DynamicIslandExpandedRegion<Content>) -> DynamicIslandExpandedContent<EmptyView> {
        DynamicIslandExpandedContent([region.region])
    }
    /// The regions another builder function made (`@DynamicIslandExpandedContentBuilder func …`).
    public static func buildExpression<Content: View>(_ content: DynamicIslandExpandedContent<Content>) -> DynamicIslandExpandedContent<EmptyView> {
        DynamicIslandExpandedContent(content.regions)
    }
    public static func buildBlock(_ regions: DynamicIslandExpandedContent<EmptyView>...) -> DynamicIslandExpandedContent<EmptyView> {
        DynamicIslandExpandedContent(regions.flatMap(\.regions))
    }
    public static func buildOptional(_ region: DynamicIslandExpandedContent<EmptyView>?) -> DynamicIslandExpandedContent<EmptyView> {
        region ?? DynamicIslandExpandedContent()
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
    /// The background of the activity's Lock Screen presentation (nil: the system's).
    public func activityBackgroundTint(_ color: Color?) -> some View { wire(ActivityDrawing.backgroundTint, color?.json ?? .null) }
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

extension ActivityAttributes {
    /// Xcode 14's preview of a Live Activity (`attributes.previewContext(state, viewKind: .content)`
    /// in a `PreviewProvider`): accepted and not drawn, as the activity's `#Preview` is; `widgets
    /// activity start` shows the activity itself.
    public func previewContext(_ contentState: ContentState, viewKind: ActivityPreviewViewKind) -> some View { EmptyView() }
}
