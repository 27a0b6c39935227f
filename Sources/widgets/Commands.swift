import Foundation
import WidgetHost
import WidgetWire

/// Exit codes: 0 success, 1 a refused bundle or failed request, 2 a usage error.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
}

let familyOption = (
    name: "family", value: "FAMILY",
    help: "the family to render (\(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))); default: the widget's first"
)
let jsonFlag = (name: "json", help: "print JSON for scripts")
let memoryLimitOption = (name: "memory-limit", value: "MB", help: "the heap each provider may hold (default 30, as on iOS)")
let isolationOption = (
    name: "isolation", value: "MODE",
    help: "process (default): each bundle in a worker process, so a crash is contained; queue: all in this process"
)

let setOption = (name: "set", value: "NAME=VALUE", help: "set a parameter (repeat for several; NAME= clears an optional one)")
let stateDirectoryOption = (
    name: "state-dir", value: "DIR", help: "where widget instances are kept (default: $XDG_STATE_HOME/widgets)"
)
let instanceOption = (name: "instance", value: "ID", help: "ask for this instance: its family and configuration")
let renderingModeOption = (
    name: "rendering-mode", value: "MODE",
    help: "fullColor, accented or vibrant (default: vibrant for accessory families, as on the Lock Screen, else fullColor)"
)
let lockedFlag = (name: "locked", help: "draw as on a locked device: views marked privacySensitive are redacted")

