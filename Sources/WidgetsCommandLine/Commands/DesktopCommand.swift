import FoundationEssentials
import Glibc
import WidgetDesktop
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetWire

extension Command {
    static let desktop = Command(
        "desktop", summary: "Show the running host's widgets on the desktop, below the windows (Wayland, X11).",
        options: [
            Options.output.spec, Options.anchor.spec, Options.margin.spec, Options.columns.spec, Options.desktopAppearance.spec,
            Options.showActivities.spec, Options.showControls.spec,
        ],
        discussion: """
            A client of the running host, as 'watch' and 'home' are: every instance, in the home screen's order and
            grid, drawn on a layer-shell surface on the desktop's bottom layer (sway, Hyprland, KDE Plasma, river, niri,
            labwc and other compositors with zwlr_layer_shell_v1), transparent around the widgets, taking input only
            where they are; on X11 (no WAYLAND_DISPLAY, DISPLAY set) a desktop window below the others, shaped to the
            widgets. A new entry is drawn as soon as the host has it, a timer's text each second. A click on a
            Link, a button or a toggle reaches the bundle as a tap on the home screen does, elsewhere on a widget its
            widgetURL; a right click opens the home screen's page with that widget's Edit Widget open. While the host
            is away (restarting) the last entries stay, marked "as of" their date, and the client follows the host
            again when it is back. --output names the output (or all; default: the compositor's choice), --anchor the corner
            or edge (top-left by default), --margin the space to the edges in points (24; or top,right,bottom,left),
            --columns the grid's width in small widgets (2); Live Activities are shown before the widgets, each its Lock
            Screen view (a click opens its widgetURL), and the Controls after them as one tile of buttons and toggles
            (a click presses one), unless --activities off or --controls off; the same settings may be kept in
            ~/.config/widgets/desktop.conf ($XDG_CONFIG_HOME), a 'name = value' a line (anchor = bottom-right),
            which options on the command line override. Light or dark as --appearance or the file say, else as the
            desktop prefers (org.freedesktop.appearance), else light. Needs libwayland-client0 (on X11 libxcb1 and
            libxcb-shape0) and libcairo2; docs/DESKTOP.md says more. GNOME on Wayland has no layer shell:
            use 'widgets home --app' there.
            """,
        withoutTasks: { $0.desktop() }
    ) { $0.desktop() }
}

extension Options {
    static let output = Option<String>(
        "output", value: "NAME", help: "the output to show the widgets on, by name (e.g. DP-1), or all; default: the compositor's choice (on X11: a monitor, default the primary one)")
    static let anchor = Option<DesktopAnchor>("anchor", value: "PLACE", help: "where on the output: top-left (default), top, top-right, left, center, right, bottom-left, bottom, bottom-right")
    static let margin = Option<DesktopMargins>(
        "margin", value: "POINTS", help: "the space between the widgets and the output's edges: N, or V,H, or T,R,B,L (default 24)"
    ) { text in
        guard let margins = DesktopMargins(text) else {
            return .failure(UsageText("--margin takes points from 0 to 10000: N, V,H or T,R,B,L, not '\(text)'"))
        }
        return .success(margins)
    }
    static let desktopAppearance = Option<Appearance>(
        "appearance", value: "MODE", help: "light or dark (default: as the desktop prefers, else light)")
    static let showActivities = Option<Bool>("activities", value: "on|off", help: "show the Live Activities before the widgets (default on)", parse: onOff("activities"))
    static let showControls = Option<Bool>("controls", value: "on|off", help: "show the Controls as a tile after the widgets (default on)", parse: onOff("controls"))

    static func onOff(_ name: String) -> @Sendable (String) -> Result<Bool, UsageText> {
        { text in
            switch text {
            case "on": .success(true)
            case "off": .success(false)
            default: .failure(UsageText("--\(name) takes on or off, not '\(text)'"))
            }
        }
    }

