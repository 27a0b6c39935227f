import Foundation

extension Publishers {
    /// Each value transformed.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let transform: (Upstream.Output) -> Output

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = transform
            upstream.subscribe(
                Relay<Upstream.Output, Failure, S>(
                    subscriber, value: { relay, input in relay.downstream.receive(transform(input)) },
                    completion: { relay, completion in relay.downstream.receive(completion: completion) }))
        }
    }

    /// Each value transformed by a closure that may throw: a throw fails the publisher with the error.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let transform: (Upstream.Output) throws -> Output

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let transform = transform
            upstream.subscribe(
                Relay<Upstream.Output, Upstream.Failure, S>(
                    subscriber,
                    value: { relay, input in
                        do {
                            return relay.downstream.receive(try transform(input))
                        } catch {
                            relay.end(.failure(error))
                            return .none
                        }
                    },
                    completion: { relay, completion in relay.downstream.receive(completion: completion.eraseFailure()) }))
        }
    }

    /// The values a closure turns into something, the nil ones left out.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let transform: (Upstream.Output) -> Output?

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = transform
            upstream.subscribe(
                Relay<Upstream.Output, Failure, S>(
                    subscriber,
                    // A value left out is replaced by asking upstream for one more.
                    value: { relay, input in transform(input).map { relay.downstream.receive($0) } ?? .max(1) },
                    completion: { relay, completion in relay.downstream.receive(completion: completion) }))
        }
    }

    /// The values a closure lets through.
    public struct Filter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let isIncluded: (Upstream.Output) -> Bool

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isIncluded = isIncluded
            upstream.subscribe(
                Relay<Output, Failure, S>(
                    subscriber, value: { relay, input in isIncluded(input) ? relay.downstream.receive(input) : .max(1) },
                    completion: { relay, completion in relay.downstream.receive(completion: completion) }))
        }
    }

    /// The first value (or the first a closure accepts), then finished.
    public struct First<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        let predicate: (Upstream.Output) -> Bool

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = predicate
            upstream.subscribe(
                Relay<Output, Failure, S>(
                    subscriber,
                    value: { relay, input in
                        guard predicate(input) else { return .max(1) }
                        _ = relay.downstream.receive(input)
                        relay.end(.finished)
                        return .none
                    },
                    completion: { relay, completion in relay.downstream.receive(completion: completion) }))
        }
    }

    /// The values after the first `count`.
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let count: Int

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let dropped = Counter()
            let count = count
            upstream.subscribe(
                Relay<Output, Failure, S>(
                    subscriber, extraDemand: .max(count),
                    value: { relay, input in dropped.next() < count ? .none : relay.downstream.receive(input) },
                    completion: { relay, completion in relay.downstream.receive(completion: completion) }))
        }
    }

    /// Each value decoded (a `Data` by a `JSONDecoder`, say); a value that does not decode fails it.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher where Upstream.Output == Coder.Input {
        public typealias Failure = any Error
        public let upstream: Upstream
        let decoder: Coder

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let decoder = decoder
            upstream.tryMap { try decoder.decode(Output.self, from: $0) }.receive(subscriber: subscriber)
        }
    }

    /// A failure replaced by one value, then finished.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never
        public let upstream: Upstream
        public let output: Upstream.Output

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            let output = output
            upstream.subscribe(
                Relay<Output, Upstream.Failure, S>(
                    subscriber, value: { relay, input in relay.downstream.receive(input) },
                    completion: { relay, completion in
                        if case .failure = completion { _ = relay.downstream.receive(output) }
                        relay.downstream.receive(completion: .finished)
                    }))
        }
    }

    /// A failure replaced by the publisher a closure makes of the error.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher where NewPublisher.Output == Upstream.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = NewPublisher.Failure
        public let upstream: Upstream
        public let handler: (Upstream.Failure) -> NewPublisher

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = handler
            let demand = DemandLedger()
            let bridge = AnySubscriber<Output, Failure>(
                receiveSubscription: { subscription in
                    demand.replace(subscription)
                },
                receiveValue: { value in
                    demand.delivered()
                    return subscriber.receive(value)
                },
                receiveCompletion: { subscriber.receive(completion: $0) })
            upstream.subscribe(
                AnySubscriber<Output, Upstream.Failure>(
                    receiveSubscription: { subscription in
                        demand.replace(subscription)
                        subscriber.receive(subscription: demand)
                    },
                    receiveValue: { value in
                        demand.delivered()
                        return subscriber.receive(value)
                    },
                    receiveCompletion: { completion in
                        switch completion {
                        case .finished: subscriber.receive(completion: .finished)
                        case .failure(let error): handler(error).subscribe(bridge)
                        }
                    }))
        }
    }

    /// Values and the completion delivered on a scheduler (`.receive(on: DispatchQueue.main)`).
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: Context
        public let options: Context.SchedulerOptions?

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let scheduler = scheduler
            let options = options
            upstream.subscribe(
                Relay<Output, Failure, S>(
                    subscriber,
                    value: { relay, input in
                        let value = UncheckedBox(input)
                        scheduler.schedule(options: options) {
                            let more = relay.downstream.receive(value.value)
                            if more > 0 { relay.request(more) }
                        }
                        return .none
                    },
                    completion: { relay, completion in
                        let completion = UncheckedBox(completion)
                        scheduler.schedule(options: options) { relay.downstream.receive(completion: completion.value) }
                    }))
        }
    }
}

