import WidgetWire

/// A query's or options provider's view of the intent being configured (iOS 17): declared with the
/// parameters it depends on, `@IntentParameterDependency<ListsIntent>(\.$account) var intent`, it
/// holds that intent while the host asks for a parameter's options with those parameters set (the
/// configuration so far, as a configuration screen has it), and nil otherwise.
@propertyWrapper
public final class IntentParameterDependency<Intent: AppIntent>: @unchecked Sendable {
    let dependencies: [PartialKeyPath<Intent>]

    public init(_ dependencies: PartialKeyPath<Intent>...) { self.dependencies = dependencies }

    public var wrappedValue: IntentProjection<Intent>? {
        guard let intent = ConfiguringIntent.current?.value as? Intent else { return nil }
        // Every parameter it depends on has a value (an optional one, not nil).
        for dependency in dependencies {
            guard let parameter = intent[keyPath: dependency] as? any _ConfiguredParameter else { continue }
            if !parameter._hasValue { return nil }
        }
        return IntentProjection(intent: intent)
    }
}

/// The intent an `IntentParameterDependency` holds: its parameters' values by name, an optional's
/// unwrapped (the dependency exists only when they have values).
@dynamicMemberLookup
public struct IntentProjection<Intent: AppIntent> {
    let intent: Intent

    public subscript<Value>(dynamicMember keyPath: KeyPath<Intent, Value>) -> Value { intent[keyPath: keyPath] }

    public subscript<Wrapped>(dynamicMember keyPath: KeyPath<Intent, Wrapped?>) -> Wrapped {
        guard let value = intent[keyPath: keyPath] else {
            preconditionFailure("\(Intent.self): a parameter read through an IntentParameterDependency has no value; list it in the dependency")
        }
        return value
    }
}

/// The intent whose parameter's options are being asked for, filled from the configuration so far.
enum ConfiguringIntent {
    /// Held for the options request's task only; intents are not `Sendable`, and this one is not
    /// touched elsewhere meanwhile.
    @TaskLocal static var current: _UncheckedSendable<any AppIntent>?
}

/// A parameter, whatever its value's type: whether it has a value.
protocol _ConfiguredParameter {
    var _hasValue: Bool { get }
}
