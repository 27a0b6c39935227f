public import Foundation
public import WidgetWire

// What a person can do with a widget: open a deep link (`widgetURL`, `Link`), or run an intent
// (`Button(intent:)`, `Toggle(isOn:intent:)`). The views record these in the tree; the host routes a
// tap back to the bundle: a URL to its URL handler (the counterpart of the app's `onOpenURL`, given to
// `exportWidgetBundle`), an intent to its `perform()` on the widget's provider queue.

extension View {
    /// The URL to open when the widget is tapped anywhere outside a `Link` or button. As on iOS,
    /// use one per widget; when a tree has several, the host uses the first in reading order and
    /// says so.
    public func widgetURL(_ url: URL?) -> some View {
        wire("widgetURL", url.map { .string($0.absoluteString) } ?? .null)
    }
}

/// A control that opens a URL when tapped. As on iOS, medium and larger widgets only: in a small
/// widget the whole widget is one tap target (its `widgetURL`), and the host ignores `Link`s there.
public struct Link<Label: View>: _PrimitiveView {
    let destination: URL
    let label: Label

    public init(destination: URL, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        [ViewNode("link", attributes: JSONObject([("url", .string(destination.absoluteString))]), children: label._resolve(in: environment))]
    }
}

extension Link where Label == Text {
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, destination: URL) {
        self.init(destination: destination) { Text(title) }
    }
}

/// A button that performs an `AppIntent` when tapped; afterwards the widget reloads.
public struct Button<Label: View>: _PrimitiveView {
    let intent: JSONValue
    let label: Label
    /// For `OpenURLIntent`: the link the button opens, as `Link` does.
    var opens: URL?

    public init<I: AppIntent>(intent: I, @ViewBuilder label: () -> Label) {
        if let open = intent as? OpenURLIntent {
            self.intent = .null
            opens = open.url
        } else {
            self.intent = IntentTypes.record(intent)
        }
        self.label = label()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        if let opens { return Link(destination: opens) { label }._resolve(in: environment) }
        // A button with no intent (an app's action) is drawn, and its tap does nothing.
        let attributes = intent == .null ? JSONObject() : JSONObject([("intent", intent)])
        let nodes = label._resolve(in: environment)
        return styled(nodes, attributes: attributes, in: environment) ?? [ViewNode("button", attributes: attributes, children: nodes)]
    }
}

/// Opens a URL (iOS 18): a button with it is a link, routed to the bundle's URL handler as a
/// `widgetURL` or `Link` is (docs/TIMELINES.md).
public struct OpenURLIntent: AppIntent {
    public static var title: LocalizedStringResource { "Open URL" }
    public var url: URL

    public init(_ url: URL) { self.url = url }
    public init() { url = URL(fileURLWithPath: "/") }

    public func perform() async throws -> some IntentResult { .result() }
}

extension Button where Label == Text {
    @_disfavoredOverload
    public init<S: StringProtocol, I: AppIntent>(_ title: S, intent: I) {
        self.init(intent: intent) { Text(title) }
    }
}

/// A toggle showing `isOn` that performs an `AppIntent` when tapped; afterwards the widget reloads.
public struct Toggle<Label: View>: _PrimitiveView {
    let isOn: Bool
    let intent: JSONValue
    let label: Label

    public init<I: AppIntent>(isOn: Bool, intent: I, @ViewBuilder label: () -> Label) {
        self.isOn = isOn
        self.intent = IntentTypes.record(intent)
        self.label = label()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        let nodes = label._resolve(in: environment)
        return styled(nodes, in: environment) ?? [ViewNode("toggle", attributes: JSONObject([("isOn", .bool(isOn)), ("intent", intent)]), children: nodes)]
    }
}

extension Toggle {
    /// A toggle bound to a value, as in an app: drawn in its state; a widget runs no closures, so a
    /// tap on it does nothing (use `Toggle(isOn:intent:)`).
    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {
        self.isOn = isOn.wrappedValue
        intent = .null
        self.label = label()
    }
}

