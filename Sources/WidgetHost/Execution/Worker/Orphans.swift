import CHostShims
import Glibc
import Synchronization
import WidgetSupport

/// What a bundle starts ends with its worker, even a process that left the worker's group and
/// session (`setsid`) or outlived its parent.
///
/// A worker leads a session of its own and is a child subreaper: whatever a bundle forks stays in
/// its tree, adopted by the worker when its own parent ends, and the worker ends that whole tree
/// when it ends. A worker killed outright (a crash, a memory limit, SIGKILL from the bundle itself)
/// cannot; so a host that `adopt`s is a subreaper too: the worker's processes come to it, and each
/// `sweep` ends every child of the host that it did not start and that is in another session than
/// its own, with all their descendants. A process of the host's own session in a group of its own
/// that it adopts (an application a desktop opener started: `Subprocess` gives each child
/// a group) is left to run, and reaped once it ends.
///
/// In queue isolation, where bundles run in the host, the sweep when the host shuts down also ends
/// what they forked in the host's own group.
public enum Orphans {
    private static let adopting = Atomic<Bool>(false)
    /// The children the host started itself (its workers), never swept.
    private static let started = Mutex<Set<pid_t>>([])

    /// Makes this process a child subreaper: processes orphaned below it come to it, to be swept.
    /// For a host's executable (not a test runner, whose other children it would adopt).
    public static func adopt() {
        if host_become_subreaper() == 0 { adopting.store(true, ordering: .relaxed) }
    }

    /// Whether this process adopts orphans.
    public static var isAdopting: Bool { adopting.load(ordering: .relaxed) }

    /// Starts a child of the host's own (a worker), which is never swept: `spawn` sets its pid and
    /// returns 0 once it started (posix_spawn's convention). Under the lock a sweep takes, so no
    /// sweep sees the child before it is known.
    static func starting(_ spawn: (inout pid_t) -> Int32) -> (status: Int32, pid: pid_t) {
        started.withLock { started in
            var pid: pid_t = 0
            let status = spawn(&pid)
            if status == 0 { started.insert(pid) }
            return (status, pid)
        }
    }
    /// A worker the zygote forked: the zygote's child, the host's only if the zygote ends first,
    /// never swept. (Recorded after the fork: the host's sweep looks at its own children alone,
    /// which the worker is not while the zygote lives.)
    static func record(_ pid: pid_t) { _ = started.withLock { $0.insert(pid) } }

    /// A child the host started has been reaped.
    static func didReap(_ pid: pid_t) { _ = started.withLock { $0.remove(pid) } }

    /// Ends the adopted processes of other sessions and their descendants, and reaps adopted ones
    /// that ended: once a sweep begun after this call has finished. A sweep reads all of /proc, and
    /// every worker that ends asks for one: callers at the same time share one (a hundred workers
    /// ending with their host read it a hundred times in turn, 40 ms of a 100-bundle listing).
    /// Returns how many that sweep killed. Nothing where this process does not adopt.
    @discardableResult
    public static func sweep() -> Int {
        guard isAdopting else { return 0 }
        return sweeps.run()
    }

    private static let sweeps = SharedRuns(initial: 0) { sweepNow() }

    /// Ending workers that the host ends together: each worker's end sweeps nothing, and one sweep
    /// after `body` (after all of them ended) ends what any of them left.
    static func sweepingOnceAfter(_ body: () -> Void) { afterEnds.sweepingOnceAfter(body) }

    /// What a worker that has ended left is swept: now, or, while the host ends many workers at once
    /// (`sweepingOnceAfter`), by the sweep after that, whichever worker it was.
    static func sweepAfterWorkerEnded() { afterEnds.workerEnded() }

    private static let afterEnds = SweepsAfterEnds { sweep() }

    private static func sweepNow() -> Int {
        // Under the lock: a worker spawned meanwhile is in the list before it could be swept.
        started.withLock { started in
            let keep = started.map { Int32($0) }
            return Int(keep.withUnsafeBufferPointer { host_kill_adopted($0.baseAddress, Int32($0.count)) })
        }
    }
}

/// When the sweep after workers' ends runs: as each ends, or, while some ending of many at once is
/// under way, once after it (for any worker ending meanwhile).
final class SweepsAfterEnds: Sendable {
    private let deferring = Atomic<Int>(0)
    private let sweep: @Sendable () -> Void

    init(sweep: @escaping @Sendable () -> Void) { self.sweep = sweep }

    func sweepingOnceAfter(_ body: () -> Void) {
        deferring.add(1, ordering: .sequentiallyConsistent)
        defer {
            deferring.subtract(1, ordering: .sequentiallyConsistent)
            sweep()
        }
        body()
    }

    func workerEnded() {
        if deferring.load(ordering: .sequentiallyConsistent) == 0 { sweep() }
    }
}
