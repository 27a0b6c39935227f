/// The configuration and content of a widget to display.
///
///     struct GameStatusWidget: Widget {
///         var body: some WidgetConfiguration {
///             StaticConfiguration(kind: "com.example.game-status", provider: GameStatusProvider()) { entry in
///                 GameStatusView(entry.gameStatus)
///             }
///             .configurationDisplayName("Game Status")
///         }
///     }
public protocol Widget {
    associatedtype Body: WidgetConfiguration
    init()
    var body: Body { get }

    /// The widgets this value declares, in order. A single widget declares itself; a bundle's body
    /// declares each widget it lists.
    func _definitions() -> [_WidgetDefinition]
}

extension Widget {
    public func _definitions() -> [_WidgetDefinition] { body._definitions() }
}

/// A container used to expose several widgets from one widget bundle.
///
/// On Linux a bundle is exported with one line instead of `@main` (see `exportWidgetBundle`).
public protocol WidgetBundle {
    associatedtype Body: Widget
    init()
    @WidgetBundleBuilder var body: Body { get }
}

/// A type that describes a widget's content and how it is configured.
public protocol WidgetConfiguration {
    /// The widgets this configuration declares.
    func _definitions() -> [_WidgetDefinition]
}

// MARK: - Bundle builder

/// Builds a bundle's list of widgets: any number of widgets, `if`/`else`, and other bundles' bodies,
/// in the order written.
@resultBuilder
public enum WidgetBundleBuilder {
    public static func buildExpression<W: Widget>(_ widget: W) -> W {
        WidgetTypes.note(widget)
        return widget
    }
    /// A control (iOS 18) in the bundle, registered with the host as a Control.
    public static func buildExpression<C: ControlWidget>(_ control: C) -> _WidgetList { _WidgetList([control.body._controlDefinition()]) }
    public static func buildBlock() -> _WidgetList { _WidgetList([]) }
    public static func buildBlock<each W: Widget>(_ widget: repeat each W) -> _WidgetList {
        var definitions: [_WidgetDefinition] = []
        for element in repeat each widget { definitions += element._definitions() }
        return _WidgetList(definitions)
    }
    // Every block builds a `_WidgetList`, so the branches need no generic parameters to infer.
    public static func buildOptional(_ widgets: _WidgetList?) -> _WidgetList { widgets ?? _WidgetList([]) }
    public static func buildEither(first widgets: _WidgetList) -> _WidgetList { widgets }
    public static func buildEither(second widgets: _WidgetList) -> _WidgetList { widgets }
    public static func buildLimitedAvailability(_ widgets: _WidgetList) -> _WidgetList { widgets }
}

/// The widgets a `WidgetBundleBuilder` collected. Not constructed by authors.
public struct _WidgetList: Widget {
    let definitions: [_WidgetDefinition]
    init(_ definitions: [_WidgetDefinition]) { self.definitions = definitions }
    public init() { definitions = [] }
    public var body: _WidgetListConfiguration { _WidgetListConfiguration(definitions: definitions) }
    public func _definitions() -> [_WidgetDefinition] { definitions }
}

/// A configuration that declares no widget: for a bundle's widget that is not offered on some
/// systems (`if #available(…) { … } else { EmptyWidgetConfiguration() }`).
public struct EmptyWidgetConfiguration: WidgetConfiguration, Sendable {
    public init() {}
    public func _definitions() -> [_WidgetDefinition] { [] }
}

public struct _WidgetListConfiguration: WidgetConfiguration {
    let definitions: [_WidgetDefinition]
    public func _definitions() -> [_WidgetDefinition] { definitions }
}

// MARK: - Configuration modifiers

extension WidgetConfiguration {
    /// The name shown for the widget in the gallery and in `widgets list`.
    @_disfavoredOverload
    public func configurationDisplayName(_ displayName: String) -> some WidgetConfiguration {
        _ModifiedConfiguration(base: self) { $0.displayName = displayName }
    }

    /// The description shown for the widget in the gallery and in `widgets list`.
    @_disfavoredOverload
    public func description(_ description: String) -> some WidgetConfiguration {
        _ModifiedConfiguration(base: self) { $0.description = description }
    }

    /// The families the widget supports. When never called: the system families.
    public func supportedFamilies(_ families: [WidgetFamily]) -> some WidgetConfiguration {
        _ModifiedConfiguration(base: self) { $0.families = families }
    }

    /// Lets the content reach the widget's edges instead of sitting inside the system's margins.
    public func contentMarginsDisabled() -> some WidgetConfiguration {
        _ModifiedConfiguration(base: self) { $0.contentMarginsDisabled = true }
    }

    public func configurationDisplayName(_ displayName: Text) -> some WidgetConfiguration { configurationDisplayName(displayName.plainText) }
    public func configurationDisplayName(_ displayName: LocalizedStringKey) -> some WidgetConfiguration {
        configurationDisplayName(Text(displayName).plainText)
    }
    @_disfavoredOverload
    public func configurationDisplayName(_ displayName: LocalizedStringResource) -> some WidgetConfiguration { configurationDisplayName(displayName.text) }
    public func description(_ description: Text) -> some WidgetConfiguration { self.description(description.plainText) }
    public func description(_ description: LocalizedStringKey) -> some WidgetConfiguration { self.description(Text(description).plainText) }
    @_disfavoredOverload
    public func description(_ description: LocalizedStringResource) -> some WidgetConfiguration { self.description(description.text) }

    /// Places the widget should not be suggested in; no effect here.
    public func disfavoredLocations(_ locations: [WidgetLocation], for families: [WidgetFamily]) -> some WidgetConfiguration { self }
    /// Whether the system may remove the container background; no effect here.
    public func containerBackgroundRemovable(_ isRemovable: Bool = true) -> some WidgetConfiguration { self }
    /// Whether a new instance asks to be configured first; no effect here.
    public func promptsForUserConfiguration() -> some WidgetConfiguration { self }
    public func onBackgroundURLSessionEvents(matching matchingString: String? = nil, _ urlSessionEvent: @escaping (String, @escaping () -> Void) -> Void) -> some WidgetConfiguration { self }
    /// The handler of the widget's push updates (iOS 26): Apple's push service does not reach
    /// Linux, so no token comes; an app reloads the widget through `WidgetCenter` (or `widgets
    /// reload`) instead.
    public func pushHandler<H: WidgetPushHandler>(_ handler: H.Type) -> some WidgetConfiguration { self }
}

/// Receives a widget's push token (iOS 26); never called here (see `pushHandler(_:)`).
public protocol WidgetPushHandler {
    init()
    func pushTokenDidChange(_ pushInfo: WidgetPushInfo, widgets: [WidgetInfo])
}

/// A widget's push token.
public struct WidgetPushInfo: Sendable {
    public let token: Data
}

/// Where a widget can be shown.
public struct WidgetLocation: Hashable, Sendable {
    let name: String
    public static let homeScreen = WidgetLocation(name: "homeScreen")
    public static let lockScreen = WidgetLocation(name: "lockScreen")
    public static let standBy = WidgetLocation(name: "standBy")
    public static let iPhoneWidgetsOnMac = WidgetLocation(name: "iPhoneWidgetsOnMac")
}

struct _ModifiedConfiguration<Base: WidgetConfiguration>: WidgetConfiguration {
    let base: Base
    let modify: (inout _WidgetDefinition) -> Void

    func _definitions() -> [_WidgetDefinition] {
        base._definitions().map { definition in
            var definition = definition
            modify(&definition)
            return definition
        }
    }
}