let commands: [CommandSpec] = [
    CommandSpec(
        name: "list", summary: "List the bundles on the search path and the widgets they register.", arguments: [],
        valueOptions: [isolationOption], flags: [jsonFlag],
        discussion: """
            Refused bundles are reported one line each on standard error, and make the exit code 1. In process
            isolation (the default) each bundle is loaded by a worker process, so a bundle that crashes
            while loading is reported like any other refusal.
            """),
    CommandSpec(
        name: "load", summary: "Load and validate one bundle file: print what it registers, or exactly why it is refused.",
        arguments: ["PATH"], valueOptions: [isolationOption], flags: [jsonFlag], discussion: ""),
    CommandSpec(
        name: "placeholder", summary: "Ask a widget's provider for its placeholder (shown redacted while loading).",
        arguments: ["KIND"], valueOptions: [familyOption, memoryLimitOption, isolationOption], flags: [jsonFlag], discussion: ""),
    CommandSpec(
        name: "snapshot", summary: "Ask a widget's provider for a snapshot (its current entry, for the gallery).",
        arguments: ["[KIND]"], valueOptions: [familyOption, instanceOption, stateDirectoryOption, memoryLimitOption, isolationOption],
        flags: [jsonFlag], discussion: "Give KIND, or --instance ID to send that instance's configuration."),
    CommandSpec(
        name: "timeline", summary: "Ask a widget's provider for a timeline: dated entries and a reload policy.",
        arguments: ["[KIND]"], valueOptions: [familyOption, instanceOption, stateDirectoryOption, memoryLimitOption, isolationOption],
        flags: [jsonFlag], discussion: "Give KIND, or --instance ID to send that instance's configuration."),
    CommandSpec(
        name: "add", summary: "Add an instance of a widget, configured with --set; prints its id.",
        arguments: ["KIND"], valueOptions: [familyOption, setOption, stateDirectoryOption, isolationOption], flags: [jsonFlag],
        discussion: """
            Parameters not set get their default: the widget's, or the provider's default choice. Values are
            checked against the widget's parameters; on any bad input nothing is saved.
            """),
    CommandSpec(
        name: "instances", summary: "List the widget instances and their configurations.", arguments: [],
        valueOptions: [stateDirectoryOption], flags: [jsonFlag], discussion: ""),
    CommandSpec(
        name: "configure", summary: "Change an instance's configuration.", arguments: ["ID"],
        valueOptions: [setOption, stateDirectoryOption, isolationOption], flags: [], discussion: ""),
    CommandSpec(
        name: "remove", summary: "Remove a widget instance.", arguments: ["ID"], valueOptions: [stateDirectoryOption], flags: [],
        discussion: ""),
    CommandSpec(
        name: "options", summary: "List the choices for a parameter, as a configuration screen offers them.",
        arguments: ["KIND", "PARAMETER"], valueOptions: [isolationOption], flags: [jsonFlag],
        discussion: "Fixed cases come from the widget's description; dynamic ones from its provider."),
    CommandSpec(
        name: "recommendations", summary: "List the preconfigured instances a widget's provider recommends.",
        arguments: ["KIND"], valueOptions: [isolationOption], flags: [jsonFlag], discussion: ""),
    CommandSpec(
        name: "run", summary: "Host every instance live: timelines, reloads, and the control socket for apps.", arguments: [],
        valueOptions: [
            stateDirectoryOption, memoryLimitOption, isolationOption,
            (name: "appearance", value: "MODE", help: "the dashboard's light or dark (default dark)"),
            (name: "color", value: "MODE", help: "the dashboard's colours: auto (default), none, 256 or truecolor"),
            renderingModeOption,
        ],
        flags: [
            lockedFlag,
            (name: "development", help: "no reload budget, as under Xcode's debugger"),
            (name: "log", help: "print a line per change instead of the dashboard (the default when not on a terminal)"),
        ],
        discussion: """
            On a terminal it shows a live dashboard: every instance's box in a grid, with timers and relative dates
            ticking every second, redrawn cell by cell. Otherwise (or with --log) it prints a line whenever what an
            instance shows changes. Entries switch at their dates without
            calling the provider; a new timeline is requested when its policy says (.atEnd, .after(date)), when
            an app asks through WidgetCenter or 'widgets reload', and after a failure (with backoff). Budgeted
            reloads are at most 50 in any 24 hours per instance, 5 minutes apart. Apps and the shell reach
            the host on $XDG_RUNTIME_DIR/widgets/control.sock (else /tmp/widgets-UID/). Stops on SIGINT or SIGTERM.
            """),
    CommandSpec(
        name: "reload", summary: "Ask the running host to reload the timelines of KIND's instances (of all, without KIND).",
        arguments: ["[KIND]"], valueOptions: [],
        flags: [(name: "foreground", help: "as an app in the foreground: outside the reload budget")],
        discussion: "What WidgetCenter.shared.reloadTimelines(ofKind:) and reloadAllTimelines() do from an app."),
    CommandSpec(
        name: "configurations", summary: "List the running host's instances, as WidgetCenter's currentConfigurations() does.",
        arguments: [], valueOptions: [], flags: [jsonFlag], discussion: ""),
    CommandSpec(
        name: "open", summary: "Open a deep link with the bundle that claims its scheme (its onOpenURL).", arguments: ["URL"],
        valueOptions: [isolationOption], flags: [],
        discussion: "Through the running host when there is one; a URL no bundle claims is an error naming the schemes claimed."),
    CommandSpec(
        name: "tap", summary: "Tap an instance: its widgetURL, its Nth Link, or its Nth Button(intent:)/Toggle.", arguments: ["ID"],
        valueOptions: [
            (name: "link", value: "N", help: "tap the Nth Link, in reading order (not in systemSmall widgets, as on iOS)"),
            (name: "button", value: "N", help: "tap the Nth Button(intent:) or Toggle: its intent is performed, then the widget reloads"),
            stateDirectoryOption, isolationOption,
        ], flags: [],
        discussion: """
            Without --link or --button, a tap on the widget itself opens its widgetURL (with several, the first in
            reading order). URLs go to the instance's own bundle. Through the running host, which taps the entry it
            shows and reloads the instance after an intent; with none running, the entry its timeline shows now.
            """),
    CommandSpec(
        name: "render", summary: "Draw a widget's current entry in a framed box of its family's size, in colour.",
        arguments: ["[KIND]"],
        valueOptions: [
            familyOption, instanceOption,
            (name: "appearance", value: "MODE", help: "light or dark (default dark)"),
            (name: "color", value: "MODE", help: "auto (default: colour on a terminal, none with NO_COLOR), none, 256 or truecolor"),
            renderingModeOption, stateDirectoryOption, isolationOption,
        ],
        flags: [(name: "placeholder", help: "draw the placeholder, redacted as iOS shows it while loading"), lockedFlag],
        discussion: """
            The widget's views are built for the appearance and rendering mode drawn (its environment's
            colorScheme and widgetRenderingMode). The current entry is the latest of the provider's timeline whose date has come. A family's box is its
            size in points at 8 × 16 points a cell: systemSmall is 20 × 10 cells (docs/RENDERING.md has the table).
            """),
    CommandSpec(
        name: "gallery", summary: "Write every widget in every family, placeholder and snapshot, as SVG and an HTML page.",
        arguments: [],
        valueOptions: [
            (name: "out", value: "DIR", help: "the directory to write index.html and the .svg files to (created if needed)"),
            (name: "appearance", value: "MODE", help: "light (default) or dark"), renderingModeOption, isolationOption,
        ],
        flags: [],
        discussion: "Open DIR/index.html in a browser. Links and widget URLs in the images are clickable."),
    CommandSpec(
        name: "stats", summary: "Ask every provider for its placeholder, snapshot and timeline, and show what each did.",
        arguments: [], valueOptions: [memoryLimitOption, isolationOption], flags: [jsonFlag],
        discussion: """
            Per provider: calls, failures, the heap its current run holds (live) and the most any run held
            (peak), runs terminated for going over the memory limit, calls its worker crashed or was
            killed during (process isolation), and time in calls. Failures are reported one line each on
            standard error, and make the exit code 1.
            """),
]

