import Foundation

// Operators that combine publishers, or watch them, which app code written for Combine uses with
// the ones in Operators.swift. Each asks its upstreams for every value (unlimited demand) and
// passes values down as they come, as a `sink` at the end of the chain asks anyway.

/// Forwards from several upstream subscriptions to one downstream subscriber, under one lock, and
/// ends everything once: the machinery `flatMap`, `merge` and `combineLatest` share.
final class Junction<Output, Failure: Error>: Subscription, @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var downstream: AnySubscriber<Output, Failure>?
    private var upstreams: [any Subscription] = []
    /// Upstreams (and inner publishers) still running.
    private var running: Int

    init(_ downstream: AnySubscriber<Output, Failure>, running: Int) {
        self.downstream = downstream
        self.running = running
    }

    func started(_ subscription: any Subscription) {
        let alive: Bool = lock.withLock {
            guard downstream != nil else { return false }
            upstreams.append(subscription)
            return true
        }
        guard alive else { return subscription.cancel() }
        subscription.request(.unlimited)
    }

    func adding() { lock.withLock { running += 1 } }

    func send(_ value: Output) {
        lock.lock()
        defer { lock.unlock() }
        _ = downstream?.receive(value)
    }

    /// One upstream finished: the downstream finishes with the last; a failure ends it at once.
    func ended(_ completion: Subscribers.Completion<Failure>) {
        let (target, others): (AnySubscriber<Output, Failure>?, [any Subscription]) = lock.withLock {
            running -= 1
            if case .finished = completion, running > 0 { return (nil, []) }
            defer {
                downstream = nil
                upstreams = []
            }
            return (downstream, upstreams)
        }
        guard let target else { return }
        for upstream in others { upstream.cancel() }
        target.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {}

    func cancel() {
        let others: [any Subscription] = lock.withLock {
            downstream = nil
            defer { upstreams = [] }
            return upstreams
        }
        for upstream in others { upstream.cancel() }
    }

    /// A subscriber feeding this junction.
    func feed<Input>(_ transform: @escaping (Input) -> Void) -> AnySubscriber<Input, Failure> {
        AnySubscriber(
            receiveSubscription: { [self] in started($0) },
            receiveValue: { input in
                transform(input)
                return .none
            }, receiveCompletion: { [self] in ended($0) })
    }
}

extension Publisher {
    /// Each value turned into a publisher, whose values are all passed down, as they come.
    public func flatMap<P: Publisher>(maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P) -> AnyPublisher<P.Output, Failure>
    where P.Failure == Failure {
        AnyPublisher { subscriber in
            let junction = Junction<P.Output, Failure>(subscriber, running: 1)
            subscriber.receive(subscription: junction)
            self.subscribe(
                junction.feed { value in
                    junction.adding()
                    transform(value).subscribe(junction.feed { junction.send($0) })
                })
        }
    }

    /// Values from this publisher and another, as they come; finished when both are.
    public func merge<P: Publisher>(with other: P) -> AnyPublisher<Output, Failure> where P.Output == Output, P.Failure == Failure {
        AnyPublisher { subscriber in
            let junction = Junction<Output, Failure>(subscriber, running: 2)
            subscriber.receive(subscription: junction)
            self.subscribe(junction.feed { junction.send($0) })
            other.subscribe(junction.feed { junction.send($0) })
        }
    }

    /// The latest value of each, paired, whenever either sends one (once both have).
    public func combineLatest<P: Publisher>(_ other: P) -> AnyPublisher<(Output, P.Output), Failure> where P.Failure == Failure {
        AnyPublisher { subscriber in
            let junction = Junction<(Output, P.Output), Failure>(subscriber, running: 2)
            let latest = Latest<Output, P.Output>()
            subscriber.receive(subscription: junction)
            self.subscribe(junction.feed { if let pair = latest.first($0) { junction.send(pair) } })
            other.subscribe(junction.feed { if let pair = latest.second($0) { junction.send(pair) } })
        }
    }

