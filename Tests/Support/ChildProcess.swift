import CHostShims
import Foundation
import Glibc
import WidgetSupport

/// A program a test leaves running and talks to, started as the host starts its own: posix_spawn, with
/// every descriptor of this process closed in it but the three it is given (a pipe or a terminal of
/// the test's), and every signal at its default. (One run to its end is the host's `Subprocess`'s,
/// through `runProcessWaiting`; this one keeps the test's process group and its descriptors.) Never
/// Foundation's `Process`: its child keeps every descriptor this process has open without
/// close-on-exec at that moment, among them the pipes other tests are making for their own programs
/// at the same time. A host one test ran kept another test's pipe so, and that test, reading a
/// screenshot from `grim`, waited for an end of its output that came only when the host ended: the
/// test run stopped (CI held for its whole limit; one local run in about twenty).
public final class ChildProcess: @unchecked Sendable {
    public enum TerminationReason: Sendable { case exit, uncaughtSignal }

    public let processIdentifier: pid_t
    private let lock = NSLock()
    /// Its wait status once reaped.
    private var raw: Int32?

    /// `standardInput`, `standardOutput` and `standardError`: descriptors it gets as its 0, 1 and 2
    /// (nil: /dev/null). `environment`: else this process's. It stays in this process's group.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        standardInput: Int32? = nil, standardOutput: Int32? = nil, standardError: Int32? = nil
    ) throws {
        // A relative path is this process's, not `directory`'s (posix_spawn changes directory first).
        let executable = executable.hasPrefix("/") ? executable : FileManager.default.currentDirectoryPath + "/" + executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (given, target, mode) in [(standardInput, Int32(0), O_RDONLY), (standardOutput, 1, O_WRONLY), (standardError, 2, O_WRONLY)] {
            if let given {
                posix_spawn_file_actions_adddup2(&actions, given, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            }
        }
        if let directory {
            let code = host_spawn_add_chdir(&actions, directory.path)
            if code != 0 { throw ChildProcessError("cannot run \(executable) in \(directory.path): \(String(cString: strerror(code)))") }
        }
        _ = host_spawn_add_closefrom(&actions, 3)
        let attributes = SpawnAttributes(flags: 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let started = posix_spawn(&pid, executable, &actions, &attributes.value, argv, envp)
        guard started == 0 else { throw ChildProcessError("cannot run \(executable): \(String(cString: strerror(started)))") }
        processIdentifier = pid
    }

    /// Whether it has not ended yet (it is reaped once it has).
    public var isRunning: Bool {
        lock.withLock {
            if raw != nil { return false }
            var status: Int32 = 0
            let reaped = waitpid(processIdentifier, &status, WNOHANG)
            if reaped == processIdentifier { raw = status }
            // ECHILD: reaped by another (nothing here reaps every child); known to have ended.
            if reaped < 0, errno == ECHILD { raw = 0 }
            return raw == nil
        }
    }

    /// Waits for it to end, asking every 5 ms, so that any thread may wait while another asks.
    public func waitForExit() {
        while isRunning { usleep(5_000) }
    }

    /// Its exit status, or the signal that ended it (as Foundation's `Process` gives them). 0 while it runs.
    public var terminationStatus: Int32 {
        lock.withLock {
            guard let raw else { return 0 }
            return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
        }
    }

    public var terminationReason: TerminationReason {
        lock.withLock { (raw ?? 0) & 0x7f == 0 ? .exit : .uncaughtSignal }
    }

    /// SIGTERM, unless it has ended (and been reaped: its pid may be another's then).
    public func terminate() { signal(SIGTERM) }

    /// `signal`, unless it has ended.
    public func signal(_ signal: Int32) {
        lock.withLock {
            if raw == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Starts it with no input and its errors dropped, and reads its output until `ready` holds of
    /// what it said (a display number, an address, "ready"); returns the process and what it said.
    /// `name` names it in the error when it ends first.
    public static func startAndRead(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, name: String, until ready: (String) -> Bool
    ) throws -> (ChildProcess, String) {
        let output = try ClosingPipe()
        let child = try ChildProcess(executable, arguments, environment: environment, standardOutput: output.write)
        output.closeWriting()
        var said = ""
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !ready(said) {
            let count = read(output.read, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw ChildProcessError("\(name) ended before it was ready (it said: \(said.isEmpty ? "nothing" : said))") }
            said += String(decoding: chunk[..<count], as: UTF8.self)
        }
        return (child, said)
    }
}

/// A pipe whose ends are close-on-exec, each closed once (at the latest when it goes).
public final class ClosingPipe: @unchecked Sendable {
    public let read: Int32
    public let write: Int32
    private let lock = NSLock()
    private var open = [true, true]

    public init() throws {
        var ends: [Int32] = [-1, -1]
        guard host_pipe_cloexec(&ends) == 0 else { throw ChildProcessError("no pipe: \(String(cString: strerror(errno)))") }
        read = ends[0]
        write = ends[1]
    }

    deinit {
        closeWriting()
        closeReading()
    }

    /// Once the child has its copy: the reader then sees the end when the child's end closes.
    public func closeWriting() { closeEnd(1) }
    public func closeReading() { closeEnd(0) }

    private func closeEnd(_ index: Int) {
        let descriptor: Int32? = lock.withLock {
            guard open[index] else { return nil }
            open[index] = false
            return index == 0 ? read : write
        }
        if let descriptor { Glibc.close(descriptor) }
    }
}

public struct ChildProcessError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
