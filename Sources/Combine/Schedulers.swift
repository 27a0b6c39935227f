import Foundation

/// Where work runs: what `receive(on:)` delivers on. Here a scheduler runs an action soon, in
/// order; Combine's time arithmetic (`schedule(after:)`) is not part of this subset.
public protocol Scheduler {
    associatedtype SchedulerOptions
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)
}

extension Scheduler {
    public func schedule(_ action: @escaping () -> Void) { schedule(options: nil, action) }
}

extension DispatchQueue: Scheduler {
    public struct SchedulerOptions: Sendable {
        public var qos: DispatchQoS
        public init(qos: DispatchQoS = .unspecified) { self.qos = qos }
    }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = UncheckedBox(action)
        async(qos: options?.qos ?? .unspecified) { action.value() }
    }
}

extension RunLoop: Scheduler {
    public struct SchedulerOptions: Sendable {}

    /// The main run loop's actions run on the main queue, which Linux's main thread serves.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = UncheckedBox(action)
        if self === RunLoop.main {
            DispatchQueue.main.async { action.value() }
        } else {
            perform { action.value() }
        }
    }
}

extension OperationQueue: Scheduler {
    public struct SchedulerOptions: Sendable {}

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = UncheckedBox(action)
        addOperation { action.value() }
    }
}

/// Runs every action at once, on the calling thread.
public struct ImmediateScheduler: Scheduler, Sendable {
    public typealias SchedulerOptions = Never
    public static let shared = ImmediateScheduler()
    public func schedule(options: Never?, _ action: @escaping () -> Void) { action() }
}