    /// Each value also handed to closures as it passes (and the subscription, completion and cancel).
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil, receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil, receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> AnyPublisher<Output, Failure> {
        AnyPublisher { subscriber in
            self.subscribe(
                AnySubscriber<Output, Failure>(
                    receiveSubscription: { subscription in
                        receiveSubscription?(subscription)
                        subscriber.receive(subscription: Watched(subscription, request: receiveRequest, cancel: receiveCancel))
                    },
                    receiveValue: { value in
                        receiveOutput?(value)
                        return subscriber.receive(value)
                    },
                    receiveCompletion: { completion in
                        receiveCompletion?(completion)
                        subscriber.receive(completion: completion)
                    }))
        }
    }

    /// Values different from the one before, by `predicate` (equal to be left out).
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> AnyPublisher<Output, Failure> {
        let previous = Previous<Output>()
        return filter { value in !previous.replace(with: value, sameAs: predicate) }.eraseToAnyPublisher()
    }

    /// Every value, in one array, when the publisher finishes.
    public func collect() -> AnyPublisher<[Output], Failure> {
        AnyPublisher { subscriber in
            let collected = Collected<Output>()
            self.subscribe(
                AnySubscriber<Output, Failure>(
                    receiveSubscription: { subscription in
                        subscriber.receive(subscription: subscription)
                        subscription.request(.unlimited)
                    },
                    receiveValue: { value in
                        collected.append(value)
                        return .none
                    },
                    receiveCompletion: { completion in
                        if case .finished = completion { _ = subscriber.receive(collected.all) }
                        subscriber.receive(completion: completion)
                    }))
        }
    }

    /// Values before this publisher's.
    public func prepend(_ elements: Output...) -> AnyPublisher<Output, Failure> {
        elements.publisher.setFailureType(to: Failure.self).append(self)
    }

    /// This publisher's values, then those of another.
    public func append<P: Publisher>(_ other: P) -> AnyPublisher<Output, Failure> where P.Output == Output, P.Failure == Failure {
        AnyPublisher { subscriber in
            let junction = Junction<Output, Failure>(subscriber, running: 1)
            subscriber.receive(subscription: junction)
            self.subscribe(
                AnySubscriber<Output, Failure>(
                    receiveSubscription: { junction.started($0) },
                    receiveValue: { value in
                        junction.send(value)
                        return .none
                    },
                    receiveCompletion: { completion in
                        guard case .finished = completion else { return junction.ended(completion) }
                        other.subscribe(junction.feed { junction.send($0) })
                    }))
        }
    }

    public func append(_ elements: Output...) -> AnyPublisher<Output, Failure> {
        append(elements.publisher.setFailureType(to: Failure.self))
    }

    /// On failure, subscribes again, at most `retries` times.
    public func retry(_ retries: Int) -> AnyPublisher<Output, Failure> {
        guard retries > 0 else { return eraseToAnyPublisher() }
        return self.catch { _ in self.retry(retries - 1) }.eraseToAnyPublisher()
    }
}

extension Publisher where Output: Equatable {
    public func removeDuplicates() -> AnyPublisher<Output, Failure> { removeDuplicates(by: ==) }
}

/// The latest values of two publishers.
final class Latest<A, B>: @unchecked Sendable {
    private let lock = NSLock()
    private var a: A?
    private var b: B?

    func first(_ value: A) -> (A, B)? {
        lock.withLock {
            a = value
            return b.map { (value, $0) }
        }
    }

    func second(_ value: B) -> (A, B)? {
        lock.withLock {
            b = value
            return a.map { ($0, value) }
        }
    }
}

/// The value before.
final class Previous<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    /// Whether `new` is the same as the value before, which it replaces.
    func replace(with new: Value, sameAs same: (Value, Value) -> Bool) -> Bool {
        lock.withLock {
            defer { value = new }
            return value.map { same($0, new) } ?? false
        }
    }
}

/// The values so far.
final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
}

/// A subscription whose requests and cancel are also told to closures.
final class Watched: Subscription, @unchecked Sendable {
    private let inner: any Subscription
    private let onRequest: ((Subscribers.Demand) -> Void)?
    private let onCancel: (() -> Void)?

    init(_ inner: any Subscription, request: ((Subscribers.Demand) -> Void)?, cancel: (() -> Void)?) {
        self.inner = inner
        onRequest = request
        onCancel = cancel
    }

    func request(_ demand: Subscribers.Demand) {
        onRequest?(demand)
        inner.request(demand)
    }

    func cancel() {
        onCancel?()
        inner.cancel()
    }
}
