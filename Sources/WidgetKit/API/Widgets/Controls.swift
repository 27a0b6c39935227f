// Controls (iOS 18): buttons and toggles for Control Center, the Lock Screen and the Action button,
// which Xcode 16's widget extension template adds to the bundle. Linux has none of those places: a
// bundle's controls compile, with Apple's names and signatures, and are not offered; the bundle's
// widgets are (docs/PORTING.md).

/// A control: its body says its kind, its value and its button or toggle.
public protocol ControlWidget {
    associatedtype Body: ControlWidgetConfiguration
    init()
    @ControlWidgetConfigurationBuilder var body: Body { get }
}

/// A control's configuration: static, or configured by an intent.
public protocol ControlWidgetConfiguration {}

/// What a control shows: `ControlWidgetButton` or `ControlWidgetToggle`.
public protocol ControlWidgetTemplate {}

@resultBuilder
public enum ControlWidgetConfigurationBuilder {
    public static func buildBlock<C: ControlWidgetConfiguration>(_ configuration: C) -> C { configuration }
}

@resultBuilder
public enum ControlWidgetTemplateBuilder {
    public static func buildBlock<T: ControlWidgetTemplate>(_ template: T) -> T { template }
    public static func buildEither<T: ControlWidgetTemplate, F: ControlWidgetTemplate>(first: T) -> _ConditionalControl<T, F> {
        _ConditionalControl()
    }
    public static func buildEither<T: ControlWidgetTemplate, F: ControlWidgetTemplate>(second: F) -> _ConditionalControl<T, F> {
        _ConditionalControl()
    }
}

public struct _ConditionalControl<TrueContent: ControlWidgetTemplate, FalseContent: ControlWidgetTemplate>: ControlWidgetTemplate {}

/// A control whose value comes from a provider, or that has none.
public struct StaticControlConfiguration<Content: ControlWidgetTemplate>: ControlWidgetConfiguration {
    public init(kind: String, @ControlWidgetTemplateBuilder content: () -> Content) {}

    public init<Provider: ControlValueProvider>(
        kind: String, provider: Provider, @ControlWidgetTemplateBuilder content: @escaping (Provider.Value) -> Content
    ) {}
}

/// A control a person configures with an intent.
public struct AppIntentControlConfiguration<Content: ControlWidgetTemplate>: ControlWidgetConfiguration {
    public init<Provider: AppIntentControlValueProvider>(
        kind: String, provider: Provider, @ControlWidgetTemplateBuilder content: @escaping (Provider.Value) -> Content
    ) {}

    public init<Intent: ControlConfigurationIntent>(
        kind: String, intent: Intent.Type, @ControlWidgetTemplateBuilder content: @escaping (Intent) -> Content
    ) {}
}

extension ControlWidgetConfiguration {
    public func displayName(_ displayName: LocalizedStringResource) -> some ControlWidgetConfiguration { self }
    public func description(_ description: LocalizedStringResource) -> some ControlWidgetConfiguration { self }
    public func promptsForUserConfiguration() -> some ControlWidgetConfiguration { self }
}

/// Where a static control's value comes from.
public protocol ControlValueProvider: Sendable {
    associatedtype Value: Sendable
    var previewValue: Value { get }
    func currentValue() async throws -> Value
}

/// Where a configured control's value comes from, by its configuration.
public protocol AppIntentControlValueProvider: Sendable {
    associatedtype Value: Sendable
    associatedtype Configuration: ControlConfigurationIntent
    func previewValue(configuration: Configuration) -> Value
    func currentValue(configuration: Configuration) async throws -> Value
}

/// The intent that configures a control.
public protocol ControlConfigurationIntent: AppIntent {}

extension ControlConfigurationIntent {
    /// A configuration has nothing to perform.
    public func perform() async throws -> some IntentResult { .result() }
}

/// An intent a toggle performs with its new value in `value`.
public protocol SetValueIntent: AppIntent {
    associatedtype ValueType
    var value: ValueType { get set }
}

extension ControlWidgetTemplate {
    /// The control's tint when it is on.
    public func tint(_ tint: Color?) -> some ControlWidgetTemplate { self }
    public func disabled(_ disabled: Bool) -> some ControlWidgetTemplate { self }
}

/// A control that performs an intent when pressed.
public struct ControlWidgetButton<Label: View, Action: AppIntent>: ControlWidgetTemplate {
    public init(action: Action, @ViewBuilder label: () -> Label) {}
}

extension ControlWidgetButton where Label == WidgetKit.Label<Text, Image> {
    public init(_ titleKey: LocalizedStringKey, systemImage: String, action: Action) {}
}

/// A control that turns something on or off.
public struct ControlWidgetToggle<Label: View, ValueLabel: View, Action: AppIntent>: ControlWidgetTemplate {
    public init(isOn: Bool, action: Action, @ViewBuilder label: () -> Label, @ViewBuilder valueLabel: (Bool) -> ValueLabel) {}
}

extension ControlWidgetToggle where Label == Text {
    public init(_ titleKey: LocalizedStringKey, isOn: Bool, action: Action, @ViewBuilder valueLabel: (Bool) -> ValueLabel) {}

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, isOn: Bool, action: Action, @ViewBuilder valueLabel: (Bool) -> ValueLabel) {}
}
