/// Values views read with `@Environment`, set by the system for each rendering.
public struct EnvironmentValues: Sendable {
    /// The family the widget is being rendered in.
    public var widgetFamily: WidgetFamily = .systemSmall
    public var colorScheme: ColorScheme = .light
    /// `.placeholder` while the placeholder is rendered.
    public var redactionReasons: RedactionReasons = []

    public init() {}

    @TaskLocal static var current = EnvironmentValues()
}

/// Reads a value from the environment the view is being rendered in.
///
///     @Environment(\.widgetFamily) var family
@propertyWrapper
public struct Environment<Value>: Sendable {
    let keyPath: KeyPath<EnvironmentValues, Value> & Sendable

    public init(_ keyPath: KeyPath<EnvironmentValues, Value> & Sendable) {
        self.keyPath = keyPath
    }

    public var wrappedValue: Value { EnvironmentValues.current[keyPath: keyPath] }
}

public enum ColorScheme: String, CaseIterable, Hashable, Sendable {
    case light
    case dark
}

/// Why a view is shown redacted.
public struct RedactionReasons: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The view is a placeholder: text becomes grey bars, images grey shapes.
    public static let placeholder = RedactionReasons(rawValue: 1 << 0)
    /// The view holds private data.
    public static let privacy = RedactionReasons(rawValue: 1 << 1)
}
