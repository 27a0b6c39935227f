import FoundationEssentials
import Glibc
import WidgetSupport
import WidgetWire

/// The host's log lines (`widgets run`): each with its level, shown when at or above the threshold,
/// information on standard output and warnings and errors on standard error; under systemd (standard
/// output connected to the journal) each line starts with its priority, `<3>` to `<7>`, which
/// journald takes as the line's priority. The host library's own lines (`HostLog`) are sent here too.
struct LogLines: Sendable {
    let threshold: LogLevel
    let toJournal: Bool
    let write: @Sendable (String) -> Void
    let writeProblem: @Sendable (String) -> Void

    init(
        threshold: LogLevel, toJournal: Bool = LogLines.standardOutputIsJournal(), write: @escaping @Sendable (String) -> Void,
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
