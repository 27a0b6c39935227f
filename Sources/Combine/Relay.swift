import Foundation

/// One subscription of an operator: the operator's subscriber upstream and its subscription
/// downstream, which passes demand up, values and the completion down through the operator's
/// closures, and stops everything once finished or cancelled. Thread-safe, as Combine's are.
final class Relay<Input, Failure: Error, Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var upstream: (any Subscription)?
    private var done = false
    let downstream: Downstream
    /// A value: what to pass down (through `relay.send`), returning more demand for upstream.
    private let value: (Relay, Input) -> Subscribers.Demand
    /// The completion from upstream.
    private let completion: (Relay, Subscribers.Completion<Failure>) -> Void
    /// Demand asked of upstream beyond what downstream asks, with its first request (`dropFirst`
    /// skips values).
    private var extraDemand: Subscribers.Demand

    init(
        _ downstream: Downstream, extraDemand: Subscribers.Demand = .none, value: @escaping (Relay, Input) -> Subscribers.Demand,
        completion: @escaping (Relay, Subscribers.Completion<Failure>) -> Void
    ) {
        self.downstream = downstream
        self.value = value
        self.completion = completion
        self.extraDemand = extraDemand
    }

    var isDone: Bool { lock.withLock { done } }

    func receive(subscription: any Subscription) {
        let accepted: Bool = lock.withLock {
            guard upstream == nil, !done else { return false }
            upstream = subscription
            return true
        }
        guard accepted else { return subscription.cancel() }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard !isDone else { return .none }
        return value(self, input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard finish() else { return }
        self.completion(self, completion)
    }

    func request(_ demand: Subscribers.Demand) {
        let (subscription, first) = lock.withLock {
            defer { extraDemand = .none }
            return (upstream, extraDemand)
        }
        subscription?.request(demand + first)
    }

    func cancel() {
        let subscription: (any Subscription)? = lock.withLock {
            done = true
            defer { upstream = nil }
            return upstream
        }
        subscription?.cancel()
    }

    /// Marks it finished (once): true for the first call.
    @discardableResult
    func finish() -> Bool {
        lock.withLock {
            guard !done else { return false }
            done = true
            upstream = nil
            return true
        }
    }

    /// Ends it from the middle (an operator's own failure or end): upstream is cancelled, downstream told.
    func end(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let subscription: (any Subscription)? = lock.withLock {
            guard !done else { return nil }
            done = true
            defer { upstream = nil }
            return upstream ?? Subscriptions.empty
        }
        guard let subscription else { return }
        subscription.cancel()
        downstream.receive(completion: completion)
    }
}

/// What delivers one value and finishes, when asked (`Just`, a `Future`'s result).
final class ValueSubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var downstream: Downstream?
    private var result: Result<Downstream.Input, Downstream.Failure>?
    private var requested = false

    init(_ downstream: Downstream) { self.downstream = downstream }

    /// The result to deliver; delivered now if it was asked for.
    func resolve(_ result: Result<Downstream.Input, Downstream.Failure>) {
        lock.withLock { self.result = result }
        deliver()
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.withLock { requested = true }
        deliver()
    }

    private func deliver() {
        let ready: (Downstream, Result<Downstream.Input, Downstream.Failure>)? = lock.withLock {
            guard requested || (result.map { if case .failure = $0 { true } else { false } } ?? false), let downstream, let result else { return nil }
            self.downstream = nil
            return (downstream, result)
        }
        guard let (downstream, result) = ready else { return }
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }

    func cancel() { lock.withLock { downstream = nil } }
}
