// The part of Apple's Combine that widget and app code uses, with Apple's names and signatures:
// publishers, subscribers and their demand, subscriptions, cancellation. Linux has no Combine; a
// widget file written for iOS imports this one.
import Foundation

/// A type that can be cancelled.
public protocol Cancellable {
    func cancel()
}

/// A unique identifier of a publisher or subscriber.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    private let value: UInt64

    private static let counter = NSLock()
    nonisolated(unsafe) private static var next: UInt64 = 0

    public init() {
        value = Self.counter.withLock {
            Self.next += 1
            return Self.next
        }
    }

    public init(_ object: AnyObject) { value = UInt64(UInt(bitPattern: ObjectIdentifier(object).hashValue)) }

    public var description: String { "0x\(String(value, radix: 16))" }
}

public protocol CustomCombineIdentifierConvertible {
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

/// A connection between a publisher and a subscriber: the subscriber asks it for values.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    func request(_ demand: Subscribers.Demand)
}

/// Receives a subscription, then values as it asks for them, then at most one completion.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    associatedtype Input
    associatedtype Failure: Error
    func receive(subscription: any Subscription)
    func receive(_ input: Input) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<Failure>)
}

/// Delivers values to subscribers over time.
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches a subscriber.
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}

public enum Subscribers {
    /// How many more values a subscriber wants: a number, or unlimited.
    public struct Demand: Equatable, Comparable, Hashable, Sendable, CustomStringConvertible {
        /// nil: unlimited.
        let count: Int?

        public static let unlimited = Demand(count: nil)
        public static let none = Demand(count: 0)
        public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "a demand cannot be negative")
            return Demand(count: value)
        }

        public var max: Int? { count }

        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            guard let left = lhs.count, let right = rhs.count else { return .unlimited }
            let (sum, overflow) = left.addingReportingOverflow(right)
            return overflow ? .unlimited : Demand(count: sum)
        }
        public static func + (lhs: Demand, rhs: Int) -> Demand { lhs + .max(Swift.max(0, rhs)) }
        public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }
        public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }
        /// Less, never below none; unlimited stays unlimited.
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            guard let left = lhs.count else { return .unlimited }
            guard let right = rhs.count else { return .none }
            return Demand(count: Swift.max(0, left - right))
        }
        public static func - (lhs: Demand, rhs: Int) -> Demand { lhs - .max(Swift.max(0, rhs)) }
        public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }
        public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }
        public static func < (lhs: Demand, rhs: Demand) -> Bool {
            switch (lhs.count, rhs.count) {
            case (nil, _): false
            case (_, nil): true
            case (let left?, let right?): left < right
            }
        }
        public static func == (lhs: Demand, rhs: Int) -> Bool { lhs.count == rhs }
        public static func > (lhs: Demand, rhs: Int) -> Bool { lhs.count.map { $0 > rhs } ?? true }

        public var description: String { count.map { "max(\($0))" } ?? "unlimited" }
    }

    /// How a publisher ended.
    public enum Completion<Failure: Error> {
        case finished
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

/// What a subscription that has ended is: one that does nothing.
public enum Subscriptions {
    public static var empty: any Subscription { EmptySubscription() }

    final class EmptySubscription: Subscription {
        func request(_ demand: Subscribers.Demand) {}
        func cancel() {}
    }
}

/// A cancellable that cancels when it is released, or when told: what `sink` and `assign` return.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    private let lock = NSLock()
    private var action: (() -> Void)?

    public init(_ cancel: @escaping () -> Void) { action = cancel }
    public init<C: Cancellable>(_ canceller: C) { action = { canceller.cancel() } }

    deinit { cancel() }

    public func cancel() {
        let action = lock.withLock {
            defer { self.action = nil }
            return self.action
        }
        action?()
    }

    /// Keeps the cancellable in a collection, so it lives as long as the collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    public func store(in set: inout Set<AnyCancellable>) { set.insert(self) }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Cancellable {
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    public func store(in set: inout Set<AnyCancellable>) { AnyCancellable(self).store(in: &set) }
}
