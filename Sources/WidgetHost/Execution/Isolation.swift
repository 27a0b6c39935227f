import Foundation
import WidgetSupport

/// How bundles are kept apart from the host and from each other.
public enum Isolation: Sendable {
    /// Each provider on its own Dispatch queue in the host process, under the memory guard. Fast,
    /// but a bundle that crashes takes the host with it.
    case queue
    /// Each bundle in a worker process of its own (its providers on their queues inside it): a crash,
    /// a hang or memory over the limit ends that worker only, which restarts with backoff.
    case process(ProcessIsolation)
}

/// The settings of process isolation.
public struct ProcessIsolation: Sendable {
    /// The executable started as a worker; it must call `WidgetWorker.main` when its first argument
    /// is `WidgetWorker.flag` (the `widgets` CLI does).
    public var workerExecutable: String
    /// After this many crashes within `crashWindow`, a bundle is disabled until the host restarts.
    public var maximumCrashes = 5
    public var crashWindow: TimeInterval = 3600
    /// The wait before restarting after the first crash; it doubles with each crash in the window,
    /// up to `maximumBackoff`.
    public var firstBackoff: TimeInterval = 1
    public var maximumBackoff: TimeInterval = 60
    /// How long past a request's deadline a worker may take to report the timeout before it is
    /// considered unresponsive and killed.
    public var answerGrace: TimeInterval = 5
    /// Variables set in the workers' environment over the host's own (a program embedding the
    /// host gives its bundles a data directory of their own, say).
    public var environment: [String: String] = [:]

    public init(workerExecutable: String) {
        self.workerExecutable = workerExecutable
    }

    /// Workers started from this very executable: right for a host program that calls
    /// `WidgetWorker.main` on the worker flag.
    public static var thisExecutable: ProcessIsolation {
        // The kernel's link holds the executable's absolute path, its links resolved.
        ProcessIsolation(workerExecutable: linkTarget("/proc/self/exe") ?? "/proc/self/exe")
    }
}
