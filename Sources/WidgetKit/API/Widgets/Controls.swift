import CWidgetKit
import Foundation
import WidgetWire

// Controls (iOS 18): buttons and toggles for Control Center, the Lock Screen and the Action button,
// which Xcode 16's widget extension template adds to the bundle. Here a bundle registers each with
// the host (ABI 1.7, by its kind), draws it for its value provider's current value, and performs its
// action when it is pressed: in the web page's and the desktop's Controls, in a bar
// (`widgets watch KIND --format waybar`) and from the shell (`widgets control KIND`).

/// A control: its body says its kind, its value and its button or toggle.
public protocol ControlWidget {
    associatedtype Body: ControlWidgetConfiguration
    init()
    @ControlWidgetConfigurationBuilder var body: Body { get }
}

/// A control's configuration: static, or configured by an intent.
public protocol ControlWidgetConfiguration {
    /// The control it declares, for the host.
    func _controlDefinition() -> _WidgetDefinition
}

/// What a control shows: `ControlWidgetButton` or `ControlWidgetToggle`.
public protocol ControlWidgetTemplate {
    /// The control as it is now, with its action's intent type registered for a press.
    func _control(in environment: EnvironmentValues) -> WireControl
}

@resultBuilder
public enum ControlWidgetConfigurationBuilder {
    public static func buildBlock<C: ControlWidgetConfiguration>(_ configuration: C) -> C { configuration }
}

@resultBuilder
public enum ControlWidgetTemplateBuilder {
    public static func buildBlock<T: ControlWidgetTemplate>(_ template: T) -> T { template }
    public static func buildEither<T: ControlWidgetTemplate, F: ControlWidgetTemplate>(first: T) -> _ConditionalControl<T, F> {
        _ConditionalControl(choice: .first(first))
    }
    public static func buildEither<T: ControlWidgetTemplate, F: ControlWidgetTemplate>(second: F) -> _ConditionalControl<T, F> {
        _ConditionalControl(choice: .second(second))
    }
}

public struct _ConditionalControl<TrueContent: ControlWidgetTemplate, FalseContent: ControlWidgetTemplate>: ControlWidgetTemplate {
    enum Choice {
        case first(TrueContent)
        case second(FalseContent)
    }
    let choice: Choice

    public func _control(in environment: EnvironmentValues) -> WireControl {
        switch choice {
        case .first(let content): content._control(in: environment)
        case .second(let content): content._control(in: environment)
        }
    }
}

/// A control whose value comes from a provider, or that has none.
public struct StaticControlConfiguration<Content: ControlWidgetTemplate>: ControlWidgetConfiguration {
    let definition: _WidgetDefinition

    public init(kind: String, @ControlWidgetTemplateBuilder content: @escaping () -> Content) {
        let content = _UncheckedSendable(content)
        definition = ControlDefinitions.make(kind: kind) { _, environment in .success(content.value()._control(in: environment)) } current: { _, environment in
            content.value()._control(in: environment)
        }
    }

    public init<Provider: ControlValueProvider>(
        kind: String, provider: Provider, @ControlWidgetTemplateBuilder content: @escaping (Provider.Value) -> Content
    ) {
        let content = _UncheckedSendable(content)
        definition = ControlDefinitions.make(kind: kind) { _, environment in
            .success(content.value(provider.previewValue)._control(in: environment))
        } current: { _, environment in
            content.value(try await provider.currentValue())._control(in: environment)
        }
    }

    public func _controlDefinition() -> _WidgetDefinition { definition }
}

/// A control a person configures with an intent. Here it runs with the intent's defaults (or the
/// configuration the host sends); Linux has no control gallery to configure it in.
public struct AppIntentControlConfiguration<Content: ControlWidgetTemplate>: ControlWidgetConfiguration {
    let definition: _WidgetDefinition

    public init<Provider: AppIntentControlValueProvider>(
        kind: String, provider: Provider, @ControlWidgetTemplateBuilder content: @escaping (Provider.Value) -> Content
    ) {
        let content = _UncheckedSendable(content)
        definition = ControlDefinitions.make(kind: kind) { configuration, environment in
            let intent = Provider.Configuration()
            return .success(content.value(provider.previewValue(configuration: intent))._control(in: environment))
        } current: { configuration, environment in
            let intent = Provider.Configuration()
            try await IntentParameters.fill(intent, from: configuration)
            return content.value(try await provider.currentValue(configuration: intent))._control(in: environment)
        }
    }

    public init<Intent: ControlConfigurationIntent>(
        kind: String, intent: Intent.Type, @ControlWidgetTemplateBuilder content: @escaping (Intent) -> Content
    ) {
        let content = _UncheckedSendable(content)
        definition = ControlDefinitions.make(kind: kind) { _, environment in .success(content.value(Intent())._control(in: environment)) } current: {
            configuration, environment in
            let intent = Intent()
            try await IntentParameters.fill(intent, from: configuration)
            return content.value(intent)._control(in: environment)
        }
    }

    public func _controlDefinition() -> _WidgetDefinition { definition }
}