/// Wide enough for the longest command name and two spaces.
let commandNameWidth = (commands.map(\.name.count).max() ?? 0) + 2

let overview = """
    widgets: host and inspect WidgetKit-style widget bundles on Linux.

    Usage: widgets [--plugins DIR] COMMAND [options] [arguments]

    Commands:
    \(commands.map { "  \($0.name.padding(toLength: commandNameWidth, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))

    Bundles are shared objects (.so) in widgets.d/ directories: --plugins DIR, else the directories of
    WIDGETS_PATH (colon-separated), else ./widgets.d (the nearest one above the working directory) and
    $XDG_DATA_HOME/widgets/widgets.d. Run 'widgets COMMAND --help' for a command's options.
    """

struct Output: Sendable {
    /// Written at once, line by line, not through stdio's buffer: `widgets run` is read live from pipes.
    var standardOutput: @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }
    var standardError: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
}

func run(_ arguments: [String], output: Output = Output()) async -> ExitCode {
    var rest = arguments[...]
    var globalPlugins: String?
    // Global options may come before the command.
    while let first = rest.first, first.hasPrefix("-") {
        rest.removeFirst()
        switch first {
        case "-h", "--help":
            output.standardOutput(overview)
            return .success
        case "--plugins":
            guard let value = rest.popFirst() else { return usage(UsageError(message: "option '--plugins' needs a value", command: nil), output) }
            globalPlugins = value
        case let option where option.hasPrefix("--plugins="):
            globalPlugins = String(option.dropFirst("--plugins=".count))
        default:
            return usage(UsageError(message: "unknown option '\(first)'", command: nil), output)
        }
    }
    guard let name = rest.popFirst() else {
        output.standardOutput(overview)
        return .usage
    }
    if name == "help" {
        guard let topic = rest.first else {
            output.standardOutput(overview)
            return .success
        }
        guard let spec = commands.first(where: { $0.name == topic }) else {
            return usage(UsageError(message: "unknown command '\(topic)'", command: nil), output)
        }
        output.standardOutput(spec.help)
        return .success
    }
    guard let spec = commands.first(where: { $0.name == name }) else {
        let known = commands.map(\.name).joined(separator: ", ")
        return usage(UsageError(message: "unknown command '\(name)' (commands: \(known), help)", command: nil), output)
    }
    let parsed: ParsedArguments
    do {
        parsed = try parse(rest, for: spec)
    } catch {
        return usage(error, output)
    }
    if parsed.help {
        output.standardOutput(spec.help)
        return .success
    }
    let context = CommandContext(command: spec.name, arguments: parsed, plugins: parsed.plugins ?? globalPlugins, output: output)
    do {
        switch spec.name {
        case "list": return try context.list()
        case "load": return try context.load(parsed.positionals[0])
        case "stats": return try await context.stats()
        case "placeholder": return try await context.request(.placeholder, kind: parsed.positionals[0])
        case "snapshot": return try await context.request(.snapshot, kind: parsed.positionals.first)
        case "timeline": return try await context.request(.timeline, kind: parsed.positionals.first)
        case "add": return try await context.add(kind: parsed.positionals[0])
        case "instances": return try context.instances()
        case "configure": return try await context.configure(id: parsed.positionals[0])
        case "remove": return try context.remove(id: parsed.positionals[0])
        case "options": return try await context.options(kind: parsed.positionals[0], parameter: parsed.positionals[1])
        case "run": return try await context.runHost()
        case "reload": return context.reload(kind: parsed.positionals.first)
        case "configurations": return context.configurations()
        case "open": return try await context.open(url: parsed.positionals[0])
        case "render": return try await context.render(kind: parsed.positionals.first)
        case "gallery": return try await context.gallery()
        case "tap": return try await context.tap(id: parsed.positionals[0])
        default: return try await context.recommendations(kind: parsed.positionals[0])
        }
    } catch {
        return usage(error, output)
    }
}

