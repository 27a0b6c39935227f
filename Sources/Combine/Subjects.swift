import Foundation

/// A publisher that code sends values into.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    func send(_ value: Output)
    func send(completion: Subscribers.Completion<Failure>)
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    public func send() { send(()) }
}

/// What the subjects share: their subscribers, each with its demand, and how they end.
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    final class Conduit: Subscription, @unchecked Sendable {
        let lock = NSRecursiveLock()
        var downstream: AnySubscriber<Output, Failure>?
        var demand = Subscribers.Demand.none
        weak var subject: SubjectCore?

        init(_ downstream: AnySubscriber<Output, Failure>, subject: SubjectCore) {
            self.downstream = downstream
            self.subject = subject
        }

        func request(_ more: Subscribers.Demand) {
            lock.withLock { demand += more }
            subject?.demanded(self)
        }

        func cancel() {
            lock.withLock { downstream = nil }
            subject?.remove(self)
        }

        /// Delivers a value if it is wanted: a subject drops what no one asked for, as Combine's does.
        func offer(_ value: Output) -> Bool {
            let target: AnySubscriber<Output, Failure>? = lock.withLock {
                guard demand > 0, let downstream else { return nil }
                demand -= 1
                return downstream
            }
            guard let target else { return false }
            let more = target.receive(value)
            lock.withLock { demand += more }
            return true
        }

        func finish(_ completion: Subscribers.Completion<Failure>) {
            let target = lock.withLock {
                defer { downstream = nil }
                return downstream
            }
            target?.receive(completion: completion)
        }
    }

    let lock = NSRecursiveLock()
    var conduits: [Conduit] = []
    var completion: Subscribers.Completion<Failure>?
    var upstreams: [any Subscription] = []

    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = Conduit(AnySubscriber(subscriber), subject: self)
        let ended: Subscribers.Completion<Failure>? = lock.withLock {
            if completion == nil { conduits.append(conduit) }
            return completion
        }
        subscriber.receive(subscription: conduit)
        if let ended { conduit.finish(ended) }
    }

    func remove(_ conduit: Conduit) { lock.withLock { conduits.removeAll { $0 === conduit } } }

    /// A subscriber asked for more (a current value subject delivers its value then).
    var onDemand: ((Conduit) -> Void)?

    func demanded(_ conduit: Conduit) { onDemand?(conduit) }

    func sendToAll(_ value: Output) {
        let current: [Conduit] = lock.withLock { completion == nil ? conduits : [] }
        for conduit in current { _ = conduit.offer(value) }
    }

    func complete(_ completion: Subscribers.Completion<Failure>) {
        let current: [Conduit] = lock.withLock {
            guard self.completion == nil else { return [] }
            self.completion = completion
            defer { conduits = [] }
            return conduits
        }
        for conduit in current { conduit.finish(completion) }
    }

    func keep(_ subscription: any Subscription) {
        lock.withLock { upstreams.append(subscription) }
        subscription.request(.unlimited)
    }
}

/// Sends each value to the subscribers there when it is sent (and that asked for it).
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    private let core = SubjectCore<Output, Failure>()

    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure { core.attach(subscriber) }
    public func send(_ value: Output) { core.sendToAll(value) }
    public func send(completion: Subscribers.Completion<Failure>) { core.complete(completion) }
    public func send(subscription: any Subscription) { core.keep(subscription) }
}

/// Holds a value, sends it to each new subscriber, and sends every new value to them all.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    private let core = SubjectCore<Output, Failure>()
    private var current: Output
    /// Subscribers that have had the current value.
    private var served: Set<ObjectIdentifier> = []

    public init(_ value: Output) {
        current = value
        core.onDemand = { [unowned self] conduit in deliverCurrent(to: conduit) }
    }

    /// The current value; setting it sends it.
    public var value: Output {
        get { core.lock.withLock { current } }
        set { send(newValue) }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure { core.attach(subscriber) }

    private func deliverCurrent(to conduit: SubjectCore<Output, Failure>.Conduit) {
        let value: Output? = core.lock.withLock {
            guard core.completion == nil, !served.contains(ObjectIdentifier(conduit)) else { return nil }
            return current
        }
        guard let value, conduit.offer(value) else { return }
        core.lock.withLock { _ = served.insert(ObjectIdentifier(conduit)) }
    }

    public func send(_ value: Output) {
        let conduits: [SubjectCore<Output, Failure>.Conduit] = core.lock.withLock {
            guard core.completion == nil else { return [] }
            current = value
            return core.conduits
        }
        for conduit in conduits where conduit.offer(value) {
            core.lock.withLock { _ = served.insert(ObjectIdentifier(conduit)) }
        }
    }

    public func send(completion: Subscribers.Completion<Failure>) { core.complete(completion) }
    public func send(subscription: any Subscription) { core.keep(subscription) }
}
