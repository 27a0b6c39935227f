import Foundation
public import WidgetWire

extension View {
    /// Shows the view redacted: `.placeholder` draws text as grey bars, as iOS does while loading.
    public func redacted(reason: RedactionReasons) -> some View {
        wire("redacted", reason.contains(.placeholder) ? .string("placeholder") : (reason.contains(.privacy) ? .string("privacy") : .null))
    }

    /// Shows the view unredacted inside a redacted one (drawn as its container is, here).
    public func unredacted() -> some View { wire("redacted", .null) }

    /// Marks the view as private data: redacted where widgets show on a locked screen.
    public func privacySensitive(_ sensitive: Bool = true) -> some View { wire("privacySensitive", .bool(sensitive)) }

    /// The widget's background (iOS 17), drawn by the system behind the content and removed where
    /// the system shows the widget without one.
    public func containerBackground<S: ShapeStyle>(_ style: S, for placement: ContainerBackgroundPlacement) -> some View {
        wire("containerBackground", style._paint)
    }

    /// The widget's background as a view: its colour or gradient when it is one (a `Color`, a
    /// gradient, a shape filled with one), else its first such layer.
    public func containerBackground<V: View>(for placement: ContainerBackgroundPlacement, alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        let nodes = content()._resolve(in: EnvironmentValues.current)
        return wire("containerBackground", Self.paint(of: nodes) ?? .string("clear"))
    }

    /// The first fill among the nodes, depth first.
    static func paint(of nodes: [ViewNode]) -> JSONValue? {
        for node in nodes {
            if node.view == "shape", let fill = node["fill"] { return fill }
            if let background = node.modifier("background") { return background }
            if let found = paint(of: node.children) { return found }
        }
        return nil
    }

    /// Whether the view takes the accent colour when the widget is shown in accented mode.
    public func widgetAccentable(_ accentable: Bool = true) -> some View { wire("widgetAccentable", .bool(accentable)) }

    /// Marks content that goes stale after an interaction until the widget reloads.
    public func invalidatableContent(_ invalidatable: Bool = true) -> some View { wire("invalidatableContent", .bool(invalidatable)) }

    /// A label for an accessory widget's corner (drawn under the content here).
    public func widgetLabel<Label: View>(@ViewBuilder label: () -> Label) -> some View {
        _LabelledView(content: self, label: label())
    }

    @_disfavoredOverload
    public func widgetLabel<S: StringProtocol>(_ label: S) -> some View { _LabelledView(content: self, label: Text(label)) }
    public func widgetLabel(_ label: LocalizedStringKey) -> some View { _LabelledView(content: self, label: Text(label)) }
}

/// A view with a widget label under it.
public struct _LabelledView<Content: View, Label: View>: _PrimitiveView {
    let content: Content
    let label: Label

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        [ViewNode("vstack", children: content._resolve(in: environment) + label._resolve(in: environment))]
    }
}

/// Where a container background goes; widgets have one placement.
public struct ContainerBackgroundPlacement: Hashable, Sendable {
    let name: String
    /// The widget's background.
    public static let widget = ContainerBackgroundPlacement(name: "widget")
}

/// A translucent backdrop for an accessory widget on the Lock Screen, as the system draws behind
/// complications.
public struct AccessoryWidgetBackground: _PrimitiveView {
    public init() {}
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ShapeNode.node("containerRelative", fill: .string("gray/0.3"))] }
}
