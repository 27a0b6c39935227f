public import Foundation
public import WidgetWire

/// A value a parameter can hold: strings, numbers, booleans, dates, URLs, `AppEnum`s, `AppEntity`s,
/// SiriKit-style `INObject`s, and optionals of these. Not for authors to conform to.
public protocol _IntentValue {
    static var _parameterType: ParameterType { get }
    /// The enum cases, or the entity type's name.
    static var _typeName: String? { get }
    static var _cases: [ParameterOption] { get }
    static var _isOptional: Bool { get }
    /// Whether it is a list of values (`[City]`).
    static var _isList: Bool { get }
    /// A choice's option, for a value of this type or, for a list, of its elements; nil for another.
    static func _option(_ choice: Any) -> ParameterOption?
    /// Whether the type has a query that offers its values (an `AppEntity`).
    static var _hasQuery: Bool { get }
    /// An optional's nil, for a parameter with no value; nil for other types.
    static var _none: Self? { get }
    /// The value in a configuration's JSON.
    var _configurationValue: JSONValue { get }
    var _displayRepresentation: DisplayRepresentation { get }
    /// The value for `json`. `choices` are what the parameter's options provider offers, where an
    /// entity's identifier is looked up (SiriKit style).
    static func _decode(_ json: JSONValue, choices: _Choices?) async throws(_ParameterFailure) -> Self
    /// An entity type's suggestions and default (its query's), nil for other types.
    static func _suggestions() async throws -> (values: [Any], default: Any?)?
}

extension _IntentValue {
    public static var _typeName: String? { nil }
    public static var _cases: [ParameterOption] { [] }
    public static var _isOptional: Bool { false }
    public static var _isList: Bool { false }
    public static func _option(_ choice: Any) -> ParameterOption? {
        guard let value = choice as? Self else { return nil }
        let display = value._displayRepresentation
        return ParameterOption(value: value._configurationValue, title: display.title.text, subtitle: display.subtitle?.text)
    }
    public static var _hasQuery: Bool { false }
    public static var _none: Self? { nil }
    public static func _suggestions() async throws -> (values: [Any], default: Any?)? { nil }
    public var _displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: LocalizedStringResource(_configurationValue.displayText)) }
}

/// Why a configuration value does not make a parameter's value; the SDK names the parameter.
public struct _ParameterFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }

    static func type(_ expected: String, _ json: JSONValue) -> _ParameterFailure {
        _ParameterFailure("expected \(expected), got \(json.jsonText)")
    }
}

/// The choices a parameter's options provider offers, loaded on first use; given the intent being
/// configured where there is one (SiriKit's handlers are asked with it).
public struct _Choices: Sendable {
    let load: @Sendable (_ intent: Any?) async throws -> (values: [Any], default: Any?)

    init(load: @escaping @Sendable (_ intent: Any?) async throws -> (values: [Any], default: Any?)) {
        self.load = load
    }

    init<Provider: DynamicOptionsProvider>(_ provider: Provider) {
        load = { _ in (try await provider.results().map { $0 as Any }, await provider.defaultResult().map { $0 as Any }) }
    }
}

extension String: _IntentValue {
    public static var _parameterType: ParameterType { .string }
    public var _configurationValue: JSONValue { .string(self) }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> String {
        guard let value = json.stringValue else { throw .type("a string", json) }
        return value
    }
}

extension Int: _IntentValue {
    public static var _parameterType: ParameterType { .integer }
    public var _configurationValue: JSONValue { .number(Double(self)) }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> Int {
        guard let number = json.numberValue, let value = Int(exactly: number) else { throw .type("an integer", json) }
        return value
    }
}

extension Double: _IntentValue {
    public static var _parameterType: ParameterType { .double }
    public var _configurationValue: JSONValue { .number(self) }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> Double {
        guard let value = json.numberValue else { throw .type("a number", json) }
        return value
    }
}

extension Bool: _IntentValue {
    public static var _parameterType: ParameterType { .boolean }
    public var _configurationValue: JSONValue { .bool(self) }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> Bool {
        guard let value = json.boolValue else { throw .type("true or false", json) }
        return value
    }
}

extension Date: _IntentValue {
    public static var _parameterType: ParameterType { .date }
    public var _configurationValue: JSONValue { .string(ISO8601DateFormatter().string(from: self)) }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> Date {
        guard let text = json.stringValue, let value = ISO8601DateFormatter().date(from: text) else {
            throw .type("a date in ISO 8601", json)
        }
        return value
    }
}

extension URL: _IntentValue {
    public static var _parameterType: ParameterType { .url }
    public var _configurationValue: JSONValue { .string(absoluteString) }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> URL {
        guard let text = json.stringValue, let value = URL(string: text), value.scheme != nil else { throw .type("an absolute URL", json) }
        return value
    }
}

extension Array: _IntentValue where Element: _IntentValue {
    public static var _parameterType: ParameterType { Element._parameterType }
    public static var _typeName: String? { Element._typeName }
    public static var _cases: [ParameterOption] { Element._cases }
    public static var _isList: Bool { true }
    public static var _hasQuery: Bool { Element._hasQuery }
    public static func _option(_ choice: Any) -> ParameterOption? { Element._option(choice) }
    public var _configurationValue: JSONValue { .array(map(\._configurationValue)) }
    public var _displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: LocalizedStringResource(map { $0._displayRepresentation.title.text }.joined(separator: ", ")))
    }
    public static func _decode(_ json: JSONValue, choices: _Choices?) async throws(_ParameterFailure) -> [Element] {
        guard let items = json.arrayValue else { throw .type("a list", json) }
        var values: [Element] = []
        for item in items { values.append(try await Element._decode(item, choices: choices)) }
        return values
    }
    public static func _suggestions() async throws -> (values: [Any], default: Any?)? { try await Element._suggestions() }
}

extension Optional: _IntentValue where Wrapped: _IntentValue {
    public static var _parameterType: ParameterType { Wrapped._parameterType }
    public static var _typeName: String? { Wrapped._typeName }
    public static var _cases: [ParameterOption] { Wrapped._cases }
    public static var _isOptional: Bool { true }
    public static var _isList: Bool { Wrapped._isList }
    public static func _option(_ choice: Any) -> ParameterOption? { Wrapped._option(choice) }
    public static var _hasQuery: Bool { Wrapped._hasQuery }
    public static var _none: Wrapped?? { .some(nil) }
    public var _configurationValue: JSONValue { self?._configurationValue ?? .null }
    public var _displayRepresentation: DisplayRepresentation { self?._displayRepresentation ?? "none" }
    public static func _decode(_ json: JSONValue, choices: _Choices?) async throws(_ParameterFailure) -> Wrapped? {
        if json == .null { return nil }
        return try await Wrapped._decode(json, choices: choices)
    }
    public static func _suggestions() async throws -> (values: [Any], default: Any?)? {
        try await Wrapped._suggestions()
    }
}