/// The definitions controls register: answering the host's control request with the current value,
/// and a placeholder (built with the preview value, at once) for what it registers: a restarted
/// worker performs a press of a control it has not drawn yet.
enum ControlDefinitions {
    static func make(
        kind: String, preview: @escaping (String, EnvironmentValues) -> Result<WireControl, Never>,
        current: @escaping (String, EnvironmentValues) async throws -> WireControl
    ) -> _WidgetDefinition {
        let closures = _UncheckedSendable((preview, current))
        var definition = _WidgetDefinition(kind: kind, configurationKind: .control) { request, reply in
            let environment = request.environment
            switch request.kind {
            case .placeholder:
                guard case .success(let control) = closures.value.0(request.configuration, environment) else { return }
                reply(.json(control.json))
            case .control:
                runOnCallingThread {
                    do {
                        reply(.json(try await closures.value.1(request.configuration, environment).json))
                    } catch {
                        reply(.failure("\(error)"))
                    }
                }
            default:
                reply(.failure("a Control is asked only for its state, and pressed"))
            }
        }
        definition.families = [.systemSmall]
        return definition
    }
}

extension ControlWidgetConfiguration {
    public func displayName(_ displayName: LocalizedStringResource) -> some ControlWidgetConfiguration {
        _ModifiedControlConfiguration(base: self) { $0.displayName = displayName.description }
    }
    public func description(_ description: LocalizedStringResource) -> some ControlWidgetConfiguration {
        _ModifiedControlConfiguration(base: self) { $0.description = description.description }
    }
    public func promptsForUserConfiguration() -> some ControlWidgetConfiguration { self }
}

public struct _ModifiedControlConfiguration<Base: ControlWidgetConfiguration>: ControlWidgetConfiguration {
    let base: Base
    let change: (inout _WidgetDefinition) -> Void

    public func _controlDefinition() -> _WidgetDefinition {
        var definition = base._controlDefinition()
        change(&definition)
        return definition
    }
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
    public func tint(_ tint: Color?) -> some ControlWidgetTemplate { _ModifiedControlTemplate(base: self) { $0.tint = tint?.json } }
    public func disabled(_ disabled: Bool) -> some ControlWidgetTemplate { _ModifiedControlTemplate(base: self) { $0.disabled = disabled } }
}

public struct _ModifiedControlTemplate<Base: ControlWidgetTemplate>: ControlWidgetTemplate {
    let base: Base
    let change: (inout WireControl) -> Void

    public func _control(in environment: EnvironmentValues) -> WireControl {
        var control = base._control(in: environment)
        change(&control)
        return control
    }
}

/// A control that performs an intent when pressed.
public struct ControlWidgetButton<Label: View, Action: AppIntent>: ControlWidgetTemplate {
    let action: Action
    let label: Label

    public init(action: Action, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
    }

    public func _control(in environment: EnvironmentValues) -> WireControl {
        WireControl(template: .button, label: ViewResolver.root(of: label, in: environment), action: IntentTypes.record(action))
    }
}

extension ControlWidgetButton where Label == WidgetKit.Label<Text, Image> {
    public init(_ titleKey: LocalizedStringKey, systemImage: String, action: Action) {
        self.init(action: action) { WidgetKit.Label { Text(titleKey) } icon: { Image(systemName: systemImage) } }
    }
}

/// A control that turns something on or off: pressed, it performs its action (a `SetValueIntent`)
/// with `value` the new state.
public struct ControlWidgetToggle<Label: View, ValueLabel: View, Action: AppIntent>: ControlWidgetTemplate {
    let isOn: Bool
    let action: Action
    let label: Label
    let valueLabel: ValueLabel

    public init(isOn: Bool, action: Action, @ViewBuilder label: () -> Label, @ViewBuilder valueLabel: (Bool) -> ValueLabel) {
        self.isOn = isOn
        self.action = action
        self.label = label()
        self.valueLabel = valueLabel(isOn)
    }

    public func _control(in environment: EnvironmentValues) -> WireControl {
        WireControl(
            template: .toggle, label: ViewResolver.root(of: label, in: environment), valueLabel: ViewResolver.root(of: valueLabel, in: environment),
            isOn: isOn, action: IntentTypes.record(action))
    }
}

extension ControlWidgetToggle where Label == Text {
    public init(_ titleKey: LocalizedStringKey, isOn: Bool, action: Action, @ViewBuilder valueLabel: (Bool) -> ValueLabel) {
        self.init(isOn: isOn, action: action, label: { Text(titleKey) }, valueLabel: valueLabel)
    }

    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, isOn: Bool, action: Action, @ViewBuilder valueLabel: (Bool) -> ValueLabel) {
        self.init(isOn: isOn, action: action, label: { Text(title) }, valueLabel: valueLabel)
    }
}

/// An app's line to the controls the host shows (iOS 18): reload them after the app changed what
/// their value providers read. As `WidgetCenter`, over the running host's control socket.
public final class ControlCenter: Sendable {
    public static let shared = ControlCenter()

    public init() {}

    /// Asks the host to draw the controls of `kind` again.
    public func reloadControls(ofKind kind: String) {
        reload(kind)
    }

    /// Asks the host to draw every control again.
    public func reloadAllControls() {
        reload(nil)
    }

    /// The controls the host shows (their kinds), for an app that asks (iOS 18's `currentControls()`).
    public func currentControls() async throws -> [ControlInfo] {
        let answer: ControlAnswer
        do {
            answer = try ControlClient(path: ControlSocket.path()).send(.controls(kind: nil))
        } catch {
            throw WidgetCenter.Error(description: error.description)
        }
        switch answer {
        case .controls(let entries): return entries.map { ControlInfo(kind: $0.kind) }
        case .refused(let reason): throw WidgetCenter.Error(description: reason)
        default: return []
        }
    }

    private func reload(_ kind: String?) {
        widgetkit_synchronize_defaults()
        _ = try? ControlClient(path: ControlSocket.path()).send(.reloadControls(kind: kind))
    }
}

/// A control the host shows.
public struct ControlInfo: Sendable, Hashable {
    public let kind: String
}
