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
    /// False only for the stand-in of a form of `description` the intent did not declare.
    let isDeclared: Bool

    public init(stringLiteral value: String) { self.init(LocalizedStringResource(value)) }
    public init(_ descriptionText: LocalizedStringResource) {
        self.descriptionText = descriptionText
        isDeclared = true
    }
    init(_undeclared: Void) {
        descriptionText = LocalizedStringResource("")
        isDeclared = false
    }
    public init(
        _ descriptionText: LocalizedStringResource, categoryName: LocalizedStringResource? = nil, searchKeywords: [LocalizedStringResource] = [],
        resultValueName: LocalizedStringResource? = nil
    ) {
        self.init(descriptionText)
    }
}

/// How a value displays: a title and, optionally, a subtitle and an image.
public struct DisplayRepresentation: ExpressibleByStringInterpolation, Sendable {
    public var title: LocalizedStringResource
    public var subtitle: LocalizedStringResource?
    public var image: Image?

    public init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: Image? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }

    public init(stringLiteral value: String) { self.init(title: LocalizedStringResource(value)) }

    /// The image shown beside a value: a system symbol, or a named one.
    public struct Image: Sendable {
        public let name: String
        public init(systemName: String, isTemplate: Bool = true) { name = systemName }
        public init(named name: String, isTemplate: Bool = false) { self.name = name }
        public init(url: URL, isTemplate: Bool = false) { name = url.absoluteString }
        public init(data: Data, isTemplate: Bool = false) { name = "data" }
    }
}

/// How a type's name displays ("Character", "Coin").
public struct TypeDisplayRepresentation: ExpressibleByStringInterpolation, Sendable {
    public var name: LocalizedStringResource

    public init(name: LocalizedStringResource) { self.name = name }
    public init(stringLiteral value: String) { name = LocalizedStringResource(value) }
}

public protocol TypeDisplayRepresentable: SendableMetatype {
    @MainActor static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
}

/// Reads a static value an author declared for an intent, enum or entity (its title, description,
/// display representations, query), from any thread.
///
/// Authors declare these as Apple's templates do, `static var title: LocalizedStringResource = "…"`.
/// Swift 6 refuses a mutable static unless it is isolated, so the requirements are `@MainActor`
/// and such a declaration is isolated to the main actor by inference, and compiles. The values are
/// set once, when first read (`swift_once`, safe from any thread), and never written after: the
/// host reads them while it registers widgets and answers requests, on whatever thread that is.
@inline(__always)
func declared<T>(_ read: @MainActor () -> T) -> T {
    withoutActuallyEscaping(read) { escaping in unsafeBitCast(escaping, to: (() -> T).self)() }
}

// MARK: - Intents

/// The result of `perform()`.
public protocol IntentResult: Sendable {}

/// A result that returns a value (`some IntentResult & ReturnsValue<Int>`).
public protocol ReturnsValue<Value>: IntentResult {
    associatedtype Value
}

/// A result that speaks a dialog.
public protocol ProvidesDialog: IntentResult {}

/// A result that shows a view.
public protocol ShowsSnippetView: IntentResult {}

/// A result that opens another intent.
public protocol OpensIntent: IntentResult {}

/// What an intent says when it is done (not shown here: an intent runs from a widget's button).
public struct IntentDialog: ExpressibleByStringInterpolation, Sendable {
    public let text: String
    public init(stringLiteral value: String) { text = value }
    public init(_ text: LocalizedStringResource) { self.text = text.key }
    public init(full: LocalizedStringResource, supporting: LocalizedStringResource) { text = full.key }
}

public struct _IntentResultValue<Value>: IntentResult, ReturnsValue, ProvidesDialog, ShowsSnippetView, OpensIntent, @unchecked Sendable {
    let value: Value?
}

extension IntentResult where Self == _IntentResultValue<Never> {
    /// A result with nothing to return.
    public static func result() -> Self { _IntentResultValue(value: nil) }
    public static func result(dialog: IntentDialog) -> Self { _IntentResultValue(value: nil) }
    public static func result<Content: View>(dialog: IntentDialog, @ViewBuilder view: () -> Content) -> Self { _IntentResultValue(value: nil) }
    public static func result<Content: View>(@ViewBuilder view: () -> Content) -> Self { _IntentResultValue(value: nil) }
    public static func result<I: AppIntent>(opensIntent: I) -> Self { _IntentResultValue(value: nil) }
}

extension IntentResult {
    /// A result returning a value.
    public static func result<V>(value: V) -> _IntentResultValue<V> where Self == _IntentResultValue<V> { _IntentResultValue(value: value) }
    public static func result<V>(value: V, dialog: IntentDialog) -> _IntentResultValue<V> where Self == _IntentResultValue<V> {
        _IntentResultValue(value: value)
    }
}

