import Foundation
import Synchronization
import WidgetWire

/// Where the host's diagnostics go: standard error unless a program installs its own handler.
public enum HostLog {
    public enum Level: String, Sendable {
        case debug, info, warning, error
    }

    /// Debug lines (such as a crashed worker's stack trace) are written only when WIDGETS_LOG=debug.
    static let showsDebug = ProcessInfo.processInfo.environment["WIDGETS_LOG"] == "debug"

    private static let handler = Mutex<@Sendable (Level, String) -> Void> { level, message in
        guard level != .debug || showsDebug else { return }
        FileHandle.standardError.write(Data("widgets: \(level.rawValue): \(message)\n".utf8))
    }

    /// Replaces the handler; returns the previous one.
    @discardableResult
    public static func setHandler(_ newHandler: @escaping @Sendable (Level, String) -> Void) -> @Sendable (Level, String) -> Void {
        handler.withLock { current in
            let old = current
            current = newHandler
            return old
        }
    }

    /// The longest message written whole; what a bundle puts in one (an error, a line of its
    /// output) is cut past it, saying how long it was.
    public static let longestMessage = 2000

    public static func log(_ level: Level, _ message: String) {
        let current = handler.withLock { $0 }
        current(level, message.cut(to: longestMessage))
    }

    package static func warning(_ message: String) { log(.warning, message) }
}
