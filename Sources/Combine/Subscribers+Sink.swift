import Foundation

extension Subscribers {
    /// Asks for every value and hands each, and the completion, to closures: what `sink` attaches.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
        public let receiveValue: (Input) -> Void
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        private let lock = NSLock()
        private var subscription: (any Subscription)?
        private var cancelled = false

        public init(receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void, receiveValue: @escaping (Input) -> Void) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        public func receive(subscription: any Subscription) {
            let keep: Bool = lock.withLock {
                guard !cancelled, self.subscription == nil else { return false }
                self.subscription = subscription
                return true
            }
            guard keep else { return subscription.cancel() }
            subscription.request(.unlimited)
        }

        public func receive(_ input: Input) -> Subscribers.Demand {
            if lock.withLock({ cancelled }) { return .none }
            receiveValue(input)
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            let live: Bool = lock.withLock {
                defer { subscription = nil }
                return !cancelled
            }
            if live { receiveCompletion(completion) }
        }

        public func cancel() {
            let subscription: (any Subscription)? = lock.withLock {
                cancelled = true
                defer { self.subscription = nil }
                return self.subscription
            }
            subscription?.cancel()
        }
    }

    /// Writes every value to a property of an object: what `assign(to:on:)` attaches.
    public final class Assign<Root, Input>: Subscriber, Cancellable, @unchecked Sendable {
        public typealias Failure = Never
        public private(set) var object: Root?
        public let keyPath: ReferenceWritableKeyPath<Root, Input>
        private let lock = NSLock()
        private var subscription: (any Subscription)?

        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.object = object
            self.keyPath = keyPath
        }

        public func receive(subscription: any Subscription) {
            lock.withLock { self.subscription = subscription }
            subscription.request(.unlimited)
        }

        public func receive(_ value: Input) -> Subscribers.Demand {
            if let object = lock.withLock({ object }) { object[keyPath: keyPath] = value }
            return .none
        }

        public func receive(completion: Subscribers.Completion<Never>) {
            lock.withLock {
                object = nil
                subscription = nil
            }
        }

        public func cancel() {
            let subscription: (any Subscription)? = lock.withLock {
                object = nil
                defer { self.subscription = nil }
                return self.subscription
            }
            subscription?.cancel()
        }
    }
}

extension Publisher {
    /// Hands every value, and the completion, to closures; cancelled when what it returns is released.
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void, receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }

    /// Writes every value to a property of an object.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(assign)
        return AnyCancellable(assign)
    }

    /// Writes every value to a `@Published` property, for as long as the property's object lives.
    public func assign(to published: inout Published<Output>.Publisher) {
        let box = published.box
        let sink = Subscribers.Sink<Output, Never>(receiveCompletion: { _ in }, receiveValue: { box.set($0) })
        subscribe(sink)
        box.keep(AnyCancellable(sink))
    }
}