/// An action or a configuration, with parameters declared by `@Parameter`.
///
/// Its `description` may be declared either way authors write it: `static var description:
/// IntentDescription? = …` (Apple's declared type) or `static var description = IntentDescription("…")`
/// (Apple's templates, not optional). On iOS a build step reads the value from the source, whatever
/// its type; here each form is the witness of a requirement of its own (`_OptionalIntentDescribing`,
/// `_IntentDescribing`), and `_description` reads whichever the intent declared.
public protocol AppIntent: _IntentDescribing, _OptionalIntentDescribing, SendableMetatype {
    associatedtype PerformResult: IntentResult
    associatedtype SummaryContent: ParameterSummary = _NoParameterSummary
    @MainActor static var title: LocalizedStringResource { get }
    /// Whether running the intent opens the app (it cannot, here: the intent runs in the widget).
    @MainActor static var openAppWhenRun: Bool { get }
    @MainActor static var isDiscoverable: Bool { get }
    @MainActor static var authenticationPolicy: IntentAuthenticationPolicy { get }
    /// How the intent's parameters read as a sentence in a configuration screen.
    @ParameterSummaryBuilder<Self> static var parameterSummary: SummaryContent { get }
    init()
    func perform() async throws -> PerformResult
}

/// An intent's description declared as Apple's templates write it, not optional.
public protocol _IntentDescribing {
    @MainActor static var description: IntentDescription { get }
}

/// An intent's description declared with Apple's type, `IntentDescription?`.
public protocol _OptionalIntentDescribing {
    @MainActor static var description: IntentDescription? { get }
}

extension _IntentDescribing {
    /// Not declared in this form: an empty description, which `_description` passes over.
    public static var description: IntentDescription { IntentDescription(_undeclared: ()) }
}

extension _OptionalIntentDescribing {
    public static var description: IntentDescription? { nil }
}

extension AppIntent {
    /// The description the intent declared, in either form; nil where it declared none.
    public static var _description: IntentDescription? {
        let plain = declared { (Self.self as any _IntentDescribing.Type).description }
        return plain.isDeclared ? plain : declared { (Self.self as any _OptionalIntentDescribing.Type).description }
    }

    public static var openAppWhenRun: Bool { false }
    public static var isDiscoverable: Bool { true }
    public static var authenticationPolicy: IntentAuthenticationPolicy { .alwaysAllowed }
}

extension AppIntent where SummaryContent == _NoParameterSummary {
    public static var parameterSummary: _NoParameterSummary { _NoParameterSummary() }
}

/// Whether an intent may run on a locked device (it always may, here).
public struct IntentAuthenticationPolicy: Sendable {
    public static let alwaysAllowed = IntentAuthenticationPolicy()
    public static let requiresAuthentication = IntentAuthenticationPolicy()
    public static let requiresLocalDeviceAuthentication = IntentAuthenticationPolicy()
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
    @MainActor static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    public static var _parameterType: ParameterType { .enumeration }
    public static var _typeName: String? { declared { typeDisplayRepresentation.name.key } }
    public static var _cases: [ParameterOption] {
        allCases.map { value in
            let display = value._displayRepresentation
            return ParameterOption(value: value._configurationValue, title: display.title.key, subtitle: display.subtitle?.key)
        }
    }
    public var _configurationValue: JSONValue { .string(String(describing: rawValue)) }
    public var _displayRepresentation: DisplayRepresentation {
        declared { Self.caseDisplayRepresentations }[self] ?? DisplayRepresentation(title: LocalizedStringResource(String(describing: rawValue)))
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
    @MainActor static var defaultQuery: DefaultQuery { get }
    var displayRepresentation: DisplayRepresentation { get }
}

extension AppEntity {
    public static var defaultQuery: DefaultQuery { DefaultQuery() }
    public static var _parameterType: ParameterType { .entity }
    public static var _hasQuery: Bool { true }
    public static var _typeName: String? { declared { typeDisplayRepresentation.name.key } }
    public var _configurationValue: JSONValue { .string(id.entityIdentifierString) }
    public var _displayRepresentation: DisplayRepresentation { displayRepresentation }

    public static func _decode(_ json: JSONValue, choices: _Choices?) async throws(_ParameterFailure) -> Self {
        guard let text = json.stringValue, let id = ID.entityIdentifier(for: text) else { throw .type("an identifier", json) }
        let found: [Self]
        do {
            found = try await declared { defaultQuery }.entities(for: [id])
        } catch {
            throw _ParameterFailure("the \(_typeName ?? "\(Self.self)") query failed to resolve \"\(text)\": \(error)")
        }
        guard let entity = found.first(where: { $0.id == id }) else {
            throw _ParameterFailure(
                "no \(_typeName ?? "\(Self.self)") has the identifier \"\(text)\" any more (entities(for:) returned none)")
        }
        return entity
    }

    public static func _suggestions() async throws -> (values: [Any], default: Any?)? {
        let query = declared { defaultQuery }
        return (try await query.suggestedEntities(), await query.defaultResult())
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