private func usage(_ error: UsageError, _ output: Output) -> ExitCode {
    output.standardError("widgets: \(error.message)")
    output.standardError(
        error.command.map { "Run 'widgets \($0) --help' for its usage." } ?? "Run 'widgets --help' for the commands.")
    return .usage
}

extension CommandContext {
    func stats() async throws(UsageError) -> ExitCode {
        let (registry, _) = try loadSearchPath()
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        var failed = false
        for widget in registry.widgets {
            for requestKind in RequestKind.allCases where requestKind.answersWithEntries {
                do {
                    _ = try await registry.request(requestKind, kind: widget.kind)
                } catch {
                    failed = true
                    output.standardError("widgets: error: \(error)")
                }
            }
        }
        let rows = registry.widgets.map { ($0, registry.statistics(kind: $0.kind) ?? ProviderStatistics()) }
        output.standardOutput(json ? Render.statisticsJSON(rows).jsonText : Render.statisticsText(rows, memoryLimit: registry.memoryLimit, isolation: registry.isolation))
        return failed ? .failure : .success
    }
}

struct CommandContext {
    /// The command's name, for the help hint of a usage error.
    let command: String
    let arguments: ParsedArguments
    let plugins: String?
    let output: Output

    var json: Bool { arguments.flags.contains("json") }

    /// A registry with the command's settings: --memory-limit and --isolation.
    func makeRegistry() throws(UsageError) -> WidgetRegistry {
        var memoryLimit = MemoryGuard.defaultLimit
        if let text = arguments.values["memory-limit"] {
            guard let megabytes = Double(text), megabytes > 0, megabytes < 1_000_000 else {
                throw UsageError(message: "--memory-limit takes a number of megabytes above 0, not '\(text)'", command: command)
            }
            memoryLimit = Int64(megabytes * 1_048_576)
        }
        let isolation: Isolation
        switch arguments.values["isolation"] ?? "process" {
        case "process": isolation = .process(.thisExecutable)
        case "queue": isolation = .queue
        case let other: throw UsageError(message: "--isolation takes 'process' or 'queue', not '\(other)'", command: command)
        }
        return WidgetRegistry(memoryLimit: memoryLimit, isolation: isolation)
    }

