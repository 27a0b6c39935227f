import Foundation
import Glibc

/// How much the host says: `-v` (debug), `-q` (warnings and errors), else `WIDGETS_LOG`, else info.
enum LogLevel: Int, Comparable, CaseIterable, Sendable {
    case debug, info, warning, error

    static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    init?(named name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        default: return nil
        }
    }

    var name: String { ["debug", "info", "warning", "error"][rawValue] }

    /// syslog's priority, which journald reads from a `<N>` at the start of a line.
    var priority: Int { [7, 6, 4, 3][rawValue] }
}

/// The host's log lines (`widgets run`): each with its level, shown when at or above the threshold,
/// information on standard output and warnings and errors on standard error; under systemd (standard
/// output connected to the journal) each line starts with its priority, `<3>` to `<7>`, which
/// journald takes as the line's priority.
struct HostLog: Sendable {
    let threshold: LogLevel
    let toJournal: Bool
    let write: @Sendable (String) -> Void
    let writeProblem: @Sendable (String) -> Void

    init(
        threshold: LogLevel, toJournal: Bool = HostLog.standardOutputIsJournal(), write: @escaping @Sendable (String) -> Void,
        writeProblem: @escaping @Sendable (String) -> Void
    ) {
        self.threshold = threshold
        self.toJournal = toJournal
        self.write = write
        self.writeProblem = writeProblem
    }

    func callAsFunction(_ level: LogLevel, _ line: String) {
        guard level >= threshold else { return }
        let text = (toJournal ? "<\(level.priority)>" : "") + line
        if level >= .warning { writeProblem(text) } else { write(text) }
    }

    /// A daemon's line as its level: "error: ..." and "warning: ..." are what they say; any other
    /// line is information.
    static func level(of line: String) -> LogLevel {
        if line.hasPrefix("error:") { return .error }
        if line.hasPrefix("warning:") { return .warning }
        return .info
    }

    /// Whether standard output is the journal: systemd sets `JOURNAL_STREAM` to its device and
    /// inode (a pipe the service hands on to a child is not).
    static func standardOutputIsJournal(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":")
        var status = stat()
        guard parts.count == 2, fstat(STDOUT_FILENO, &status) == 0 else { return false }
        return String(status.st_dev) == parts[0] && String(status.st_ino) == parts[1]
    }
}
