import WidgetWire

/// A parameter a person configures: `@Parameter(title: "Coin", default: .btc) var coin: Coin`.
///
/// A reference type, as Apple's is: setting a parameter of an intent held in a `let` works.
@propertyWrapper
public final class IntentParameter<Value: _IntentValue>: _ConfiguredParameter, @unchecked Sendable {
    let title: String
    let defaultValue: Value?
    let choices: _Choices?
    /// For numbers: the least and greatest value (`inclusiveRange:`).
    var range: ClosedRange<Double>?
    /// For lists: the most values (`size:`).
    var maximumCount: Int?
    /// The type the host sees, where the value's own does not say it: an `NSNumber` of an intent
    /// definition is an integer, a decimal or a boolean.
    var kind: ParameterType?
    private var value: Value?

    public var wrappedValue: Value {
        get {
            guard let current = value ?? defaultValue ?? Value._none else {
                fatalError("the parameter \"\(title)\" was read before it had a value, and it has no default")
            }
            return current
        }
        set { value = newValue }
    }

    public var projectedValue: IntentParameter<Value> { self }

    /// Whether it has a value: set, or a default, and not an optional's nil.
    var _hasValue: Bool { (value ?? defaultValue).map { $0._configurationValue != .null } ?? false }

    init(title: String, defaultValue: Value?, choices: _Choices?) {
        self.title = title
        self.defaultValue = defaultValue
        self.choices = choices
    }

    /// A parameter that needs a value: the host asks for one when an instance is added.
    public convenience init(title: LocalizedStringResource, description: IntentDescription? = nil) {
        self.init(title: title.text, defaultValue: nil, choices: nil)
    }

    public convenience init(title: LocalizedStringResource, description: IntentDescription? = nil, default: Value) {
        self.init(title: title.text, defaultValue: `default`, choices: nil)
    }

    /// A parameter whose choices `optionsProvider` supplies at run time.
    public convenience init<Provider: DynamicOptionsProvider>(
        title: LocalizedStringResource, description: IntentDescription? = nil, default: Value? = nil, optionsProvider: Provider
    ) where Provider.DefaultValue == Value {
        self.init(title: title.text, defaultValue: `default`, choices: _Choices(optionsProvider))
    }

    /// An optional parameter whose choices `optionsProvider` supplies at run time.
    public convenience init<Provider: DynamicOptionsProvider, Wrapped>(
        title: LocalizedStringResource, description: IntentDescription? = nil, optionsProvider: Provider
    ) where Value == Wrapped?, Provider.DefaultValue == Wrapped {
        self.init(title: title.text, defaultValue: nil, choices: _Choices(optionsProvider))
    }

    /// An optional parameter whose choices `optionsProvider` supplies, with a default (`var city: City?`, `default: .lisbon`).
    public convenience init<Provider: DynamicOptionsProvider, Wrapped>(
        title: LocalizedStringResource, description: IntentDescription? = nil, default: Wrapped, optionsProvider: Provider
    ) where Value == Wrapped?, Provider.DefaultValue == Wrapped {
        self.init(title: title.text, defaultValue: `default`, choices: _Choices(optionsProvider))
    }
}

extension IntentParameter where Value == Int {
    /// A whole number from the least to the greatest of `inclusiveRange`.
    public convenience init(
        title: LocalizedStringResource, description: IntentDescription? = nil, default: Value? = nil, inclusiveRange: (Value, Value),
        requestValueDialog: IntentDialog? = nil
    ) {
        self.init(title: title.text, defaultValue: `default`, choices: nil)
        range = Double(min(inclusiveRange.0, inclusiveRange.1))...Double(max(inclusiveRange.0, inclusiveRange.1))
    }
}

extension IntentParameter where Value == Double {
    /// A number from the least to the greatest of `inclusiveRange`.
    public convenience init(
        title: LocalizedStringResource, description: IntentDescription? = nil, default: Value? = nil, inclusiveRange: (Value, Value),
        requestValueDialog: IntentDialog? = nil
    ) {
        self.init(title: title.text, defaultValue: `default`, choices: nil)
        range = min(inclusiveRange.0, inclusiveRange.1)...max(inclusiveRange.0, inclusiveRange.1)
    }
}