    static let columns = Option<Int>("columns", value: "N", help: "small widgets a row, from 1 to 12 (default 2)") { text in
        guard let value = Int(text), (1...12).contains(value) else { return .failure(UsageText("--columns takes a whole number from 1 to 12, not '\(text)'")) }
        return .success(value)
    }
}

extension Invocation {
    /// `widgets desktop`: the widgets on the desktop until interrupted or the compositor goes away.
    /// Runs on the thread it is called on for as long as the desktop is shown: under `widgets
    /// desktop`, the main thread, with no task and no libdispatch worker (see `Command.withoutTasks`).
    func desktop() -> ExitCode {
        var options = DesktopOptions(socketPath: ControlSocket.path())
        do throws(UsageError) {
            let settings = try DesktopSettings(path: DesktopSettings.path())
            // The command line's, else the file's.
            func setting<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
                if let given = try value(option) { return given }
                return try settings.value(option)
            }
            options.output = try setting(Options.output)
            options.anchor = try setting(Options.anchor) ?? .topLeft
            options.margins = try setting(Options.margin) ?? DesktopMargins(all: 24)
            options.columns = try setting(Options.columns) ?? 2
            if let given = try setting(Options.desktopAppearance) {
                options.appearance = given
            } else {
                // The desktop's, followed when it changes.
                options.appearance = DesktopAppearance.preferred() ?? .light
                options.followsDesktop = true
            }
            options.activities = try setting(Options.showActivities) ?? true
            options.controls = try setting(Options.showControls) ?? true
        } catch {
            return CLI.usage(error, output)
        }
        options.debug = isSet(Options.verbose)
        let said = self.output
        options.open = { url in
            do throws(TapError) {
                _ = try DesktopOpener.open(url)
            } catch {
                said.standardError("widgets desktop: cannot open the home screen: \(error)")
            }
        }
        let output = self.output
        let client: DesktopClient
        do {
            client = try DesktopClient(options: options) { line in output.standardError("widgets desktop: \(line)") }
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        // SIGINT and SIGTERM end it cleanly: the surface goes with the connection.
        do throws(DesktopError) {
            try client.run(stoppingOnSignals: true)
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        return .success
    }
}


/// The desktop's settings, for a desktop started by its unit with no options:
/// `${XDG_CONFIG_HOME:-~/.config}/widgets/desktop.conf`, a `name = value` a line, the names and
/// values of `widgets desktop`'s options (output, anchor, margin, columns, appearance), `#` starting
/// a comment. An option given on the command line wins. A line that is not one of these is an error
/// naming the file, the line and why.
struct DesktopSettings {
    static let names = ["output", "anchor", "margin", "columns", "appearance", "activities", "controls"]

    let path: String
    private var values: [String: (line: Int, text: String)] = [:]

    static func path(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        XDGBaseDirectory.configHome(environment) + "/widgets/desktop.conf"
    }

    /// The file read; none there is no settings.
    init(path: String) throws(UsageError) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw UsageError(message: "cannot read \(path) (not readable, or not UTF-8 text)", command: "desktop")
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !line.trimmingSpaces.isEmpty else { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw UsageError(message: "\(path) line \(index + 1): expected 'name = value', not '\(line.onOneLine.cut(to: 100))'", command: "desktop")
            }
            guard Self.names.contains(parts[0]) else {
                throw UsageError(
                    message: "\(path) line \(index + 1): no setting '\(parts[0].onOneLine.cut(to: 100))'\(Suggestion.hint(for: parts[0], among: Self.names)) (settings: \(Self.names.joined(separator: ", ")))",
                    command: "desktop")
            }
            values[parts[0]] = (index + 1, parts[1])
        }
    }

    /// The value the file gives `option`, parsed as the option's own; nil when it gives none.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        guard let (line, text) = values[option.spec.name] else { return nil }
        switch option.parse(text) {
        case .success(let value): return value
        case .failure(let failure): throw UsageError(message: "\(path) line \(line): \(failure.text)", command: "desktop")
        }
    }
}

