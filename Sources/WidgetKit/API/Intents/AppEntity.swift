public import Foundation
public import WidgetWire

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
    public static var _typeName: String? { typeDisplayRepresentation.name.text }
    public var _configurationValue: JSONValue { .string(id.entityIdentifierString) }
    public var _displayRepresentation: DisplayRepresentation { displayRepresentation }

    public static func _decode(_ json: JSONValue, choices: _Choices?) async throws(_ParameterFailure) -> Self {
        guard let text = json.stringValue, let id = ID.entityIdentifier(for: text) else { throw .type("an identifier", json) }
        let found: [Self]
        do {
            found = try await defaultQuery.entities(for: [id])
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
        let query = defaultQuery
        return (try await query.suggestedEntities(), await query.defaultResult())
    }
}

/// A property of an entity that Shortcuts and Siri may show and query (`@Property(title: "Name") var
/// name: String`, given its value in the entity's `init`). Here a value with a title: no system
/// queries it. A class, as Apple's: copies of an entity share it.
@propertyWrapper
public final class EntityProperty<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    public let title: LocalizedStringResource

    public init(title: LocalizedStringResource) { self.title = title }

    public init(wrappedValue: Value, title: LocalizedStringResource) {
        value = wrappedValue
        self.title = title
    }

    public convenience init(title: LocalizedStringResource, identifier: String) { self.init(title: title) }

    public var wrappedValue: Value {
        get {
            guard let current = lock.withLock({ value }) else {
                preconditionFailure("the entity property '\(title.text)' was read before the entity's init gave it a value")
            }
            return current
        }
        set { lock.withLock { value = newValue } }
    }

    public var projectedValue: EntityProperty<Value> { self }
}

extension AppEntity {
    /// `@Property` in an entity, as Apple's `AppEntity.Property`.
    public typealias Property<Value> = EntityProperty<Value>
}
