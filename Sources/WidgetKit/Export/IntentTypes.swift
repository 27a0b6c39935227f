import Foundation
import Synchronization
import WidgetWire

/// The intent types this bundle's views have used, by name: what a tap names, performed here.
///
/// A view records its intent as `{"type": <module-qualified name>, "parameters": {...}}` (the
/// `@Parameter` values, as a configuration records them) and registers the type; a tap comes back
/// with that JSON and is performed on a fresh instance filled from it.
enum IntentTypes {
    private static let types = Mutex<[String: @Sendable (String) async throws -> Void]>([:])

    static func record<I: AppIntent>(_ intent: I) -> JSONValue {
        let name = String(reflecting: I.self)
        types.withLock { types in
            if types[name] == nil {
                types[name] = { parameters in
                    let fresh = I()
                    do {
                        try await IntentParameters.fill(fresh, from: parameters)
                    } catch {
                        throw IntentFailure("intent \(name): \(error)")
                    }
                    _ = try await fresh.perform()
                }
            }
        }
        return .object(JSONObject([("type", .string(name)), ("parameters", .object(IntentParameters.configuration(of: intent)))]))
    }

    static func performer(_ name: String) -> (@Sendable (String) async throws -> Void)? {
        types.withLock { $0[name] }
    }
}

struct IntentFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
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
    public func buttonStyle(_ style: _ButtonStyle) -> some View { wire("buttonStyle", .string(style.name)) }
    public func toggleStyle(_ style: _ToggleStyle) -> some View { wire("toggleStyle", .string(style.name)) }
    public func controlSize(_ controlSize: ControlSize) -> some View { unchanged }
    public func buttonBorderShape(_ shape: ButtonBorderShape) -> some View { unchanged }
}
