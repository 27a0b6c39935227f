import FoundationEssentials
import WidgetHost
import WidgetWire

extension Command {
    static let add = Command(
        "add", summary: "Add an instance of a widget, configured with --set; prints its id.",
        arguments: ["KIND"],
        options: [Options.plugins.spec, Options.family.spec, Options.set.spec, Options.stateDirectory.spec, Options.isolation.spec, Options.json.spec],
        discussion: """
            Parameters not set get their default: the widget's, or the provider's default choice. Values are
            checked against the widget's parameters; on any bad input nothing is saved.
            """
    ) { try await $0.add(kind: $0.positionals[0]) }

    static let instances = Command(
        "instances", summary: "List the widget instances and their configurations.",
        options: [Options.stateDirectory.spec, Options.json.spec]
    ) { try $0.instances() }

    static let configure = Command(
        "configure", summary: "Change an instance's configuration.", arguments: ["ID"],
        options: [Options.plugins.spec, Options.set.spec, Options.stateDirectory.spec, Options.isolation.spec]
    ) { try await $0.configure(id: $0.positionals[0]) }

    static let remove = Command(
        "remove", summary: "Remove a widget instance.", arguments: ["ID"], options: [Options.stateDirectory.spec]
    ) { try $0.remove(id: $0.positionals[0]) }

    static let options = Command(
        "options", summary: "List the choices for a parameter, as a configuration screen offers them.",
        arguments: ["KIND", "PARAMETER"], options: [Options.plugins.spec, Options.set.spec, Options.isolation.spec, Options.json.spec],
        discussion: """
            Fixed cases come from the widget's description; dynamic ones from its provider, which may
            offer choices by the parameters set before (--set NAME=VALUE, as a configuration screen has
            them).
            """
    ) { try await $0.options(kind: $0.positionals[0], parameter: $0.positionals[1]) }

    static let recommendations = Command(
        "recommendations", summary: "List the preconfigured instances a widget's provider recommends.",
        arguments: ["KIND"], options: [Options.plugins.spec, Options.isolation.spec, Options.json.spec]
    ) { try await $0.recommendations(kind: $0.positionals[0]) }
}

extension Invocation {
    func add(kind: String) async throws(UsageError) -> ExitCode {
        let requested = try value(Options.family)
        let (registry, _) = try loadSearchPath(for: kind)
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        return await reporting {
            let (_, family) = try registry.widget(kind: kind, family: requested)
            let configuration = try await registry.configuration(kind: kind, assignments: try values(Options.set))
            let instance = try store.update { (list) throws(StateError) in try list.add(kind: kind, family: family, configuration: configuration) }
            output.standardOutput(json ? Render.instanceJSON(instance).jsonText : instance.id)
            notifyRunningHost()
            return .success
        }
    }

    func instances() throws(UsageError) -> ExitCode {
        do {
            let list = try store.load()
            if json {
                output.standardOutput(JSONValue.array(list.instances.map(Render.instanceJSON)).jsonText)
            } else if list.instances.isEmpty {
                output.standardOutput("No instances. Add one with 'widgets add KIND [--family F] [--set NAME=VALUE ...]'.")
            } else {
                let rows = list.instances.map { instance in
                    [instance.id, instance.kind, instance.family.rawValue, Render.describe(instance.configuration)]
                }
                output.standardOutput(Render.table(header: ["ID", "KIND", "FAMILY", "CONFIGURATION"], rows: rows))
            }
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }

    func configure(id: String) async throws(UsageError) -> ExitCode {
        let assignments = try values(Options.set)
        guard !assignments.isEmpty else { throw usageError("'widgets configure' needs at least one --set NAME=VALUE") }
        guard let instance = instanceOrReport(id: id) else { return .failure }
        let (registry, _) = try loadSearchPath(for: instance.kind)
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        return await reporting {
            guard registry.widget(kind: instance.kind) != nil else {
                throw ConfigurationError(
                    description: "instance \(id) is a \"\(instance.kind)\", and no loaded bundle provides it: its values cannot be checked; nothing was changed")
            }
            let checked = try await registry.configuration(kind: instance.kind, base: instance.configuration, assignments: assignments)
            // Checking may ask the provider and take a while: under the lock, only the parameters set
            // here are written over what is saved now, so a change made meanwhile to another
            // parameter (a second `configure`) is kept.
            let assigned = Set(try assignments.map { text throws(ConfigurationError) in try ConfigurationValues.assignment(text).name })
            let configuration = try store.update { list throws(StateError) in try list.configure(id: id, checked: checked, assigned: assigned) }
            output.standardOutput("\(id): \(Render.describe(configuration))")
            notifyRunningHost()
            return .success
        }
    }

    func remove(id: String) throws(UsageError) -> ExitCode {
        do {
            try store.update { list throws(StateError) in
                guard let index = list.instances.firstIndex(where: { $0.id == id }) else { throw list.missing(id: id) }
                list.instances.remove(at: index)
            }
            notifyRunningHost()
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }

    func options(kind: String, parameter: String) async throws(UsageError) -> ExitCode {
        let (registry, _) = try loadSearchPath(for: kind)
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        return await reporting {
            let soFar = try await registry.configuration(kind: kind, assignments: try values(Options.set), complete: false)
            let options = try await registry.options(kind: kind, parameter: parameter, configuration: soFar)
            if json {
                output.standardOutput(options.json.jsonText)
            } else {
                let rows = options.options.map { option in
                    [
                        option.value.displayText, option.title + (option.subtitle.map { " — \($0)" } ?? ""),
                        option.value == options.defaultValue ? "(default)" : "",
                    ]
                }
                output.standardOutput(rows.isEmpty ? "No options offered now." : Render.table(header: nil, rows: rows))
            }
            return .success
        }
    }

    func recommendations(kind: String) async throws(UsageError) -> ExitCode {
        let (registry, _) = try loadSearchPath(for: kind)
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        return await reporting {
            let list = try await registry.recommendations(kind: kind)
            if json {
                output.standardOutput(WireRecommendation.json(list).jsonText)
            } else {
                output.standardOutput(
                    list.isEmpty
                        ? "No recommendations."
                        : Render.table(header: nil, rows: list.map { [$0.description, Render.describe($0.configuration)] }))
            }
            return .success
        }
    }
}
