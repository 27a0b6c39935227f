public import Foundation
public import WidgetWire

// The App Intents names a configurable widget uses, with Apple's signatures. Values a user configures
// travel as JSON (docs/CONFIGURATION.md): the SDK describes each intent's parameters to the host,
// and fills a fresh intent from an instance's configuration before each request.

/// A string the system shows a person (Apple's type lives in Foundation; Linux's Foundation lacks it).
public struct LocalizedStringResource: ExpressibleByStringInterpolation, Sendable, Equatable, CustomStringConvertible {
    public let key: String

    public init(stringLiteral value: String) { key = value }
    public init(_ key: String) { self.key = key }
    public var description: String { key }
}

extension String {
    public init(localized resource: LocalizedStringResource) { self = resource.key }
}

/// What an intent does, shown under its title.
public struct IntentDescription: ExpressibleByStringInterpolation, Sendable {
    public let descriptionText: LocalizedStringResource

    public init(stringLiteral value: String) { descriptionText = LocalizedStringResource(value) }
    public init(_ descriptionText: LocalizedStringResource) { self.descriptionText = descriptionText }
}

/// How a value displays: a title and, optionally, a subtitle.
public struct DisplayRepresentation: ExpressibleByStringInterpolation, Sendable {
    public var title: LocalizedStringResource
    public var subtitle: LocalizedStringResource?

    public init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil) {
        self.title = title
        self.subtitle = subtitle
    }

    public init(stringLiteral value: String) { self.init(title: LocalizedStringResource(value)) }
}

/// How a type's name displays ("Character", "Coin").
public struct TypeDisplayRepresentation: ExpressibleByStringInterpolation, Sendable {
    public var name: LocalizedStringResource

    public init(name: LocalizedStringResource) { self.name = name }
    public init(stringLiteral value: String) { name = LocalizedStringResource(value) }
}

public protocol TypeDisplayRepresentable {
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
}

// MARK: - Intents

/// The result of `perform()`.
public protocol IntentResult: Sendable {}

public struct _IntentResultValue: IntentResult {}

extension IntentResult where Self == _IntentResultValue {
    /// A result with nothing to return.
    public static func result() -> Self { _IntentResultValue() }
}

/// An action or a configuration, with parameters declared by `@Parameter`.
public protocol AppIntent: SendableMetatype {
    associatedtype PerformResult: IntentResult
    static var title: LocalizedStringResource { get }
    static var description: IntentDescription? { get }
    init()
    func perform() async throws -> PerformResult
}

extension AppIntent {
    public static var description: IntentDescription? { nil }
}

/// The intent a configurable widget's instances are configured with.
public protocol WidgetConfigurationIntent: AppIntent {}

extension WidgetConfigurationIntent {
    /// A configuration has nothing to perform.
    public func perform() async throws -> some IntentResult { .result() }
}

// MARK: - Parameter values

/// A value a parameter can hold: strings, numbers, booleans, dates, URLs, `AppEnum`s, `AppEntity`s,
/// SiriKit-style `INObject`s, and optionals of these. Not for authors to conform to.
public protocol _IntentValue {
    static var _parameterType: ParameterType { get }
    /// The enum cases, or the entity type's name.
    static var _typeName: String? { get }
    static var _cases: [ParameterOption] { get }
    static var _isOptional: Bool { get }
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

/// The choices a parameter's options provider offers, loaded on first use.
public struct _Choices: Sendable {
    let load: @Sendable () async throws -> (values: [Any], default: Any?)

    init(load: @escaping @Sendable () async throws -> (values: [Any], default: Any?)) {
        self.load = load
    }

