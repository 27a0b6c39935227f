import CHostShims
import FoundationEssentials
import Glibc

/// A program the host or the CLI runs (`swiftc`, `busctl`, `xdg-open`): started with posix_spawn,
/// its standard input /dev/null, its output captured, thrown away or shared with this process, no
/// other descriptor of ours inherited, every signal at its default, in a process group of its own
/// (which the host's orphan reaping leaves to its owner, this).
package final class Subprocess: @unchecked Sendable {
    /// Where one of its output streams goes.
    package enum Stream: Sendable {
        /// Into a pipe this process reads (`finish()` returns it).
        case capture
        /// To /dev/null.
        case discard
        /// To this process's own.
        case inherit
    }

    /// It could not be started: `reason` says why ("No such file or directory").
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package var executable: String
        package var reason: String
        package var description: String { "cannot run \(executable): \(reason)" }
    }

    /// What it wrote and how it ended: its exit status, or 128 plus the signal that ended it.
    package struct Outcome: Sendable {
        package var status: Int32
        package var output: [UInt8]
        package var errors: [UInt8]
    }

    package let pid: pid_t
    /// Its pidfd, opened as it starts, before anything could reap it (so never another process's);
    /// -1 on a kernel without them (before 5.3).
    private let pidDescriptor: Int32
    private var captured: [Int32]  // its standard output's and error's read ends, -1 where not captured
    /// Its status once reaped, and whether a thread reaps it; the condition is broadcast when it is.
    private let ended = Condition()
    private var status: Int32?
    private var reaper = false

    /// Starts `executable` (a path) with `arguments`, in `directory` if given, with `environment`
    /// (else this process's).
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        standardOutput: Stream = .capture, standardError: Stream = .capture
    ) throws(Failure) {
        // A relative path is this process's, not `directory`'s (posix_spawn changes directory first).
        let executable = executable.hasPrefix("/") ? executable : FileManager.default.currentDirectoryPath + "/" + executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var ends: [[Int32]] = []
        defer { for pair in ends { close(pair[1]) } }
        var readEnds: [Int32] = []
        for (stream, target) in [(standardOutput, Int32(1)), (standardError, Int32(2))] {
            switch stream {
            case .inherit: readEnds.append(-1)
            case .discard:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
                readEnds.append(-1)
            case .capture:
                var pair: [Int32] = [-1, -1]
                guard host_pipe_cloexec(&pair) == 0 else {
                    for end in readEnds where end >= 0 { close(end) }
                    throw Failure(executable: executable, reason: "no pipe for its output (\(errnoText()))")
                }
                ends.append(pair)
                readEnds.append(pair[0])
                posix_spawn_file_actions_adddup2(&actions, pair[1], target)
            }
        }
        if let directory {
            let code = host_spawn_add_chdir(&actions, directory)
            if code != 0 {
                for end in readEnds where end >= 0 { close(end) }
                throw Failure(executable: executable, reason: "cannot start it in \(directory) (\(errnoText(code)))")
            }
        }
        _ = host_spawn_add_closefrom(&actions, 3)

        let attributes = SpawnAttributes(flags: Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes.value, 0)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var pid = pid_t()
        let started = envp.map { posix_spawn(&pid, executable, &actions, &attributes.value, argv, $0) }
            ?? posix_spawn(&pid, executable, &actions, &attributes.value, argv, environ)
        guard started == 0 else {
            for end in readEnds where end >= 0 { close(end) }
            // A directory that is not there fails as the program would: say which it is.
            let missingDirectory = directory.map { access($0, X_OK) != 0 } ?? false
            throw Failure(
                executable: executable,
                reason: errnoText(started) + (missingDirectory ? " (in \(directory!): \(errnoText()))" : ""))
        }
        self.pid = pid
        pidDescriptor = host_pidfd_open(pid)
        captured = readEnds
    }

    deinit {
        for end in captured where end >= 0 { close(end) }
        if pidDescriptor >= 0 { close(pidDescriptor) }
    }

    /// Asks it to end (SIGTERM), through its pidfd where there is one: never another process that
    /// took its pid after it was reaped. Nothing once it has ended.
    package func terminate() {
        ended.withLock {
            guard status == nil else { return }
            if pidDescriptor >= 0 {
                _ = host_pidfd_send_signal(pidDescriptor, SIGTERM)
            } else if !reaper {
                kill(pid, SIGTERM)
            }
        }
    }

    /// Reads what it writes to standard output (captured) a line at a time, on the calling thread,
    /// until it closes it: for a program that says things as they happen (`busctl monitor`).
    package func readLines(_ line: (String) -> Void) {
        guard let output = captured.first, output >= 0 else { return }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += chunk[..<count]
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                line(String(decoding: pending[..<end], as: UTF8.self))
                pending.removeSubrange(...end)
            }
        }
        if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self)) }
    }

    /// Reads what it writes to the captured streams until it closes them (both at once, so that
    /// neither pipe fills and stops it), then waits for it to end. `keeping` false: what it writes
    /// is read and dropped (one left running, whose output nobody will read).
    package func finish(keeping: Bool = true) -> Outcome {
        var texts: [[UInt8]] = [[], []]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while captured.contains(where: { $0 >= 0 }) {
            var polled = captured.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 || errno == EINTR else { break }
            for (index, entry) in polled.enumerated() where entry.fd >= 0 && entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if keeping { texts[index] += buffer[..<count] }
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    captured[index] = -1
                }
            }
        }
        return Outcome(status: waitForExit(), output: texts[0], errors: texts[1])
    }

    /// Waits for it to end: its status.
    @discardableResult
    package func waitForExit() -> Int32 {
        let (known, mine) = ended.withLock { () -> (Int32?, Bool) in
            if let status { return (status, false) }
            if reaper { return (nil, false) }
            reaper = true
            return (nil, true)
        }
        if let known { return known }
        guard mine else {
            // Another thread reaps it: its status is waited for.
            return ended.withLock {
                while status == nil { ended.wait() }
                return status!
            }
        }
        let reaped = Self.reap(pid)
        ended.withLock {
            status = reaped
            ended.broadcast()
        }
        return reaped
    }

    /// Waits at most `seconds` for it to end: its status, or nil while it runs on (it is reaped
    /// when it ends, by a thread that waits for it). Once it is reaped its pid may be another
    /// process's: only the thread that reaps it waits on the pid.
    package func waitForExit(atMost seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        let (known, reaping) = ended.withLock { (status, reaper) }
        if let known { return known }
        if reaping {
            return ended.withLock {
                while status == nil, ended.wait(until: deadline) {}
                return status
            }
        }
        if pidDescriptor >= 0 {
            var entry = pollfd(fd: pidDescriptor, events: Int16(POLLIN), revents: 0)
            var ready: Int32
            repeat {
                ready = poll(&entry, 1, Int32(max(0, min(deadline.timeIntervalSinceNow, 86_400)) * 1000))
            } while ready < 0 && errno == EINTR
            if ready > 0 { return waitForExit() }
        } else {
            // No pidfd (a kernel before 5.3): asked every 10 ms, unless another thread reaps it meanwhile.
            while Date() < deadline {
                let reaped = ended.withLock { () -> Int32?? in
                    if let status { return .some(status) }
                    if reaper { return .none }
                    var raw: Int32 = 0
                    guard waitpid(pid, &raw, WNOHANG) == pid else { return .some(nil) }
                    status = Self.status(raw)
                    ended.broadcast()
                    return .some(status)
                }
                switch reaped {
                case .some(let status?): return status
                case .none: return waitForExit(atMost: deadline.timeIntervalSinceNow)
                case .some(nil): usleep(10_000)
                }
            }
        }
        // Its output read (and dropped) meanwhile, so that a pipe left full does not stop it.
        if startThread(named: "widgets.reap", { [self] in _ = finish(keeping: false) }) == nil {
            HostLog.log(.warning, "\(pid) is left unreaped until this process ends")
        }
        return nil
    }

    /// What it has written to its captured standard error so far, `limit` bytes at most, without
    /// waiting. Not once `waitForExit(atMost:)` has given up: its output is then the reaping thread's.
    package func errorsSoFar(limit: Int) -> [UInt8] {
        guard captured[1] >= 0 else { return [] }
        var entry = pollfd(fd: captured[1], events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: max(limit, 0))
        let count = buffer.withUnsafeMutableBytes { read(captured[1], $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer[..<count]) : []
    }

    private static func reap(_ pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            guard errno == EINTR else { return 127 }
        }
        return status(raw)
    }

    /// The exit status; 128 plus the signal for a process a signal ended, as a shell reports it.
    private static func status(_ raw: Int32) -> Int32 {
        raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    /// The first executable of that name on `PATH` (`environment`'s, else this process's).
    package static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = String(directory) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
