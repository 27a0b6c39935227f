/// Values views read with `@Environment`, set by the system for each rendering.
public struct EnvironmentValues: Sendable {
    /// The family the widget is being rendered in.
    public var widgetFamily: WidgetFamily = .systemSmall
    public var colorScheme: ColorScheme = .light
    /// Whether colours are shown with more contrast (the accessibility setting): asset colours
    /// then use their high-contrast appearance.
    public var colorSchemeContrast: ColorSchemeContrast = .standard
    /// `.placeholder` while the placeholder is rendered.
    public var redactionReasons: RedactionReasons = []
    /// How the host draws the widget: `.vibrant` for accessory families (the Lock Screen),
    /// `.accented` when the host tints widgets, else `.fullColor`.
    public var widgetRenderingMode: WidgetRenderingMode = .fullColor
    /// Whether the widget's container background is drawn; false on the Lock Screen (accessory
    /// families), where a widget should not draw a background of its own either.
    public var showsWidgetContainerBackground = true
    /// The margins the system puts around a widget's content (iOS 17): a widget with
    /// `.contentMarginsDisabled()` pads what should stay inside them by these.
    public var widgetContentMargins = EdgeInsets()
    /// Whether an accessory widget's label is shown (none are, here).
    public var showsWidgetLabel = false
    /// Whether the screen is dimmed (always-on); never, here.
    public var isLuminanceReduced = false
    public var dynamicTypeSize: DynamicTypeSize = .large
    public var sizeCategory: ContentSizeCategory = .large
    public var locale: Locale = .current
    public var calendar: Calendar = .current
    public var timeZone: TimeZone = .current
    public var displayScale: CGFloat = 2
    public var layoutDirection: LayoutDirection = .leftToRight
    public var legibilityWeight: LegibilityWeight? = nil
    public var accessibilityReduceMotion = false
    public var accessibilityReduceTransparency = false
    public var accessibilityDifferentiateWithoutColor = false
    public var accessibilityInvertColors = false
    public var isEnabled = true
    public var font: Font? = nil

    /// The size of the widget's content area: its family's size, less its content margins. What a
    /// `GeometryReader` gives its content.
    var contentSize = CGSize(width: 158, height: 158)
    /// Styles an author wrote, set by `.buttonStyle(_:)`, `.toggleStyle(_:)`, `.labelStyle(_:)`.
    var customButtonStyle: _CustomStyle<_ResolvedContent>?
    var customToggleStyle: _CustomStyle<ToggleStyleConfiguration>?
    var customLabelStyle: _CustomStyle<LabelStyleConfiguration>?
    /// Values of keys of the author's own (`EnvironmentKey`), by key type.
    var custom: [ObjectIdentifier: _UncheckedSendable<Any>] = [:]

    public init() {}

    @TaskLocal static var current = EnvironmentValues()
}

/// A key of the author's own for a value in the environment (`extension EnvironmentValues { var
/// accent: Color { get { self[AccentKey.self] } set { self[AccentKey.self] = newValue } } }`).
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

extension EnvironmentValues {
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { (custom[ObjectIdentifier(key)]?.value as? K.Value) ?? K.defaultValue }
        set { custom[ObjectIdentifier(key)] = _UncheckedSendable(newValue) }
    }
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

/// How the system draws a widget, as WidgetKit names its modes.
public struct WidgetRenderingMode: Hashable, Sendable, CustomStringConvertible {
    let name: String
    /// Colours as the views give them.
    public static let fullColor = WidgetRenderingMode(name: "fullColor")
    /// Tinted: views marked `widgetAccentable()` in the accent colour, the rest in one other.
    public static let accented = WidgetRenderingMode(name: "accented")
    /// Desaturated, as accessory widgets on the Lock Screen are.
    public static let vibrant = WidgetRenderingMode(name: "vibrant")

    public var description: String { name }
}

/// The contrast colours are shown with.
public enum ColorSchemeContrast: Hashable, Sendable, CaseIterable {
    case standard, increased
}

public enum LayoutDirection: Hashable, Sendable, CaseIterable {
    case leftToRight, rightToLeft
}

public enum LegibilityWeight: Hashable, Sendable {
    case regular, bold
}