/// How many values a list parameter holds at most (`@Parameter(title: "Cities", size: 3)`).
public struct IntentCollectionSize: ExpressibleByIntegerLiteral, Hashable, Sendable {
    public let count: Int
    public init(_ count: Int) { self.count = max(1, count) }
    public init(integerLiteral value: Int) { self.init(value) }
}

/// The families a list parameter's size may depend on (`size: [.systemSmall: 2, .systemLarge: 6]`).
public typealias IntentWidgetFamily = WidgetFamily

extension IntentParameter {
    /// A list of at most `size` values.
    public convenience init<Element>(
        title: LocalizedStringResource, description: IntentDescription? = nil, default: Value? = nil, size: IntentCollectionSize
    ) where Value == [Element] {
        self.init(title: title.text, defaultValue: `default`, choices: nil)
        maximumCount = size.count
    }

    /// A list whose size depends on the family: here, at most the largest of them.
    public convenience init<Element>(
        title: LocalizedStringResource, description: IntentDescription? = nil, default: Value? = nil,
        size: [IntentWidgetFamily: IntentCollectionSize]
    ) where Value == [Element] {
        self.init(title: title.text, defaultValue: `default`, choices: nil)
        maximumCount = size.values.map(\.count).max()
    }

    /// An optional list of at most `size` values.
    public convenience init<Element>(
        title: LocalizedStringResource, description: IntentDescription? = nil, size: IntentCollectionSize
    ) where Value == [Element]? {
        self.init(title: title.text, defaultValue: nil, choices: nil)
        maximumCount = size.count
    }

    public convenience init<Element>(
        title: LocalizedStringResource, description: IntentDescription? = nil, size: [IntentWidgetFamily: IntentCollectionSize]
    ) where Value == [Element]? {
        self.init(title: title.text, defaultValue: nil, choices: nil)
        maximumCount = size.values.map(\.count).max()
    }

    /// A parameter with the question Siri asks for its value; here the configuration's title asks.
    public convenience init(title: LocalizedStringResource, description: IntentDescription? = nil, default: Value? = nil, requestValueDialog: IntentDialog) {
        self.init(title: title.text, defaultValue: `default`, choices: nil)
    }
}

extension IntentParameter where Value: ExpressibleByNilLiteral {
    /// An optional parameter: nil until configured.
    public convenience init(title: LocalizedStringResource, description: IntentDescription? = nil) {
        self.init(title: title.text, defaultValue: nil, choices: nil)
    }
}

/// Apple's spelling: `@Parameter` is `IntentParameter`.
public typealias Parameter<Value: _IntentValue> = IntentParameter<Value>

// MARK: - What the SDK does with an intent's parameters

/// A parameter seen without its value type: what the SDK needs to describe, fill and read it.
protocol AnyIntentParameter: AnyObject {
    func schema(name: String) -> ParameterSchema
    var configurationValue: JSONValue { get }
    func assign(_ json: JSONValue?) async throws(_ParameterFailure)
    func options(for intent: Any) async throws -> ParameterOptions
}

extension IntentParameter: AnyIntentParameter {
    func schema(name: String) -> ParameterSchema {
        let fixedDefault = defaultValue.map(encoded).flatMap { $0 == .null ? nil : $0 }
        return ParameterSchema(
            name: name, title: title, type: kind ?? Value._parameterType, typeName: Value._typeName, isOptional: Value._isOptional,
            defaultValue: fixedDefault, cases: Value._cases, hasDynamicOptions: choices != nil || Value._hasQuery, range: range,
            isList: Value._isList, maximumCount: maximumCount)
    }

    var configurationValue: JSONValue { (value ?? defaultValue).map(encoded) ?? .null }

    /// A value on the wire, as the parameter's kind has it (an `NSNumber` of a boolean parameter is
    /// `true` or `false`, of an integer one a whole number).
    func encoded(_ value: Value) -> JSONValue {
        let json = value._configurationValue
        switch (kind, json) {
        case (.boolean?, .number(let number)): return .bool(number != 0)
        case (.integer?, .number(let number)): return .number(number.rounded(.towardZero))
        default: return json
        }
    }

