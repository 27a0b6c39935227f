import Foundation

/// A namespace for the publishers operators return.
public enum Publishers {}

/// Publishes one value, then finishes.
public struct Just<Output>: Publisher {
    public typealias Failure = Never
    public let output: Output

    public init(_ output: Output) { self.output = output }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let subscription = ValueSubscription(subscriber)
        subscriber.receive(subscription: subscription)
        subscription.resolve(.success(output))
    }

    /// The same value, with a failure type a chain needs.
    public func setFailureType<E: Error>(to failureType: E.Type) -> AnyPublisher<Output, E> {
        let output = output
        return AnyPublisher { subscriber in
            let subscription = ValueSubscription(subscriber)
            subscriber.receive(subscription: subscription)
            subscription.resolve(.success(output))
        }
    }
}

/// Runs its closure once, when made, and publishes the result it is promised to every subscriber.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    public typealias Promise = (Result<Output, Failure>) -> Void

    private let lock = NSLock()
    private var result: Result<Output, Failure>?
    private var waiting: [(Result<Output, Failure>) -> Void] = []

    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in
            let waiting: [(Result<Output, Failure>) -> Void] = lock.withLock {
                guard self.result == nil else { return [] }
                self.result = result
                defer { self.waiting = [] }
                return self.waiting
            }
            for resolve in waiting { resolve(result) }
        }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = ValueSubscription(subscriber)
        subscriber.receive(subscription: subscription)
        let known: Result<Output, Failure>? = lock.withLock {
            if result == nil { waiting.append { subscription.resolve($0) } }
            return result
        }
        if let known { subscription.resolve(known) }
    }
}

/// Finishes at once (or never, with `completeImmediately: false`), publishing nothing.
public struct Empty<Output, Failure: Error>: Publisher {
    public let completeImmediately: Bool

    public init(completeImmediately: Bool = true) { self.completeImmediately = completeImmediately }
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately { subscriber.receive(completion: .finished) }
    }
}

/// Fails at once with an error.
public struct Fail<Output, Failure: Error>: Publisher {
    public let error: Failure

    public init(error: Failure) { self.error = error }
    public init(outputType: Output.Type, failure: Failure) { error = failure }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

/// Makes its publisher when a subscriber arrives.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    public typealias Output = DeferredPublisher.Output
    public typealias Failure = DeferredPublisher.Failure
    public let createPublisher: () -> DeferredPublisher

    public init(createPublisher: @escaping () -> DeferredPublisher) { self.createPublisher = createPublisher }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().receive(subscriber: subscriber)
    }
}

/// A publisher whose type is hidden: what `eraseToAnyPublisher()` makes.
public struct AnyPublisher<Output, Failure: Error>: Publisher {
    private let subscribe: (AnySubscriber<Output, Failure>) -> Void

    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        subscribe = { publisher.receive(subscriber: $0) }
    }

    init(_ subscribe: @escaping (AnySubscriber<Output, Failure>) -> Void) { self.subscribe = subscribe }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribe(AnySubscriber(subscriber))
    }
}

/// A subscriber whose type is hidden.
public struct AnySubscriber<Input, Failure: Error>: Subscriber {
    public let combineIdentifier: CombineIdentifier
    private let subscription: (any Subscription) -> Void
    private let value: (Input) -> Subscribers.Demand
    private let completion: (Subscribers.Completion<Failure>) -> Void

    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        combineIdentifier = subscriber.combineIdentifier
        subscription = subscriber.receive(subscription:)
        value = subscriber.receive(_:)
        completion = subscriber.receive(completion:)
    }

    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil, receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        combineIdentifier = CombineIdentifier()
        subscription = receiveSubscription ?? { _ in }
        value = receiveValue ?? { _ in .none }
        completion = receiveCompletion ?? { _ in }
    }

    public func receive(subscription: any Subscription) { self.subscription(subscription) }
    public func receive(_ input: Input) -> Subscribers.Demand { value(input) }
    public func receive(completion: Subscribers.Completion<Failure>) { self.completion(completion) }
}

extension Publisher {
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}

extension Publishers {
    /// A sequence's elements, as they are asked for, then finished: `[1, 2, 3].publisher`.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        public typealias Output = Elements.Element
        public let sequence: Elements

        public init(sequence: Elements) { self.sequence = sequence }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SequenceSubscription(subscriber, sequence.makeIterator())
            subscriber.receive(subscription: subscription)
            // An empty sequence finishes with no demand.
            subscription.request(.none)
        }
    }

    final class SequenceSubscription<Downstream: Subscriber, Iterator: IteratorProtocol>: Subscription, @unchecked Sendable
    where Iterator.Element == Downstream.Input {
        private let lock = NSRecursiveLock()
        private var downstream: Downstream?
        private var iterator: Iterator
        /// The next element, read ahead: the last one delivered is followed by the completion at
        /// once, as Combine's is, without waiting for more demand.
        private var next: Iterator.Element?
        private var demand = Subscribers.Demand.none
        private var delivering = false

        init(_ downstream: Downstream, _ iterator: Iterator) {
            self.downstream = downstream
            self.iterator = iterator
            next = self.iterator.next()
        }

        func request(_ more: Subscribers.Demand) {
            lock.lock()
            demand += more
            // A subscriber may ask for more from inside receive: the loop below serves it.
            guard !delivering else { return lock.unlock() }
            delivering = true
            while let downstream {
                guard let element = next else {
                    self.downstream = nil
                    lock.unlock()
                    downstream.receive(completion: .finished)
                    lock.lock()
                    break
                }
                guard demand > 0 else { break }
                demand -= 1
                next = iterator.next()
                lock.unlock()
                let added = downstream.receive(element)
                lock.lock()
                demand += added
            }
            delivering = false
            lock.unlock()
        }

        func cancel() { lock.withLock { downstream = nil } }
    }
}

extension Swift.Sequence {
    public var publisher: Publishers.Sequence<Self, Never> { Publishers.Sequence(sequence: self) }
}