    init<Provider: DynamicOptionsProvider>(_ provider: Provider) {
        load = { (try await provider.results().map { $0 as Any }, await provider.defaultResult().map { $0 as Any }) }
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

extension Optional: _IntentValue where Wrapped: _IntentValue {
    public static var _parameterType: ParameterType { Wrapped._parameterType }
    public static var _typeName: String? { Wrapped._typeName }
    public static var _cases: [ParameterOption] { Wrapped._cases }
    public static var _isOptional: Bool { true }
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

// MARK: - Enums

/// A fixed set of choices, such as a coin.
///
///     enum Coin: String, AppEnum {
///         case btc, eth, ltc
///         static var typeDisplayRepresentation: TypeDisplayRepresentation { "Coin" }
///         static var caseDisplayRepresentations: [Coin: DisplayRepresentation] {
///             [.btc: "Bitcoin", .eth: "Ethereum", .ltc: "Litecoin"]
///         }
///     }
public protocol AppEnum: _IntentValue, RawRepresentable, CaseIterable, Hashable, TypeDisplayRepresentable
where RawValue: LosslessStringConvertible {
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    public static var _parameterType: ParameterType { .enumeration }
    public static var _typeName: String? { typeDisplayRepresentation.name.key }
    public static var _cases: [ParameterOption] {
        allCases.map { value in
            let display = value._displayRepresentation
            return ParameterOption(value: value._configurationValue, title: display.title.key, subtitle: display.subtitle?.key)
        }
    }
    public var _configurationValue: JSONValue { .string(String(describing: rawValue)) }
    public var _displayRepresentation: DisplayRepresentation {
        Self.caseDisplayRepresentations[self] ?? DisplayRepresentation(title: LocalizedStringResource(String(describing: rawValue)))
    }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> Self {
        guard let text = json.stringValue else { throw .type("one of \(caseList)", json) }
        guard let raw = RawValue(text), let value = Self(rawValue: raw) else {
            throw _ParameterFailure("\"\(text)\" is not one of \(caseList)")
        }
        return value
    }
    private static var caseList: String { allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }
}

// MARK: - Entities

/// An identifier type an entity can have: written as a string in a configuration.
public protocol EntityIdentifierConvertible: Hashable, Sendable {
    var entityIdentifierString: String { get }
    static func entityIdentifier(for entityIdentifierString: String) -> Self?
}

extension String: EntityIdentifierConvertible {
    public var entityIdentifierString: String { self }
    public static func entityIdentifier(for entityIdentifierString: String) -> String? { entityIdentifierString }
}

extension Int: EntityIdentifierConvertible {
    public var entityIdentifierString: String { String(self) }
    public static func entityIdentifier(for entityIdentifierString: String) -> Int? { Int(entityIdentifierString) }
}

extension UUID: EntityIdentifierConvertible {
    public var entityIdentifierString: String { uuidString }
    public static func entityIdentifier(for entityIdentifierString: String) -> UUID? { UUID(uuidString: entityIdentifierString) }
}

/// Finds entities: by identifier (an instance's stored choice, before each request), and the
/// suggestions a configuration screen offers.
public protocol EntityQuery: Sendable {
    associatedtype Entity: AppEntity
    init()
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
    func suggestedEntities() async throws -> [Entity]
    func defaultResult() async -> Entity?
}

extension EntityQuery {
    public func suggestedEntities() async throws -> [Entity] { [] }
    public func defaultResult() async -> Entity? { nil }
}

/// A thing a person chooses from a list the app supplies (a game character, a city). An instance
/// stores only its identifier; the query resolves it before each request, as on iOS.
public protocol AppEntity: _IntentValue, Identifiable, TypeDisplayRepresentable, Sendable where ID: EntityIdentifierConvertible {
    associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self
    static var defaultQuery: DefaultQuery { get }
    var displayRepresentation: DisplayRepresentation { get }
}

extension AppEntity {
    public static var defaultQuery: DefaultQuery { DefaultQuery() }
    public static var _parameterType: ParameterType { .entity }
    public static var _hasQuery: Bool { true }
    public static var _typeName: String? { typeDisplayRepresentation.name.key }
    public var _configurationValue: JSONValue { .string(id.entityIdentifierString) }
    public var _displayRepresentation: DisplayRepresentation { displayRepresentation }

    public static func _decode(_ json: JSONValue, choices: _Choices?) async throws(_ParameterFailure) -> Self {
        guard let text = json.stringValue, let id = ID.entityIdentifier(for: text) else { throw .type("an identifier", json) }
        let found: [Self]
        do {
            found = try await defaultQuery.entities(for: [id])
        } catch {
            throw _ParameterFailure("the \(typeDisplayRepresentation.name.key) query failed to resolve \"\(text)\": \(error)")
        }
        guard let entity = found.first(where: { $0.id == id }) else {
            throw _ParameterFailure(
                "no \(typeDisplayRepresentation.name.key) has the identifier \"\(text)\" any more (entities(for:) returned none)")
        }
        return entity
    }

    public static func _suggestions() async throws -> (values: [Any], default: Any?)? {
        (try await defaultQuery.suggestedEntities(), await defaultQuery.defaultResult())
    }
}

// MARK: - Dynamic options

/// Supplies a parameter's choices at run time: `@Parameter(title: "Symbol", optionsProvider: SymbolOptions())`.
public protocol DynamicOptionsProvider: Sendable {
    associatedtype DefaultValue: _IntentValue
    func results() async throws -> [DefaultValue]
    func defaultResult() async -> DefaultValue?
}

extension DynamicOptionsProvider {
    public func defaultResult() async -> DefaultValue? { nil }
}

// MARK: - Recommendations

/// A preconfigured instance a provider suggests (`recommendations()`).
public struct AppIntentRecommendation<Intent: WidgetConfigurationIntent> {
    public let intent: Intent
    public let description: String

    public init(intent: Intent, description: LocalizedStringResource) {
        self.intent = intent
        self.description = description.key
    }

    public init(intent: Intent, description: some StringProtocol) {
        self.intent = intent
        self.description = String(description)
    }
}
