import Foundation

/// A program left running while the test talks to it: its standard output is collected as it comes,
/// and the test waits for a line it expects (a real-time limit makes a broken test fail, not hang).
public final class RunningProcess: @unchecked Sendable {
    public let process: ChildProcess
    private let condition = NSCondition()
    private var text = ""
    private var ended = false

    /// `output`: the pipe its standard output and error go to (one the test made, to know its inode).
    public init(_ executable: String, _ arguments: [String], environment: [String: String], output: ClosingPipe? = nil) throws {
        let output = try output ?? ClosingPipe()
        process = try ChildProcess(executable, arguments, environment: environment, standardOutput: output.write, standardError: output.write)
        // Only the child writes to it now: the reader sees the end when the child exits.
        output.closeWriting()
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = read(output.read, &chunk, chunk.count)
                if count < 0, errno == EINTR { continue }
                condition.withLock {
                    if count <= 0 { ended = true } else { text += String(decoding: chunk[..<count], as: UTF8.self) }
                    condition.broadcast()
                }
                if count <= 0 { return }
            }
        }
    }

    public var output: String { condition.withLock { text } }

    /// Blocks until the output has a line for which `matches` holds; false after `limit` seconds.
    public func waitForLine(limit: TimeInterval = 30, _ matches: (String) -> Bool) -> Bool {
        waitForOutput(limit: limit) { output in output.split(separator: "\n").contains(where: { matches(String($0)) }) }
    }

    /// Blocks until `holds` is true of the whole output so far; false after `limit` seconds.
    public func waitForOutput(limit: TimeInterval = 30, _ holds: (String) -> Bool) -> Bool {
        let giveUp = Date().addingTimeInterval(limit)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if holds(text) { return true }
            if ended || !condition.wait(until: giveUp) { return false }
        }
    }

    /// SIGTERM, then waits for the exit; returns the exit status.
    public func terminate() -> Int32 {
        process.terminate()
        process.waitForExit()
        _ = condition.withLock { ended }
        return process.terminationStatus
    }
}

/// A private home for a running host and its apps: data, state and runtime directories, and the
/// environment that points at them, with the products (`game-app`) on PATH for bundles that launch it.
public struct HostHome {
    public let directories = WidgetsDirectories()
    public var data: URL { directories.data }
    public var runtime: URL { directories.runtime }
    public var cache: URL { directories.cache }
    /// The host's saved instances (`--state-dir`).
    public let state = Fixtures.temporaryDirectory("state")

    public init() {}

    /// The test's `widgets` environment for this home's directories, with no session bus (the
    /// desktop's notification server would show the tests' Live Activities: a test that wants a bus
    /// gives its own) and the products on PATH.
    public var environment: [String: String] {
        var environment = directories.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["PATH"] = Fixtures.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    /// The `widgets` CLI in this home, with a registry cache of its own each time: what a command
    /// loads is not recorded for the host started after it (tests of a host's start see it load).
    public func cli(_ arguments: [String]) async -> ProcessResult {
        var environment = environment
        environment["XDG_CACHE_HOME"] = Fixtures.temporaryDirectory("cache").path
        return await runProcess(Fixtures.widgetsExecutable, arguments, environment: environment)
    }

    public func gameApp(_ arguments: [String]) async -> ProcessResult {
        await runProcess(Fixtures.gameAppExecutable, arguments, environment: environment)
    }

    /// `widgets run` on `plugins`, with this home's saved instances.
    public func host(plugins: URL, extraEnvironment: [String: String] = [:]) throws -> RunningProcess {
        try RunningProcess(
            Fixtures.widgetsExecutable, ["--plugins", plugins.path, "run", "--state-dir", state.path],
            environment: environment.merging(extraEnvironment) { $1 })
    }
}

