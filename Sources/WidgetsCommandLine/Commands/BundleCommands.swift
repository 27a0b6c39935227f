import FoundationEssentials
import WidgetABI
import WidgetHost
import WidgetSupport
import WidgetWire

extension Command {
    static let list = Command(
        "list", summary: "List the bundles on the search path and the widgets they register; or one widget (KIND) or bundle (PATH).",
        arguments: ["[KIND|PATH]"],
        options: [Options.plugins.spec, Options.isolation.spec, Options.short.spec, Options.json.spec],
        discussion: """
            Like gst-inspect: without an argument every bundle and widget; with a kind, that widget and its
            bundle; with a path (containing '/', or ending in .so or .widgetbundle), that bundle, loaded even when it is not on the
            search path. --short prints one line per widget: kind, name, families, bundle. Refused bundles are
            reported one line each on standard error, and make the exit code 1. In process isolation (the
            default) each bundle is loaded by a worker process, so a bundle that crashes while loading is
            reported like any other refusal.
            """
    ) { try $0.list(argument: $0.argument(0)) }

    static let load = Command(
        "load", summary: "Load and validate one bundle file: print what it registers, or exactly why it is refused.",
        arguments: ["PATH"], options: [Options.isolation.spec, Options.json.spec]
    ) { try $0.load($0.positionals[0]) }

    static let stats = Command(
        "stats", summary: "Ask every provider for its placeholder, snapshot and timeline, and show what each did.",
        options: [Options.plugins.spec, Options.memoryLimit.spec, Options.isolation.spec, Options.json.spec],
        discussion: """
            Per provider: calls, failures, the heap its current run holds (live) and the most any run held
            (peak), runs terminated for going over the memory limit, calls its worker crashed or was
            killed during (process isolation), and time in calls. Failures are reported one line each on
            standard error, and make the exit code 1.
            """
    ) { try await $0.stats() }
}

extension Invocation {
    func list(argument: String?) throws(UsageError) -> ExitCode {
        if let argument, argument.contains("/") || argument.hasSuffix(".so") || ResourceBundleLayout.isBundleDirectory(argument) {
            return try listBundle(argument)
        }
        let (registry, searchPath) = try loadSearchPath()
        defer { registry.shutDownWorkers() }
        if let kind = argument {
            guard registry.widget(kind: kind) != nil else {
                let kinds = registry.widgets.map(\.kind)
                output.standardError(
                    "widgets: error: no widget of kind \"\(kind)\" on the search path\(Suggestion.hint(for: kind, among: kinds))"
                        + (kinds.isEmpty ? " (no widgets found: \(searchPath.joined(separator: ", ")))" : " (kinds: \(kinds.joined(separator: ", ")))"))
                reportProblems(registry, as: "warning")
                return .failure
            }
            output.standardOutput(json ? Render.widgetJSON(registry.widget(kind: kind)!).jsonText : isSet(Options.short) ? Render.registryShort(registry, kind: kind) : Render.registryText(registry, kind: kind))
            return .success
        }
        if isSet(Options.short) {
            if !registry.widgets.isEmpty { output.standardOutput(Render.registryShort(registry)) }
            reportProblems(registry)
            return registry.problems.isEmpty ? .success : .failure
        }
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
        let named = try value(Options.plugins) != nil || !(ProcessInfo.processInfo.environment["WIDGETS_PATH"] ?? "").isEmpty
        for directory in registry.missingDirectories where named {
            output.standardError("widgets: hint: \(directory) does not exist; create it and drop bundles (.so) in")
        }
        reportProblems(registry)
        return registry.problems.isEmpty ? .success : .failure
    }

    /// `widgets list PATH`: the bundle at PATH, from the search path's loading, or loaded alone.
    func listBundle(_ path: String) throws(UsageError) -> ExitCode {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let registry = try makeRegistry()
        defer { registry.shutDownWorkers() }
        registry.load(file: absolute)
        if json {
            output.standardOutput(Render.registryJSON(registry, searchPath: []).jsonText)
        } else if isSet(Options.short) {
            if !registry.widgets.isEmpty { output.standardOutput(Render.registryShort(registry)) }
        } else if !registry.bundles.isEmpty {
            output.standardOutput(Render.registryText(registry))
        }
        reportProblems(registry)
        return registry.problems.isEmpty && !registry.bundles.isEmpty ? .success : .failure
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
        output.standardOutput(
            json
                ? Render.statisticsJSON(rows).jsonText
                : Render.statisticsText(rows, memoryLimit: registry.memoryLimit, isolation: registry.isolation))
        return failed ? .failure : .success
    }
}