extension Toggle where Label == Text {
    @_disfavoredOverload
    public init<S: StringProtocol, I: AppIntent>(_ title: S, isOn: Bool, intent: I) {
        self.init(isOn: isOn, intent: intent) { Text(title) }
    }

    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {
        self.init(isOn: isOn) { Text(titleKey) }
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {
        self.init(isOn: isOn) { Text(title) }
    }
}

// MARK: - Plain buttons and styles

extension Button {
    /// A button with an action, as in an app. A widget runs no closures: such a button is drawn, and
    /// a tap on it does nothing (use `Button(intent:)`).
    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        intent = .null
        self.label = label()
    }

    public init(role: ButtonRole?, action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.init(action: action, label: label)
    }

    public init<I: AppIntent>(role: ButtonRole?, intent: I, @ViewBuilder label: () -> Label) {
        self.init(intent: intent, label: label)
    }
}

extension Button where Label == Text {
    public init(_ titleKey: LocalizedStringKey, action: @escaping () -> Void) { self.init(action: action) { Text(titleKey) } }
    public init(_ titleKey: LocalizedStringKey, intent: some AppIntent) { self.init(intent: intent) { Text(titleKey) } }
}

extension Button where Label == SwiftUI_Label {
    public init<I: AppIntent>(_ titleKey: LocalizedStringKey, systemImage: String, intent: I) {
        self.init(intent: intent) { WidgetKit.Label(titleKey, systemImage: systemImage) }
    }
}

public typealias SwiftUI_Label = Label<Text, Image>

/// What a button does (a destructive one is drawn as any other here).
public struct ButtonRole: Hashable, Sendable {
    public static let destructive = ButtonRole()
    public static let cancel = ButtonRole()
}

/// How buttons are drawn: `.bordered` and `.borderedProminent` on a tinted backdrop, `.plain` and
/// `.borderless` as their label.
public struct _ButtonStyle: Sendable {
    let name: String
    public static let automatic = _ButtonStyle(name: "automatic")
    public static let bordered = _ButtonStyle(name: "bordered")
    public static let borderedProminent = _ButtonStyle(name: "borderedProminent")
    public static let borderless = _ButtonStyle(name: "borderless")
    public static let plain = _ButtonStyle(name: "plain")
}

/// How toggles are drawn.
public struct _ToggleStyle: Sendable {
    let name: String
    public static let automatic = _ToggleStyle(name: "automatic")
    public static let `switch` = _ToggleStyle(name: "switch")
    public static let button = _ToggleStyle(name: "button")
}

public enum ControlSize: Hashable, Sendable, CaseIterable {
    case mini, small, regular, large, extraLarge
}

public struct ButtonBorderShape: Sendable {
    public static let automatic = ButtonBorderShape()
    public static let capsule = ButtonBorderShape()
    public static let roundedRectangle = ButtonBorderShape()
    public static let circle = ButtonBorderShape()
    public static func roundedRectangle(radius: CGFloat) -> ButtonBorderShape { ButtonBorderShape() }
}

extension View {
    /// How buttons in this view are drawn.
    /// A system style: it wins over an author's style set further out, as the innermost style does in SwiftUI.
    public func buttonStyle(_ style: _ButtonStyle) -> some View {
        wire("buttonStyle", .string(style.name)).modifier(_EnvironmentModifier { $0.customButtonStyle = nil })
    }
    public func toggleStyle(_ style: _ToggleStyle) -> some View {
        wire("toggleStyle", .string(style.name)).modifier(_EnvironmentModifier { $0.customToggleStyle = nil })
    }
    public func controlSize(_ controlSize: ControlSize) -> some View { unchanged }
    public func buttonBorderShape(_ shape: ButtonBorderShape) -> some View { unchanged }
}
