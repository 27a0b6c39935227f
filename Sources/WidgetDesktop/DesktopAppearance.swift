import FoundationEssentials
import WidgetSupport
import WidgetRendering

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

    /// The scheme in busctl's answer (`v u 1`), or nil for no preference.
    static func scheme(fromBusctl text: String) -> Appearance? {
        switch text.split(whereSeparator: \.isWhitespace).last {
        case "1": .dark
        case "2": .light
        default: nil
        }
    }
}
