import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// A publisher of one data task's answer, started when a subscriber asks for it, cancelled with it.
    public struct DataTaskPublisher: Publisher, @unchecked Sendable {
        public typealias Output = (data: Data, response: URLResponse)
        public typealias Failure = URLError
        public let request: URLRequest
        public let session: URLSession

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == URLError {
            let subscription = ValueSubscription(subscriber)
            let resolve = UncheckedBox(subscription.resolve)
            let task = session.dataTask(with: request) { data, response, error in
                if let data, let response {
                    resolve.value(.success((data, response)))
                } else {
                    resolve.value(.failure((error as? URLError) ?? URLError(.unknown)))
                }
            }
            subscriber.receive(subscription: TaskSubscription(subscription, task: task))
        }
    }

    /// Starts the task at the first demand; cancels it with the subscription.
    final class TaskSubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable {
        private let inner: ValueSubscription<Downstream>
        private let lock = NSLock()
        private var task: URLSessionDataTask?

        init(_ inner: ValueSubscription<Downstream>, task: URLSessionDataTask) {
            self.inner = inner
            self.task = task
        }

        func request(_ demand: Subscribers.Demand) {
            guard demand > 0 else { return }
            inner.request(demand)
            let task = lock.withLock {
                defer { self.task = nil }
                return self.task
            }
            task?.resume()
        }

        func cancel() {
            inner.cancel()
            lock.withLock { task }?.cancel()
        }
    }

    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher { DataTaskPublisher(request: URLRequest(url: url), session: self) }
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher { DataTaskPublisher(request: request, session: self) }
}

/// A publisher that starts publishing when connected (`Timer.publish(...).autoconnect()`).
public protocol ConnectablePublisher: Publisher {
    func connect() -> any Cancellable
}

extension ConnectablePublisher {
    /// Connects when the first subscriber arrives; the connection lasts while subscribers do.
    public func autoconnect() -> AnyPublisher<Output, Failure> {
        let connection = AutoConnection()
        return AnyPublisher { subscriber in
            self.subscribe(
                AnySubscriber<Output, Failure>(
                    receiveSubscription: { subscription in
                        // The subscription keeps the connection: released with the last one.
                        subscriber.receive(subscription: RemovingSubscription(subscription) { connection.release() })
                    }, receiveValue: { subscriber.receive($0) }, receiveCompletion: { subscriber.receive(completion: $0) }))
            connection.connect(self)
        }
    }
}

/// The connection `autoconnect()` makes, shared by its subscribers.
final class AutoConnection: @unchecked Sendable {
    private let lock = NSLock()
    private var connection: (any Cancellable)?
    private var subscribers = 0

    func connect<P: ConnectablePublisher>(_ publisher: P) {
        let first: Bool = lock.withLock {
            subscribers += 1
            return connection == nil
        }
        guard first else { return }
        let made = publisher.connect()
        lock.withLock { connection = made }
    }

    func release() {
        let ended: (any Cancellable)? = lock.withLock {
            subscribers -= 1
            guard subscribers <= 0 else { return nil }
            defer { connection = nil }
            return connection
        }
        ended?.cancel()
    }
}

extension Timer {
    /// The date at every interval, once connected: `Timer.publish(every: 1, on: .main, in: .common).autoconnect()`.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        public typealias Output = Date
        public typealias Failure = Never
        public let interval: TimeInterval
        public let tolerance: TimeInterval?
        public let runLoop: RunLoop
        public let mode: RunLoop.Mode
        private let subject = PassthroughSubject<Date, Never>()

        public init(interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never { subject.receive(subscriber: subscriber) }

        /// Starts the timer (on the main queue for the main run loop, else a queue of its own).
        public func connect() -> any Cancellable {
            let queue = runLoop === RunLoop.main ? DispatchQueue.main : DispatchQueue(label: "Timer.publish")
            let source = DispatchSource.makeTimerSource(queue: queue)
            let step = max(0.001, interval)
            source.schedule(deadline: .now() + step, repeating: step, leeway: .milliseconds(Int((tolerance ?? 0) * 1000)))
            let subject = subject
            source.setEventHandler { subject.send(Date()) }
            source.resume()
            return AnyCancellable { source.cancel() }
        }
    }

    public static func publish(
        every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }
}

extension NotificationCenter {
    /// Each notification of a name (and object) posted to the center.
    public struct Publisher: Combine.Publisher, @unchecked Sendable {
        public typealias Output = Notification
        public typealias Failure = Never
        public let center: NotificationCenter
        public let name: Notification.Name
        public let object: AnyObject?

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subject = PassthroughSubject<Notification, Never>()
            let token = center.addObserver(forName: name, object: object, queue: nil) { subject.send($0) }
            let center = center
            subject.receive(
                subscriber: AnySubscriber<Notification, Never>(
                    receiveSubscription: { subscription in
                        subscriber.receive(subscription: RemovingSubscription(subscription) { center.removeObserver(token) })
                    }, receiveValue: { subscriber.receive($0) }, receiveCompletion: { subscriber.receive(completion: $0) }))
        }
    }

    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> Publisher { Publisher(center: self, name: name, object: object) }
}

/// A subscription that does something more when cancelled.
final class RemovingSubscription: Subscription, @unchecked Sendable {
    private let inner: any Subscription
    private let onCancel: () -> Void

    init(_ inner: any Subscription, onCancel: @escaping () -> Void) {
        self.inner = inner
        self.onCancel = onCancel
    }

    func request(_ demand: Subscribers.Demand) { inner.request(demand) }
    func cancel() {
        inner.cancel()
        onCancel()
    }
}
