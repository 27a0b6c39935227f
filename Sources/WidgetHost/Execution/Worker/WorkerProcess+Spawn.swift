import CHostShims
import FoundationEssentials
import Glibc
import WidgetSupport

extension WorkerProcess {
    /// Starts `executable` with `arguments` as the worker for `fileName`. `onExit` runs once, on the
    /// worker's reader thread, when it has ended, before the replies it owed are failed.
    static func spawn(
        executable: String, arguments: [String], fileName: String, environment extra: [String: String] = [:],
        zygote: WorkerZygote? = nil, onExit: @escaping @Sendable (WorkerExit) -> Void
    ) throws(ChannelError) -> WorkerProcess {
        // Forked by the zygote when there is one, else spawned, each with sockets of its own: a
        // child the zygote forked too late holds the first ones, and ends when they close.
        if let zygote, zygote.isRunning(), let process = try forked(by: zygote, arguments: arguments, fileName: fileName, onExit: onExit) {
            return process
        }
        let (sockets, outputPipe, exceededPipe) = try socketPairs()
        // The worker's ends go to 3 and 4 by dup2: keep them above 4, so no dup2 maps a descriptor
        // onto itself (which would keep its close-on-exec flag).
        let workerSocket = raised(sockets[1])
        let workerOutput = raised(outputPipe[1])
        let workerExceeded = raised(exceededPipe[1])
        defer {
            Glibc.close(workerSocket)
            Glibc.close(workerOutput)
            Glibc.close(workerExceeded)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, workerOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, workerOutput, 2)
        posix_spawn_file_actions_adddup2(&actions, workerSocket, WidgetWorker.channelDescriptor)
        posix_spawn_file_actions_adddup2(&actions, workerExceeded, WidgetWorker.exceededDescriptor)
        // Nothing else of the host's reaches a worker, whatever its close-on-exec flag: a descriptor
        // another thread opens meanwhile (a control connection, a pipe) is not yet flagged.
        _ = host_spawn_add_closefrom(&actions, WidgetWorker.exceededDescriptor + 1)
        let (status, pid) = spawn([executable] + arguments, actions: &actions, extra: extra)
        guard status == 0 else {
            for descriptor in [sockets[0], outputPipe[0], exceededPipe[0]] { Glibc.close(descriptor) }
            throw .system("cannot start the worker \(executable): \(errnoText(status))")
        }
        return WorkerProcess(
            pid: pid, fileName: fileName, channel: WorkerChannel(descriptor: sockets[0]), output: outputPipe[0],
            exceeded: exceededPipe[0], processDescriptor: host_pidfd_open(pid), zygote: nil, onExit: onExit)
    }

    /// Starts `arguments` (the executable first) with `actions`, as every worker process (and the
    /// zygote) starts: each signal at its default and none blocked, in a session (and so a process
    /// group) of its own: whatever the bundle forks is in it, and ends with it; and what leaves it can
    /// never join the host's session, by which the host tells a bundle's orphan from its own children
    /// (see Orphans). Its environment is the workers' with `extra`. posix_spawn's status, and the pid.
    static func spawn(_ arguments: [String], actions: inout posix_spawn_file_actions_t, extra: [String: String]) -> (status: Int32, pid: pid_t) {
        let attributes = SpawnAttributes(flags: host_spawn_setsid_flag())
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = workerEnvironment(extra: extra).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        return Orphans.starting { pid in posix_spawn(&pid, arguments[0], &actions, &attributes.value, argv, envp) }
    }

    /// The worker's channel, output and memory report: socket pairs, not pipes, for all three: they
    /// can be made close-on-exec atomically, so no other process the host starts meanwhile inherits them.
    private static func socketPairs() throws(ChannelError) -> (channel: [Int32], output: [Int32], exceeded: [Int32]) {
        var pairs: [[Int32]] = []
        for _ in 0..<3 {
            var pair: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
                let reason = errnoText()
                for descriptor in pairs.joined() { Glibc.close(descriptor) }
                throw .system("cannot create a socket pair: \(reason)")
            }
            pairs.append(pair)
        }
        return (pairs[0], pairs[1], pairs[2])
    }

    /// The worker forked by `zygote` (which sets its descriptors up as posix_spawn's actions below
    /// do); nil when the zygote could not, with nothing of the attempt left open.
    private static func forked(
        by zygote: WorkerZygote, arguments: [String], fileName: String, onExit: @escaping @Sendable (WorkerExit) -> Void
    ) throws(ChannelError) -> WorkerProcess? {
        let (sockets, outputPipe, exceededPipe) = try socketPairs()
        let theirs = [sockets[1], outputPipe[1], exceededPipe[1]]
        let pid = zygote.fork(arguments: arguments, descriptors: theirs)
        for descriptor in theirs { Glibc.close(descriptor) }
        guard let pid else {
            for descriptor in [sockets[0], outputPipe[0], exceededPipe[0]] { Glibc.close(descriptor) }
            zygote.settle()
            return nil
        }
        // A worker's end is seen by its pidfd (it is not this process's child); without one it is
        // ended at once, and spawned instead.
        let processDescriptor = host_pidfd_open(pid)
        guard processDescriptor >= 0 else {
            _ = Glibc.kill(-pid, SIGKILL)
            _ = Glibc.kill(pid, SIGKILL)
            _ = zygote.reap(pid)
            for descriptor in [sockets[0], outputPipe[0], exceededPipe[0]] { Glibc.close(descriptor) }
            return nil
        }
        // Known before it could come to this process (if the zygote ends), so never swept.
        Orphans.record(pid)
        return WorkerProcess(
            pid: pid, fileName: fileName, channel: WorkerChannel(descriptor: sockets[0]), output: outputPipe[0],
            exceeded: exceededPipe[0], processDescriptor: processDescriptor, zygote: zygote, onExit: onExit)
    }

    /// A worker's environment: the host's, with `extra` over it.
    static func workerEnvironment(extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        // A crashing worker should die at once: Swift's backtracer can take seconds to symbolicate.
        // Its `Fatal error:` line is still printed. A developer who wants backtraces sets it.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        return environment
    }

    static func raised(_ descriptor: Int32) -> Int32 {
        guard descriptor <= WidgetWorker.exceededDescriptor else { return descriptor }
        let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, WidgetWorker.exceededDescriptor + 1)
        Glibc.close(descriptor)
        return moved
    }

}
