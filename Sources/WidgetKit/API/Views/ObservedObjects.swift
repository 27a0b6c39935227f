public import Combine
public import WidgetWire

// An app's observable objects in views a widget shares with its app (`@StateObject var model`,
// `@ObservedObject`, `@EnvironmentObject`): a widget's views are built once per entry, so a view
// reads the object as it is; nothing re-renders when it changes.

/// An observable object a view owns: made once, when the view is.
@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: @unchecked Sendable {
    private let object: ObjectType

    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { object = thunk() }

    public var wrappedValue: ObjectType { object }
    public var projectedValue: ObservedObject<ObjectType>.Wrapper { ObservedObject<ObjectType>.Wrapper(object: object) }
}

/// An observable object a view is given.
@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: @unchecked Sendable {
    public var wrappedValue: ObjectType

    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    public init(initialValue: ObjectType) { wrappedValue = initialValue }

    public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }

    /// Bindings to the object's properties: `$model.name`.
    @dynamicMemberLookup
    public struct Wrapper {
        let object: ObjectType

        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
            let object = object
            return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
        }
    }
}

/// An observable object from the environment (`.environmentObject(_:)`); set by an ancestor view.
@propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: @unchecked Sendable {
    public init() {}

    public var wrappedValue: ObjectType {
        guard let object = EnvironmentObjects.current[ObjectIdentifier(ObjectType.self)]?.value as? ObjectType else {
            fatalError("No ObservableObject of type \(ObjectType.self) found: a view of this widget reads @EnvironmentObject, and no ancestor gave one with .environmentObject(_:)")
        }
        return object
    }

    public var projectedValue: ObservedObject<ObjectType>.Wrapper { ObservedObject<ObjectType>.Wrapper(object: wrappedValue) }
}

/// The objects `.environmentObject(_:)` gives the views below it, by type.
enum EnvironmentObjects {
    @TaskLocal static var current: [ObjectIdentifier: _UncheckedSendable<AnyObject>] = [:]
}

/// Gives the content an observable object its views read with `@EnvironmentObject`.
public struct _EnvironmentObjectModifier: ViewModifier {
    public typealias Body = Never
    let key: ObjectIdentifier
    let object: _UncheckedSendable<AnyObject>

    public func _apply(to content: _ViewModifier_Content<Self>, in environment: EnvironmentValues) -> [ViewNode] {
        var objects = EnvironmentObjects.current
        objects[key] = object
        return EnvironmentObjects.$current.withValue(objects) { content.resolve(environment) }
    }
}

extension View {
    /// Gives the view and everything in it an observable object (`@EnvironmentObject`).
    public func environmentObject<T: ObservableObject>(_ object: T) -> some View {
        modifier(_EnvironmentObjectModifier(key: ObjectIdentifier(T.self), object: _UncheckedSendable(object)))
    }
}
