#if canImport(Glibc)
import Glibc
#endif

/// How much a line matters, and so whether it is shown: the host's lines, the CLI's `-v`/`-q`, and
/// `WIDGETS_LOG` all use these four.
public enum LogLevel: Int, Comparable, CaseIterable, Sendable {
    case debug, info, warning, error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level a name means, in any case (`WIDGETS_LOG=debug`, `Warning`, `warn`); nil for another.
    public init?(named name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        default: return nil
        }
    }

    /// The level `WIDGETS_LOG` names now; nil when it is unset or names none. Read each time: `-v`
    /// and `-q` set it for the bundles the CLI then runs in its own process.
    public static var environment: LogLevel? { getenv("WIDGETS_LOG").flatMap { LogLevel(named: String(cString: $0)) } }

    /// The level's name, as lines are prefixed with it (`widgets: warning: …`).
    public var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    /// syslog's priority, which journald reads from a `<N>` at the start of a line.
    public var priority: Int {
        switch self {
        case .debug: 7
        case .info: 6
        case .warning: 4
        case .error: 3
        }
    }
}
