import FoundationEssentials
import Synchronization
import WidgetWire

/// Where the host's diagnostics go: lines at or above `threshold`, to standard error as
/// `widgets: LEVEL: message` unless a program installs its own handler (`widgets run` writes them
/// with journald priorities).
public enum HostLog {
    /// The least level shown: `WIDGETS_LOG` (any case) unless a program sets it, else info. A worker
    /// process shows every line: its host, which relays them, applies its own threshold.
    public static var threshold: LogLevel {
        get { LogLevel(rawValue: storedThreshold.load(ordering: .relaxed)) ?? .info }
        set { storedThreshold.store(newValue.rawValue, ordering: .relaxed) }
    }

    private static let storedThreshold = Atomic<Int>((LogLevel.environment ?? .info).rawValue)

    private static let handler = Mutex<@Sendable (LogLevel, String) -> Void> { level, message in
        writeWhole("widgets: \(level.name): \(message)\n")
    }

    /// Replaces the handler; returns the previous one.
    @discardableResult
    public static func setHandler(_ newHandler: @escaping @Sendable (LogLevel, String) -> Void) -> @Sendable (LogLevel, String) -> Void {
        handler.withLock { current in
            let old = current
            current = newHandler
            return old
        }
    }

    /// The longest message written whole; what a bundle puts in one (an error, a line of its
    /// output) is cut past it, saying how long it was.
    public static let longestMessage = 2000

    public static func log(_ level: LogLevel, _ message: String) {
        guard let line = admitted(level, message, under: threshold) else { return }
        let current = handler.withLock { $0 }
        current(level, line)
    }

    /// What `log` hands the handler for a line at `level`: nothing below `threshold`, else the
    /// message cut to `longestMessage`, its control characters shown, not sent to the terminal.
    package static func admitted(_ level: LogLevel, _ message: String, under threshold: LogLevel) -> String? {
        level >= threshold ? message.cut(to: longestMessage).visibleOnTerminal : nil
    }

    package static func warning(_ message: String) { log(.warning, message) }
}
