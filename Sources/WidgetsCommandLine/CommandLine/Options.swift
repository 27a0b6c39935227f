import FoundationEssentials
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetWeb
import WidgetWire

/// Every option of every command, each declared once. A command lists those it takes; help, the man
/// page and the completions are made from these declarations.
enum Options {
    // Every command's, before or after its name (`CLI.globalOptions`).
    static let help = Option(flag: "help", help: "show help (also -h)")
    static let verbose = Option(flag: "verbose", help: "say more: the host's debug lines (also -v; WIDGETS_LOG=debug)")
    static let quiet = Option(flag: "quiet", help: "say only warnings and errors (also -q; WIDGETS_LOG=warning)")
    static let noCache = Option(flag: "no-cache", help: "load every bundle, not reading the registry cache ($XDG_CACHE_HOME/widgets)")

    static let plugins = Option<String>(
        "plugins", value: "DIR",
        help: "load bundles from DIR only (default: WIDGETS_PATH, else ./widgets.d, $XDG_DATA_HOME/widgets/widgets.d, then the installed PREFIX/lib/widgets/widgets.d)")

    static let json = Option(flag: "json", help: "print JSON for scripts")

    static let watchFormat = Option<WatchFormat>("format", value: "FORMAT", help: "text (default), json (one object a line), waybar (a custom module's JSON, kept up while the host restarts) or eww (the same, no markup)")

    static let family = Option<WidgetFamily>(
        "family", value: "FAMILY",
        help: "the family (\(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")), or small, medium...); default: the widget's first",
        choices: WidgetFamily.allCases.map(\.rawValue)
    ) { text in
        guard let family = WidgetFamily(named: text) else {
            let names = WidgetFamily.allCases.map(\.rawValue)
            return .failure(
                UsageText("unknown family '\(text)'\(Suggestion.hint(for: text, among: names + WidgetFamily.allCases.map(\.shortName))) (families: \(names.joined(separator: ", ")))"))
        }
        return .success(family)
    }

    static let memoryLimit = Option<Int64>(
        "memory-limit", value: "MB", help: "the heap each provider may hold (default 30, as on iOS)"
    ) { text in
        guard let megabytes = Double(text), megabytes > 0, megabytes < 1_000_000 else {
            return .failure(UsageText("--memory-limit takes a number of megabytes above 0, not '\(text)'"))
        }
        return .success(Int64(megabytes * 1_048_576))
    }

    static let isolation = Option<Isolation>(
        "isolation", value: "MODE",
        help: "process (default): each bundle in a worker process, so a crash is contained; queue: all in this process",
        choices: ["process", "queue"]
    ) { text in
        switch text {
        case "process": .success(.process(.thisExecutable))
        case "queue": .success(.queue)
        default: .failure(UsageText("--isolation takes 'process' or 'queue', not '\(text)'"))
        }
    }

    static let set = Option<String>(
        "set", value: "NAME=VALUE", help: "set a parameter (repeat for several; NAME= clears an optional one)", repeatable: true)

    static let stateDirectory = Option<String>(
        "state-dir", value: "DIR", help: "where widget instances are kept (default: $XDG_STATE_HOME/widgets)")

    static let instance = Option<String>("instance", value: "ID", help: "ask for this instance: its family and configuration")

    static let renderingMode = Option<RenderingEnvironment.RenderingMode>(
        "rendering-mode", value: "MODE",
        help: "fullColor, accented or vibrant (default: vibrant for accessory families, as on the Lock Screen, else fullColor)")

    static let locked = Option(flag: "locked", help: "draw as on a locked device: views marked privacySensitive are redacted")

    static let appearance = Option<Appearance>("appearance", value: "MODE", help: "light or dark (default dark, for every command)")

    /// The appearance `render`, `run` and `gallery` draw in unless told.
    static let defaultAppearance = Appearance.dark

    static let color = Option<ColorSetting>(
        "color", value: "MODE", help: "auto (default: colour on a terminal, none with NO_COLOR), none, 256 or truecolor",
        choices: ["auto", "none", "256", "truecolor"]
    ) { text in
        if text == "auto" { return .success(.auto) }
        guard let mode = TerminalRenderer.ColorMode(rawValue: text) else {
            return .failure(UsageText("--color takes auto, none, 256 or truecolor, not '\(text)'"))
        }
        return .success(.fixed(mode))
    }

    static let placeholder = Option(flag: "placeholder", help: "draw the placeholder, redacted as iOS shows it while loading")

    static let development = Option(flag: "development", help: "no reload budget, as under Xcode's debugger")

    static let log = Option(flag: "log", help: "print a line per change instead of the dashboard (the default when not on a terminal)")

    static let foreground = Option(flag: "foreground", help: "as an app in the foreground: outside the reload budget")

    static let link = Option<Int>(
        "link", value: "N", help: "tap the Nth Link, in reading order (not in systemSmall widgets, as on iOS)", parse: positiveNumber("link"))

    static let button = Option<Int>(
        "button", value: "N", help: "tap the Nth Button(intent:) or Toggle: its intent is performed, then the widget reloads",
        parse: positiveNumber("button"))

    static let web = Option<ListenAddress>(
        "web", optionalValue: "ADDR:PORT", implicitValue: "127.0.0.1:0",
        help: "also serve the home screen in a browser, at ADDR:PORT (default: loopback, a port chosen once and kept); prints its URL"
    ) { text in
        do {
            return .success(try ListenAddress(parsing: text))
        } catch {
            return .failure(UsageText("--web takes ADDR:PORT, such as 127.0.0.1:8080: \(error)"))
        }
    }

    static let short = Option(flag: "short", help: "one line per widget: kind, name, families, bundle")

    static let printOnly = Option(flag: "print", help: "print the address instead of opening it")
    static let appWindow = Option(flag: "app", help: "open it as a window of its own (a Chromium-family browser's --app)")

    static let out = Option<String>("out", value: "DIR", help: "the directory to write index.html and the .svg files to (created if needed)")

    static let png = Option<String>(
        "png", value: "FILE", help: "write the drawing to FILE as a PNG image instead (- for standard output; needs libcairo2; librsvg2-2 for a picture other than a PNG)")

    static let galleryPNG = Option(flag: "png", help: "also write each drawing as a PNG image (needs libcairo2; librsvg2-2 for a picture other than a PNG)")

    static let scale = Option<Double>("scale", value: "N", help: "pixels per point of a PNG image, from 0.5 to 8 (default 2, as a phone's screen)") { text in
        guard let value = Double(text), value >= 0.5, value <= 8 else { return .failure(UsageText("--scale takes a number from 0.5 to 8, not '\(text)'")) }
        return .success(value)
    }

    static func positiveNumber(_ name: String) -> @Sendable (String) -> Result<Int, UsageText> {
        { text in
            guard let value = Int(text), value >= 1 else { return .failure(UsageText("--\(name) takes a whole number from 1, not '\(text)'")) }
            return .success(value)
        }
    }
}

/// `--color`: the terminal's own (`auto`) or a chosen mode.
enum ColorSetting: Sendable {
    case auto
    case fixed(TerminalRenderer.ColorMode)
}
