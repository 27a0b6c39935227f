import Foundation
import WidgetWire

// Styles an author writes (`struct Pill: ButtonStyle { func makeBody(configuration:) ... }`), as
// SwiftUI's protocols have them: the style's body is drawn in place of the control's own look, and
// the control stays what it was (a button or toggle still performs its intent when tapped).

/// A view made of nodes already resolved: a control's label handed to a style's body.
public struct _ResolvedContent: _PrimitiveView {
    let nodes: [ViewNode]

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { nodes }
}

/// A custom style in the environment: its body for a configuration, resolved in an environment.
struct _CustomStyle<Configuration>: @unchecked Sendable {
    let body: (Configuration, EnvironmentValues) -> [ViewNode]

    /// The style whose body `makeBody` makes.
    init<Body: View>(_ makeBody: @escaping (Configuration) -> Body) {
        body = { configuration, environment in makeBody(configuration)._resolve(in: environment) }
    }

    /// Its body for `configuration`, resolved in `environment` less the author's styles (a control
    /// inside the body is drawn as the system draws it, not by the style again).
    func resolve(_ configuration: Configuration, in environment: EnvironmentValues) -> [ViewNode] {
        let inner = environment.withoutCustomStyles()
        return EnvironmentValues.$current.withValue(inner) { body(configuration, inner) }
    }
}

/// A control drawn by an author's style: the style's body, tappable as the control (its intent),
/// with none of the system's button look around it.
func _styledControl(_ body: [ViewNode], attributes: JSONObject) -> [ViewNode] {
    var node = ViewNode("button", attributes: attributes, children: body)
    node.modifiers.append(ViewModifierNode("buttonStyle", .string("plain")))
    return [node]
}

extension EnvironmentValues {
    /// The environment a custom style's body is resolved in: the author's styles left out.
    fileprivate func withoutCustomStyles() -> EnvironmentValues {
        var plain = self
        plain.customButtonStyle = nil
        plain.customToggleStyle = nil
        plain.customLabelStyle = nil
        return plain
    }
}

// MARK: - Buttons

/// How an author's button style draws a button.
public protocol ButtonStyle {
    associatedtype Body: View
    @ViewBuilder func makeBody(configuration: Self.Configuration) -> Self.Body
    typealias Configuration = ButtonStyleConfiguration
}

/// What a button style is given: the button's label, its role, and whether it is pressed (never,
/// in a drawing).
public struct ButtonStyleConfiguration {
    public typealias Label = _ResolvedContent
    public let role: ButtonRole?
    public let label: _ResolvedContent
    public let isPressed: Bool
}

/// A style that makes the button itself (`PrimitiveButtonStyle`): its body is drawn, and a tap
/// performs the button's intent, as `configuration.trigger()` would.
public protocol PrimitiveButtonStyle {
    associatedtype Body: View
    @ViewBuilder func makeBody(configuration: Self.Configuration) -> Self.Body
    typealias Configuration = PrimitiveButtonStyleConfiguration
}

public struct PrimitiveButtonStyleConfiguration {
    public typealias Label = _ResolvedContent
    public let role: ButtonRole?
    public let label: _ResolvedContent
    /// What a tap does; the host performs the button's intent when the drawing is tapped.
    public func trigger() {}
}

extension View {
    public func buttonStyle<S: ButtonStyle>(_ style: S) -> some View {
        let custom = _CustomStyle { style.makeBody(configuration: ButtonStyleConfiguration(role: nil, label: $0, isPressed: false)) }
        return modifier(_EnvironmentModifier { $0.customButtonStyle = custom })
    }

    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View {
        let custom = _CustomStyle { style.makeBody(configuration: PrimitiveButtonStyleConfiguration(role: nil, label: $0)) }
        return modifier(_EnvironmentModifier { $0.customButtonStyle = custom })
    }
}

extension Button {
    /// The button drawn by the author's style in the environment: its body, tappable as the button,
    /// with none of the system's button look around it.
    func styled(_ label: [ViewNode], attributes: JSONObject, in environment: EnvironmentValues) -> [ViewNode]? {
        guard let style = environment.customButtonStyle else { return nil }
        return _styledControl(style.resolve(_ResolvedContent(nodes: label), in: environment), attributes: attributes)
    }
}

// MARK: - Toggles

/// How an author's toggle style draws a toggle.
public protocol ToggleStyle {
    associatedtype Body: View
    @ViewBuilder func makeBody(configuration: Self.Configuration) -> Self.Body
    typealias Configuration = ToggleStyleConfiguration
}

/// What a toggle style is given: the label and the state. Setting `isOn` in a drawing changes
/// nothing: a tap performs the toggle's intent, and the widget's next timeline shows the new state.
public struct ToggleStyleConfiguration {
    public typealias Label = _ResolvedContent
    public let label: _ResolvedContent
    @Binding public var isOn: Bool
    public var isMixed = false

    init(label: _ResolvedContent, state: Bool) {
        self.label = label
        _isOn = .constant(state)
    }
}

extension View {
    public func toggleStyle<S: ToggleStyle>(_ style: S) -> some View {
        let custom = _CustomStyle { style.makeBody(configuration: $0) }
        return modifier(_EnvironmentModifier { $0.customToggleStyle = custom })
    }
}

extension Toggle {
    /// The toggle drawn by the author's style in the environment: its body, a tap on which performs
    /// the toggle's intent.
    func styled(_ label: [ViewNode], in environment: EnvironmentValues) -> [ViewNode]? {
        guard let style = environment.customToggleStyle else { return nil }
        let body = style.resolve(ToggleStyleConfiguration(label: _ResolvedContent(nodes: label), state: isOn), in: environment)
        return _styledControl(body, attributes: intent == .null ? JSONObject() : JSONObject([("intent", intent)]))
    }
}

// MARK: - Labels

/// How an author's label style arranges a label's icon and title.
public protocol LabelStyle {
    associatedtype Body: View
    @ViewBuilder func makeBody(configuration: Self.Configuration) -> Self.Body
    typealias Configuration = LabelStyleConfiguration
}

public struct LabelStyleConfiguration {
    public typealias Title = _ResolvedContent
    public typealias Icon = _ResolvedContent
    public let title: _ResolvedContent
    public let icon: _ResolvedContent
}

extension View {
    public func labelStyle<S: LabelStyle>(_ style: S) -> some View {
        let custom = _CustomStyle { style.makeBody(configuration: $0) }
        return modifier(_EnvironmentModifier { $0.customLabelStyle = custom })
    }
}

extension Label {
    func styled(title: [ViewNode], icon: [ViewNode], in environment: EnvironmentValues) -> [ViewNode]? {
        guard let style = environment.customLabelStyle else { return nil }
        return style.resolve(LabelStyleConfiguration(title: _ResolvedContent(nodes: title), icon: _ResolvedContent(nodes: icon)), in: environment)
    }
}

// MARK: - Dynamic properties

/// A property that the view updates before its body is asked for (`@State`, `@Environment`, an
/// author's own wrapper of them). A widget's view is made once per drawing, so `update()` has
/// nothing to refresh here.
public protocol DynamicProperty {
    mutating func update()
}

extension DynamicProperty {
    public mutating func update() {}
}