    func loadSearchPath() throws(UsageError) -> (WidgetRegistry, [String]) {
        let registry = try makeRegistry()
        let searchPath = BundleSearchPath.resolve(plugins: plugins)
        for directory in searchPath { registry.loadDirectory(directory) }
        return (registry, searchPath)
    }

    func reportProblems(_ registry: WidgetRegistry, as level: String = "error") {
        for problem in registry.problems { output.standardError("widgets: \(level): \(problem)") }
    }

    func list() throws(UsageError) -> ExitCode {
        let (registry, searchPath) = try loadSearchPath()
        defer { registry.shutDownWorkers() }
        if json {
            output.standardOutput(Render.registryJSON(registry, searchPath: searchPath).jsonText)
        } else {
            if !registry.bundles.isEmpty { output.standardOutput(Render.registryText(registry)) }
            if registry.widgets.isEmpty {
                output.standardOutput(
                    "No widgets found. Searched: \(searchPath.joined(separator: ", ")).\n"
                        + "Drop bundles (.so) into one of these directories, or build the samples with 'make run'.")
            }
        }
        // Directories the user named get a hint; the defaults may well not exist.
        let named = plugins != nil || !(ProcessInfo.processInfo.environment["WIDGETS_PATH"] ?? "").isEmpty
        for directory in registry.missingDirectories where named {
            output.standardError("widgets: hint: \(directory) does not exist; create it and drop bundles (.so) in")
        }
        reportProblems(registry)
        return registry.problems.isEmpty ? .success : .failure
    }

    func load(_ path: String) throws(UsageError) -> ExitCode {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let registry = try makeRegistry()
        defer { registry.shutDownWorkers() }
        registry.load(file: absolute)
        if json {
            output.standardOutput(Render.registryJSON(registry, searchPath: []).jsonText)
        } else if !registry.bundles.isEmpty {
            output.standardOutput(Render.registryText(registry))
        }
        reportProblems(registry)
        return registry.problems.isEmpty && !registry.bundles.isEmpty ? .success : .failure
    }

    func requestedFamily() throws(UsageError) -> WidgetFamily? {
        guard let name = arguments.values["family"] else { return nil }
        guard let parsed = WidgetFamily(rawValue: name) else {
            throw UsageError(
                message: "unknown family '\(name)' (families: \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")))",
                command: command)
        }
        return parsed
    }

    /// What a request command asks about: a KIND, or `--instance ID` with the instance's family and
    /// configuration. Nil when the instance cannot be read (the reason is printed).
    func requestTarget(kind named: String?) throws(UsageError) -> (kind: String, family: WidgetFamily?, configuration: String, instance: WidgetInstance?)? {
        let family = try requestedFamily()
        guard let id = arguments.values["instance"] else {
            guard let named else { throw UsageError(message: "'widgets \(command)' needs KIND or --instance ID", command: command) }
            return (named, family, "{}", nil)
        }
        guard let instance = instanceOrReport(id: id) else { return nil }
        if let named, named != instance.kind {
            throw UsageError(message: "instance \(id) is a \(instance.kind), not a \(named)", command: command)
        }
        if let family, family != instance.family {
            throw UsageError(message: "instance \(id) is \(instance.family); leave out --family", command: command)
        }
        return (instance.kind, instance.family, instance.configurationText, instance)
    }

    func request(_ requestKind: RequestKind, kind named: String?) async throws(UsageError) -> ExitCode {
        guard let target = try requestTarget(kind: named) else { return .failure }
        let (registry, _) = try loadSearchPath()
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        do {
            let result = try await registry.request(requestKind, kind: target.kind, family: target.family, configuration: target.configuration)
            output.standardOutput(json ? Render.resultJSON(result).jsonText : Render.resultText(result))
            for note in result.notes where !json { output.standardError("widgets: note: widget \"\(target.kind)\": \(note)") }
            return .success
        } catch {
            // A request for an instance names it: its configuration may be what failed.
            output.standardError("widgets: error: " + (target.instance.map { "instance \($0.id): " } ?? "") + "\(error)")
            return .failure
        }
    }
}
