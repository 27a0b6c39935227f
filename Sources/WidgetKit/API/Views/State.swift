public import Foundation

// An app's view state, which widget views may carry (views shared with the app): a widget's views
// are built once per entry, so state holds its initial value and nothing observes it.

/// A value a view owns (`@State`); in a widget it keeps its initial value.
@propertyWrapper
public struct State<Value>: @unchecked Sendable {
    private let box: _Box<Value>

    public init(wrappedValue value: Value) { box = _Box(value) }
    public init(initialValue value: Value) { box = _Box(value) }

    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    public var projectedValue: Binding<Value> {
        let box = box
        return Binding(get: { box.value }, set: { box.value = $0 })
    }
}

extension State where Value: ExpressibleByNilLiteral {
    public init() { self.init(wrappedValue: nil) }
}

/// A reference to a value owned elsewhere (`@Binding`).
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value>: @unchecked Sendable {
    let get: () -> Value
    let set: (Value) -> Void

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    public init(get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value, Transaction) -> Void) {
        self.get = get
        self.set = { set($0, Transaction()) }
    }

    /// A binding to a value that never changes.
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }

    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }

    public var projectedValue: Binding<Value> { self }
    public init(projectedValue: Binding<Value>) { self = projectedValue }

    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let get = self.get
        let set = self.set
        return Binding<Subject>(get: { get()[keyPath: keyPath] }, set: { value in
            var whole = get()
            whole[keyPath: keyPath] = value
            set(whole)
        })
    }
}

public struct Transaction: Sendable {
    public init() {}
}

final class _Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A value kept in user defaults (`@AppStorage("key", store: UserDefaults(suiteName: "group.…"))`):
/// read when the view is built. An App Group suite is synchronized around every provider call, so a
/// value the app saved is seen (docs/PORTING.md).
@propertyWrapper
public struct AppStorage<Value>: @unchecked Sendable {
    let read: () -> Value
    let write: (Value) -> Void

    public var wrappedValue: Value {
        get { read() }
        nonmutating set { write(newValue) }
    }

    public var projectedValue: Binding<Value> { Binding(get: read, set: write) }

    init(key: String, defaultValue: Value, store: UserDefaults?, decode: @escaping (Any) -> Value?, encode: @escaping (Value) -> Any?) {
        read = { (store ?? .standard).object(forKey: key).flatMap(decode) ?? defaultValue }
        write = { value in (store ?? .standard).set(encode(value), forKey: key) }
    }
}

extension AppStorage {
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Bool {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { $0 as? Bool }, encode: { $0 })
    }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Int {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { ($0 as? Int) ?? ($0 as? Double).map { Int($0) } }, encode: { $0 })
    }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Double {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { ($0 as? Double) ?? ($0 as? Int).map(Double.init) }, encode: { $0 })
    }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == String {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { $0 as? String }, encode: { $0 })
    }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == URL {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { ($0 as? String).flatMap(URL.init(string:)) }, encode: { $0.absoluteString })
    }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Data {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { $0 as? Data }, encode: { $0 })
    }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value: RawRepresentable, Value.RawValue == String {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { ($0 as? String).flatMap(Value.init(rawValue:)) }, encode: { $0.rawValue })
    }
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value: RawRepresentable, Value.RawValue == Int {
        self.init(key: key, defaultValue: wrappedValue, store: store, decode: { ($0 as? Int).flatMap(Value.init(rawValue:)) }, encode: { $0.rawValue })
    }
}

extension View {
    /// Runs when the view appears; a widget's views never appear as an app's do, so it never runs.
    public func onAppear(perform action: (() -> Void)? = nil) -> some View { unchanged }
    public func onDisappear(perform action: (() -> Void)? = nil) -> some View { unchanged }
    public func task(priority: TaskPriority = .userInitiated, _ action: @escaping @Sendable () async -> Void) -> some View { unchanged }
    public func task<T: Equatable>(id value: T, priority: TaskPriority = .userInitiated, _ action: @escaping @Sendable () async -> Void) -> some View { unchanged }
    public func onChange<V: Equatable>(of value: V, perform action: @escaping (V) -> Void) -> some View { unchanged }
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void) -> some View { unchanged }
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View { unchanged }
    /// What opens a URL the bundle is given (a tapped widgetURL or Link of its schemes, `widgets
    /// open`), when its export line gives no `onOpenURL`: as in an app, the view's handler.
    public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View {
        ViewURLHandler.register(action)
        return unchanged
    }
}

/// The latest `.onOpenURL` a view of the bundle registered.
enum ViewURLHandler {
    nonisolated(unsafe) private static var handler: ((URL) -> Void)?
    private static let lock = NSLock()

    static func register(_ action: @escaping (URL) -> Void) { lock.withLock { handler = action } }
    static var current: ((URL) -> Void)? { lock.withLock { handler } }
}