    /// `json` nil: the configuration leaves the parameter out, so it takes its default. JSON null:
    /// no value, which an optional parameter may have (even one with a default).
    func assign(_ json: JSONValue?) async throws(_ParameterFailure) {
        switch json {
        case .none:
            value = nil
        case .null? where Value._isOptional:
            value = Value._none
        case .null?:
            value = nil
        case let json?:
            if let problem = ParameterSchema.boundsProblem(json, isList: Value._isList, range: range, maximumCount: maximumCount) {
                throw _ParameterFailure(problem)
            }
            value = try await Value._decode(json, choices: choices)
        }
        if value == nil, defaultValue == nil, !Value._isOptional { throw _ParameterFailure("it needs a value and has none") }
    }

    func options(for intent: Any) async throws -> ParameterOptions {
        // The parameter's options provider, else its entity type's query, else its fixed cases.
        // A list's options are its elements'.
        var loaded = try await choices?.load(intent)
        if loaded == nil { loaded = try await Value._suggestions() }
        guard let loaded else {
            return ParameterOptions(options: Value._cases, defaultValue: defaultValue.map(encoded))
        }
        let chosen = loaded.default.flatMap(Value._option).map { Value._isList ? JSONValue.array([$0.value]) : $0.value }
        return ParameterOptions(
            options: loaded.values.compactMap(Value._option), defaultValue: chosen ?? defaultValue.map(encoded))
    }
}

/// An intent's parameters, by reflection: each `@Parameter` property, in declaration order, named
/// as the property is.
enum IntentParameters {
    static func of(_ intent: Any) -> [(name: String, parameter: AnyIntentParameter)] {
        var found: [(String, AnyIntentParameter)] = []
        var mirror: Mirror? = Mirror(reflecting: intent)
        var levels: [Mirror] = []
        while let current = mirror {
            levels.append(current)
            mirror = current.superclassMirror
        }
        // A superclass's parameters come first, as it declares them first.
        for level in levels.reversed() {
            for child in level.children {
                guard let parameter = child.value as? AnyIntentParameter, let label = child.label else { continue }
                found.append((label.hasPrefix("_") ? String(label.dropFirst()) : label, parameter))
            }
        }
        return found
    }

    static func schema(of intent: Any, title: String, description: String) -> ConfigurationSchema {
        ConfigurationSchema(
            title: title, description: description, parameters: of(intent).map { $0.parameter.schema(name: $0.name) })
    }

    /// Fills `intent` from a configuration's JSON. A parameter the configuration omits gets its default.
    /// `partially`, a parameter that cannot take its value (one not chosen yet, on its way to a
    /// configuration) is passed over and the others are filled still.
    static func fill(_ intent: Any, from configuration: String, partially: Bool = false) async throws(_ParameterFailure) {
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(configuration)
        } catch {
            throw _ParameterFailure("the configuration is not JSON: \(error)")
        }
        guard let object = parsed.objectValue else { throw _ParameterFailure("the configuration is not a JSON object") }
        for (name, parameter) in of(intent) {
            do {
                try await parameter.assign(object[name])
            } catch where !partially {
                throw _ParameterFailure("parameter \"\(name)\": \(error)")
            } catch {
                continue
            }
        }
    }

    /// An intent's values as a configuration's JSON.
    static func configuration(of intent: Any) -> JSONObject {
        JSONObject(of(intent).map { ($0.name, $0.parameter.configurationValue) })
    }

    static func options(of intent: Any, parameter name: String?) async throws -> ParameterOptions {
        guard let name else { throw _ParameterFailure("an options request names no parameter") }
        let parameters = of(intent)
        guard let parameter = parameters.first(where: { $0.name == name })?.parameter else {
            throw _ParameterFailure(
                "no parameter \"\(name)\" (parameters: \(parameters.map(\.name).joined(separator: ", ")))")
        }
        return try await parameter.options(for: intent)
    }
}
