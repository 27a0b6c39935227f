public import Dispatch

/// A serial queue that is an executor, as Darwin's `DispatchSerialQueue` (iOS 17) is: an actor may
/// run its jobs on it (`queue.asUnownedSerialExecutor()`). Linux's Dispatch has no such class, and
/// its `DispatchQueue` cannot be subclassed, so this one holds a serial `DispatchQueue` and offers
/// the calls widget code makes on it.
public final class DispatchSerialQueue: SerialExecutor, @unchecked Sendable {
    /// The queue underneath, for an API that takes a `DispatchQueue`.
    public let queue: DispatchQueue

    public init(
        label: String, qos: DispatchQoS = .unspecified, autoreleaseFrequency: DispatchQueue.AutoreleaseFrequency = .inherit,
        target: DispatchQueue? = nil
    ) {
        queue = DispatchQueue(label: label, qos: qos, attributes: [], autoreleaseFrequency: autoreleaseFrequency, target: target)
    }

    public var label: String { queue.label }

    public func async(group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable () -> Void) {
        queue.async(group: group, qos: qos, flags: flags, execute: work)
    }

    public func async(execute workItem: DispatchWorkItem) { queue.async(execute: workItem) }

    public func sync<T>(execute work: () throws -> T) rethrows -> T { try queue.sync(execute: work) }

    public func asyncAfter(deadline: DispatchTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: deadline, qos: qos, flags: flags, execute: work)
    }

    public func asyncAfter(deadline: DispatchTime, execute workItem: DispatchWorkItem) { queue.asyncAfter(deadline: deadline, execute: workItem) }

    public func asyncAfter(wallDeadline: DispatchWallTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(wallDeadline: wallDeadline, qos: qos, flags: flags, execute: work)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    /// Whether the caller runs on this queue.
    public func checkIsolated() { dispatchPrecondition(condition: .onQueue(queue)) }
}