/// A value carried to another thread by a scheduler, as Combine carries it.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A count, taken one at a time from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The count before this call.
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}

/// The demand a `catch` owes downstream, carried from the failed upstream to its replacement.
final class DemandLedger: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var owed = Subscribers.Demand.none
    private var current: (any Subscription)?

    func replace(_ subscription: any Subscription) {
        let owed: Subscribers.Demand = lock.withLock {
            current = subscription
            return self.owed
        }
        if owed > 0 { subscription.request(owed) }
    }

    func delivered() { lock.withLock { owed -= 1 } }

    func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock {
            owed += demand
            return current
        }
        subscription?.request(demand)
    }

    func cancel() {
        let subscription = lock.withLock {
            defer { current = nil }
            return current
        }
        subscription?.cancel()
    }
}

extension Subscribers.Completion {
    /// The same completion, its error as any error.
    func eraseFailure() -> Subscribers.Completion<any Error> {
        switch self {
        case .finished: .finished
        case .failure(let error): .failure(error)
        }
    }
}

/// A decoder `decode(type:decoder:)` takes: `JSONDecoder`, `PropertyListDecoder`.
public protocol TopLevelDecoder {
    associatedtype Input
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

extension JSONDecoder: TopLevelDecoder {}
extension PropertyListDecoder: TopLevelDecoder {}

extension Publisher {
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> { Publishers.Map(upstream: self, transform: transform) }
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> { Publishers.Filter(upstream: self, isIncluded: isIncluded) }
    public func first() -> Publishers.First<Self> { Publishers.First(upstream: self, predicate: { _ in true }) }
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.First<Self> { Publishers.First(upstream: self, predicate: predicate) }
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> { Publishers.Drop(upstream: self, count: max(0, count)) }
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(type: Item.Type, decoder: Coder) -> Publishers.Decode<Self, Item, Coder>
    where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> { Publishers.ReplaceError(upstream: self, output: output) }
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P> where P.Output == Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }

    /// The values with a failure type a chain needs (a publisher that cannot fail).
    public func setFailureType<E: Error>(to failureType: E.Type) -> AnyPublisher<Output, E> where Failure == Never {
        AnyPublisher { subscriber in
            self.subscribe(
                AnySubscriber<Output, Never>(
                    receiveSubscription: { subscriber.receive(subscription: $0) }, receiveValue: { subscriber.receive($0) },
                    receiveCompletion: { _ in subscriber.receive(completion: .finished) }))
        }
    }

    /// Any error of the chain as `any Error`.
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> AnyPublisher<Output, E> {
        AnyPublisher { subscriber in
            self.subscribe(
                AnySubscriber<Output, Failure>(
                    receiveSubscription: { subscriber.receive(subscription: $0) }, receiveValue: { subscriber.receive($0) },
                    receiveCompletion: { completion in
                        switch completion {
                        case .finished: subscriber.receive(completion: .finished)
                        case .failure(let error): subscriber.receive(completion: .failure(transform(error)))
                        }
                    }))
        }
    }
}
