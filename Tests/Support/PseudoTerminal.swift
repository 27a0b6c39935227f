import Foundation
import Glibc

/// A program run on a pseudo-terminal of a given size, as a person's terminal runs it: everything
/// it writes is collected as it comes, and keys are typed into it.
public final class PseudoTerminal: @unchecked Sendable {
    public let process: ChildProcess
    private let master: Int32
    private let condition = NSCondition()
    private var bytes: [UInt8] = []
    private var ended = false

    public init(_ executable: String, _ arguments: [String], environment: [String: String], columns: UInt16 = 80, rows: UInt16 = 24) throws {
        // /dev/ptmx, unlocked, its number asked (what posix_openpt, unlockpt and ptsname do; Swift's
        // Glibc module does not have those).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, UInt(0x4004_5431) /* TIOCSPTLCK */, &unlock) == 0,
            ioctl(master, UInt(0x8004_5430) /* TIOCGPTN */, &number) == 0
        else {
            throw PseudoTerminalError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let name = "/dev/pts/\(number)"
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        // Close-on-exec: only the program run gets it (as its 0, 1 and 2), not others tests start.
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw PseudoTerminalError("cannot open \(name): \(String(cString: strerror(errno)))") }
        defer { close(slave) }
        var environment = environment
        environment["TERM"] = "xterm-256color"
        process = try ChildProcess(executable, arguments, environment: environment, standardInput: slave, standardOutput: slave, standardError: slave)
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = read(master, &chunk, chunk.count)
                if count < 0, errno == EINTR { continue }
                condition.withLock {
                    if count <= 0 { ended = true } else { bytes += chunk[..<count] }
                    condition.broadcast()
                }
                if count <= 0 { return }
            }
        }
    }

    deinit { close(master) }

    /// Everything written so far, as text (escape sequences included).
    public var output: String { condition.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Types `text`, all of it in one write (as keys typed quickly arrive).
    public func type(_ text: String) {
        let data = Array(text.utf8)
        _ = data.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Blocks until `holds` is true of the output so far; false after `limit` seconds.
    public func waitForOutput(limit: TimeInterval = 30, _ holds: (String) -> Bool) -> Bool {
        let giveUp = Date().addingTimeInterval(limit)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if holds(String(decoding: bytes, as: UTF8.self)) { return true }
            if ended || !condition.wait(until: giveUp) { return false }
        }
    }

    /// Waits for the program to end (at most `limit` seconds, then SIGKILL); its exit status.
    public func waitForExit(limit: TimeInterval = 30) -> Int32 {
        let giveUp = Date().addingTimeInterval(limit)
        while process.isRunning, Date() < giveUp { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitForExit()
        return process.terminationStatus
    }
}

public struct PseudoTerminalError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
