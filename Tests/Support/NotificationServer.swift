import Foundation

/// A session bus of a test's own (`dbus-daemon`) with a stand-in notification server on it
/// (Tests/Fixtures/notification_server.py, Debian's python3 with python3-dbus and python3-gi),
/// which records every call it gets.
public final class NotificationServer: @unchecked Sendable {
    /// Why it cannot run here, or nil when it can.
    public static var unavailable: String? {
        guard HeadlessSway.path(of: "dbus-daemon") != nil else { return "dbus-daemon is not installed (apt-get install dbus-daemon)" }
        guard HeadlessSway.path(of: "busctl") != nil else { return "busctl is not installed (apt-get install systemd)" }
        let probe = runProcessWaiting("/usr/bin/python3", ["-c", "import dbus, dbus.service, gi"])
        return probe.status == 0 ? nil : "/usr/bin/python3 has no dbus or gi module (apt-get install python3-dbus python3-gi)"
    }

    private let bus: ChildProcess
    private let server: ChildProcess
    private let record: URL
    /// DBUS_SESSION_BUS_ADDRESS's value for the bus.
    public let address: String

    public init() throws {
        let directory = Fixtures.temporaryDirectory("session-bus")
        record = directory.appendingPathComponent("calls.jsonl")
        let said: String
        (bus, said) = try ChildProcess.startAndRead(
            HeadlessSway.path(of: "dbus-daemon")!,
            ["--config-file=/usr/share/dbus-1/session.conf", "--nofork", "--print-address=1", "--address=unix:path=\(directory.path)/bus"],
            name: "dbus-daemon"
        ) { $0.contains("\n") }
        address = said.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            (server, _) = try ChildProcess.startAndRead(
                "/usr/bin/python3", [Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/notification_server.py").path, record.path],
                environment: ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"], name: "the notification server"
            ) { $0.contains("ready") }
        } catch {
            bus.signal(SIGKILL)
            bus.waitForExit()
            throw error
        }
    }

    deinit { stop() }

    /// The calls it got so far, in order, each a JSON object as the server recorded it.
    public var calls: [[String: Any]] {
        guard let text = try? String(contentsOf: record, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The portal's color-scheme set (1 dark, 2 light, 0 no preference), and announced.
    public func setColorScheme(_ scheme: Int) -> Bool {
        runProcessWaiting(
            HeadlessSway.path(of: "busctl")!,
            ["--user", "call", "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop", "org.widgets.Test", "SetColorScheme", "u", String(scheme)],
            environment: ["DBUS_SESSION_BUS_ADDRESS": address]
        ).status == 0
    }

    public func stop() {
        for process in [server, bus] {
            process.signal(SIGKILL)
            process.waitForExit()
        }
    }
}
