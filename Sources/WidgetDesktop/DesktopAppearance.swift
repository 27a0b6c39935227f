import FoundationEssentials
import Glibc
import WidgetRendering
import WidgetSupport
import WidgetWire

/// Light or dark, as the desktop prefers: the XDG desktop portal's `org.freedesktop.appearance`
/// `color-scheme` setting (1 dark, 2 light, 0 no preference), read over the session's D-Bus with
/// `busctl` (systemd's) when it is there. Nil when nothing says (no portal, no bus, no preference).
public enum DesktopAppearance {
    public static func preferred(environment: [String: String] = ProcessInfo.processInfo.environment) -> Appearance? {
        guard
            case .success(let said) = SessionBus.call(
                "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop", interface: "org.freedesktop.portal.Settings",
                method: "ReadOne", signature: "ss", arguments: ["org.freedesktop.appearance", "color-scheme"], timeout: 1, environment: environment)
        else { return nil }
        return scheme(fromBusctl: said)
    }

    /// Follows the setting: `changed` is called, on a thread of its own, with the scheme read once
    /// the watch has started (a change while the caller read it first is not lost), then with each
    /// new scheme the portal announces (its `SettingChanged` signal, watched with `busctl monitor`;
    /// nil: no preference), and `ended` with why if the watch ends first. Returns the watcher, to be
    /// stopped (`terminate`) when the desktop ends, or why there is none.
    package static func follow(
        environment: [String: String] = ProcessInfo.processInfo.environment, _ changed: @escaping @Sendable (Appearance?) -> Void,
        ended: @escaping @Sendable (String) -> Void
    ) -> Result<Subprocess, SessionBus.Failure> {
        let match = "type='signal',interface='org.freedesktop.portal.Settings',member='SettingChanged',arg0='org.freedesktop.appearance',arg1='color-scheme'"
        let watcher: Subprocess
        switch SessionBus.monitor(match: match, environment: environment) {
        case .failure(let failure): return .failure(failure)
        case .success(let started): watcher = started
        }
        let started = startThread(named: "widgets-scheme") {
            changed(preferred(environment: environment))
            watcher.readLines { line in if let scheme = scheme(fromMonitor: line) { changed(scheme) } }
            // Its words, after its last line: why it stopped (the bus gone, monitoring refused).
            let said = String(decoding: watcher.errorsSoFar(limit: 300), as: UTF8.self).trimmingSpacesAndNewlines.onOneLine
            let status = watcher.waitForExit()
            ended("busctl monitor ended (status \(status)\(said.isEmpty ? "" : ": " + said))")
        }
        guard started != nil else {
            watcher.terminate()
            return .failure(SessionBus.Failure(description: "cannot start a thread to read busctl monitor"))
        }
        return .success(watcher)
    }

    /// The scheme a `SettingChanged` signal announces, as `busctl --json=short monitor` prints it
    /// (`"payload":{"type":"ssv","data":["org.freedesktop.appearance","color-scheme",{"type":"u","data":1}]}`);
    /// nil for another line (a scheme of nil: no preference).
    static func scheme(fromMonitor line: String) -> Appearance?? {
        guard let message = try? JSONValue.parse(line), message["member"]?.stringValue == "SettingChanged",
            let data = message["payload"]?["data"]?.arrayValue, data.count == 3,
            data[0].stringValue == "org.freedesktop.appearance", data[1].stringValue == "color-scheme",
            let number = data[2]["data"]?.numberValue
        else { return nil }
        return .some(number == 1 ? .dark : number == 2 ? .light : nil)
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
