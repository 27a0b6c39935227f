import Foundation

/// An object that says when it is about to change: its `@Published` properties send through
/// `objectWillChange` before each change.
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher where ObjectWillChangePublisher.Failure == Never
    var objectWillChange: ObjectWillChangePublisher { get }
}

/// What an observable object's `objectWillChange` is by default.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    public typealias Output = Void
    public typealias Failure = Never
    private let subject = PassthroughSubject<Void, Never>()

    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never { subject.receive(subscriber: subscriber) }
    public func send() { subject.send(()) }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The object's publisher, shared by its `@Published` properties (found by reflection, as
    /// Combine finds them), made at first use.
    public var objectWillChange: ObservableObjectPublisher {
        var boxes: [any PublishedBoxProtocol] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let published = child.value as? any PublishedStorage { boxes.append(published.storageBox) }
            }
            mirror = current.superclassMirror
        }
        return ObjectPublishers.publisher(for: self, boxes: boxes)
    }
}

/// Each object's publisher: in its `@Published` properties' storage, or (for an object without
/// any) kept here while the object lives.
enum ObjectPublishers {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var others: [ObjectIdentifier: (object: Weak, publisher: ObservableObjectPublisher)] = [:]

    struct Weak {
        weak var object: AnyObject?
    }

    static func publisher(for object: AnyObject, boxes: [any PublishedBoxProtocol]) -> ObservableObjectPublisher {
        lock.withLock {
            if let existing = boxes.lazy.compactMap(\.objectPublisher).first { return existing }
            if boxes.isEmpty {
                others = others.filter { $0.value.object.object != nil }
                if let kept = others[ObjectIdentifier(object)], kept.object.object === object { return kept.publisher }
                let made = ObservableObjectPublisher()
                others[ObjectIdentifier(object)] = (Weak(object: object), made)
                return made
            }
            let made = ObservableObjectPublisher()
            for box in boxes { box.objectPublisher = made }
            return made
        }
    }
}

protocol PublishedBoxProtocol: AnyObject {
    var objectPublisher: ObservableObjectPublisher? { get set }
}

protocol PublishedStorage {
    var storageBox: any PublishedBoxProtocol { get }
}

/// A `@Published` property's storage: its value, its subscribers, its object's publisher.
public final class PublishedBox<Value>: PublishedBoxProtocol, @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var stored: Value
    let subject: CurrentValueSubject<Value, Never>
    var objectPublisher: ObservableObjectPublisher?
    private var kept: [AnyCancellable] = []

    init(_ value: Value) {
        stored = value
        subject = CurrentValueSubject(value)
    }

    var value: Value { lock.withLock { stored } }

    /// As Combine does: the object's publisher, then the property's subscribers, are told before
    /// the value changes.
    func set(_ value: Value) {
        objectPublisher?.send()
        subject.send(value)
        lock.withLock { stored = value }
    }

    func keep(_ cancellable: AnyCancellable) { lock.withLock { kept.append(cancellable) } }
}

/// A property that publishes its changes (`$name` is the publisher), and makes its object's
/// `objectWillChange` send before each.
@propertyWrapper
public struct Published<Value>: PublishedStorage {
    let box: PublishedBox<Value>
    var storageBox: any PublishedBoxProtocol { box }

    public init(wrappedValue: Value) { box = PublishedBox(wrappedValue) }
    public init(initialValue: Value) { self.init(wrappedValue: initialValue) }

    /// The value, as the object's property reads and writes it.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf, wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].box.value }
        set { object[keyPath: storageKeyPath].box.set(newValue) }
    }

    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher: its current value, then each new one.
    public var projectedValue: Publisher {
        get { Publisher(box: box) }
        set {}
    }

    public struct Publisher: Combine.Publisher {
        public typealias Output = Value
        public typealias Failure = Never
        let box: PublishedBox<Value>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never { box.subject.receive(subscriber: subscriber) }
    }
}
