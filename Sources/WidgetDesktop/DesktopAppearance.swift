import Foundation
import WidgetRendering

/// Light or dark, as the desktop prefers: the XDG desktop portal's `org.freedesktop.appearance`
/// `color-scheme` setting (1 dark, 2 light, 0 no preference), read over the session's D-Bus with
/// `busctl` (systemd's) when it is there. Nil when nothing says (no portal, no bus, no preference).
public enum DesktopAppearance {
    public static func preferred(environment: [String: String] = ProcessInfo.processInfo.environment) -> Appearance? {
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil || environment["XDG_RUNTIME_DIR"] != nil else { return nil }
        let busctl = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/busctl" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let busctl else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: busctl)
        process.arguments = [
            "--user", "--timeout=1", "call", "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
            "org.freedesktop.portal.Settings", "ReadOne", "ss", "org.freedesktop.appearance", "color-scheme",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return scheme(fromBusctl: said)
    }

    /// The scheme in busctl's answer (`v u 1`), or nil for no preference.
    static func scheme(fromBusctl text: String) -> Appearance? {
        switch text.split(whereSeparator: \.isWhitespace).last {
        case "1": .dark
        case "2": .light
        default: nil
        }
    }
}
