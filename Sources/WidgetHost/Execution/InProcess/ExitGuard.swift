import CHostShims
import FoundationEssentials
import Glibc
import WidgetABI

/// In queue isolation a bundle runs in the host's own process, where its `exit()` would end the
/// host quietly, leaving a socket behind. Installed by a host program, the guard reports such an
/// exit as the bundle's doing (naming the bundle and what it was doing), removes the control
/// socket, and ends the process with status 70. The host announces its own exits (`deliberate`).
/// `_exit()` cannot be guarded: it ends the process without running any handler.
public enum ExitGuard {
    public static func install() { host_exit_guard_install() }

    /// The host itself is about to exit: the guard lets it.
    public static func deliberate() { host_exit_guard_deliberate() }

    /// The socket a bundle's exit must not leave behind.
    static func removeOnBundleExit(socket path: String?) { host_exit_guard_socket(path) }

    /// What puts the terminal back as it was (a full-screen display's end), should a bundle end the
    /// process; nil when nothing needs putting back.
    public static func restoreOnBundleExit(terminal text: String?) { host_exit_guard_restore(text) }

    /// Runs `body` (a call into `bundle`) with the calling thread marked as doing `activity` for it.
    @inline(__always)
    static func during<T>(_ bundle: UnsafePointer<CChar>, _ activity: Activity, _ body: () throws -> T) rethrows -> T {
        host_exit_guard_activity(bundle, activity.text)
        defer { host_exit_guard_activity(nil, nil) }
        return try body()
    }

    /// What a thread does for a bundle, as the report names it: C text made once, kept for the life
    /// of the process.
    struct Activity: @unchecked Sendable {
        let text: UnsafePointer<CChar>

        static let loading = Activity("loading (in its static initializers or initialize)")
        private static let requests: [RequestKind: Activity] = Dictionary(
            uniqueKeysWithValues: RequestKind.allCases.map { ($0, Activity("answering a \($0.rawValue) request")) })

        static func answering(_ kind: RequestKind) -> Activity { requests[kind]! }

        private init(_ text: String) { self.text = UnsafePointer(strdup(text)!) }
    }

    /// A C copy of a bundle's path, kept for the life of the process (a bundle's image is, too).
    static func name(_ path: String) -> UnsafePointer<CChar> { UnsafePointer(strdup(path)!) }
}
