import Foundation
import WidgetHost
import WidgetWire

extension CommandContext {
    var store: InstanceStore {
        InstanceStore(directory: arguments.values["state-dir"].map { URL(fileURLWithPath: $0) } ?? InstanceStore.defaultDirectory())
    }

    /// The saved instance `id`, or nil after printing why it cannot be had (no such instance, an
    /// unreadable state file).
    func instanceOrReport(id: String) -> WidgetInstance? {
        do {
            let list = try store.load()
            guard let instance = list.instance(id: id) else { throw list.missing(id: id) }
            return instance
        } catch {
            output.standardError("widgets: error: \(error)")
            return nil
        }
    }

    /// Runs `body`, printing any error as one line; exit code 1 on error.
    private func reporting(_ body: () async throws -> ExitCode) async -> ExitCode {
        do {
            return try await body()
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }

    func add(kind: String) async throws(UsageError) -> ExitCode {
        let requested = try requestedFamily()
        let (registry, _) = try loadSearchPath()
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        return await reporting {
            let (_, family) = try registry.widget(kind: kind, family: requested)
            let configuration = try await registry.configuration(kind: kind, assignments: arguments.lists["set"] ?? [])
            let instance = try store.update { list in list.add(kind: kind, family: family, configuration: configuration) }
            output.standardOutput(json ? Self.json(instance).jsonText : instance.id)
            notifyRunningHost()
            return .success
        }
    }

    func instances() throws(UsageError) -> ExitCode {
        do {
            let list = try store.load()
            if json {
                output.standardOutput(JSONValue.array(list.instances.map(Self.json)).jsonText)
            } else if list.instances.isEmpty {
                output.standardOutput("No instances. Add one with 'widgets add KIND [--family F] [--set NAME=VALUE ...]'.")
            } else {
                let rows = list.instances.map { instance in
                    [instance.id, instance.kind, instance.family.rawValue, Self.describe(instance.configuration)]
                }
                output.standardOutput(Self.table(header: ["ID", "KIND", "FAMILY", "CONFIGURATION"], rows: rows))
            }
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }

    func configure(id: String) async throws(UsageError) -> ExitCode {
        let assignments = arguments.lists["set"] ?? []
        guard !assignments.isEmpty else { throw UsageError(message: "'widgets configure' needs at least one --set NAME=VALUE", command: "configure") }
        guard let instance = instanceOrReport(id: id) else { return .failure }
        let (registry, _) = try loadSearchPath()
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
            let configuration = try store.update { list throws(StateError) -> JSONObject in
                // Removed meanwhile by another command: say so rather than bring it back.
                guard let index = list.instances.firstIndex(where: { $0.id == id }) else {
                    throw StateError(description: "instance \"\(id)\" was removed while being configured; nothing was changed")
                }
                var merged = list.instances[index].configuration
                for (name, value) in checked.members where assigned.contains(name) || merged[name] == nil { merged[name] = value }
                // Parameters the widget no longer has are dropped, as checking drops them.
                for name in merged.members.map(\.key) where checked[name] == nil { merged[name] = nil }
                list.instances[index].configuration = merged
                return merged
            }
            output.standardOutput("\(id): \(Self.describe(configuration))")
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
        let (registry, _) = try loadSearchPath()
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        return await reporting {
            let options = try await registry.options(kind: kind, parameter: parameter)
            if json {
                output.standardOutput(options.json.jsonText)
            } else {
                let rows = options.options.map { option in
                    [
                        option.value.displayText, option.title + (option.subtitle.map { " — \($0)" } ?? ""),
                        option.value == options.defaultValue ? "(default)" : "",
                    ]
                }
                output.standardOutput(rows.isEmpty ? "No options offered now." : Self.table(header: nil, rows: rows))
            }
            return .success
        }
    }

    func recommendations(kind: String) async throws(UsageError) -> ExitCode {
        let (registry, _) = try loadSearchPath()
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
                        : Self.table(header: nil, rows: list.map { [$0.description, Self.describe($0.configuration)] }))
            }
            return .success
        }
    }

    // MARK: Output

    static func json(_ instance: WidgetInstance) -> JSONValue {
        .object(
            JSONObject([
                ("id", .string(instance.id)), ("kind", .string(instance.kind)), ("family", .string(instance.family.rawValue)),
                ("configuration", .object(instance.configuration)),
            ]))
    }

    /// `coin=ETH, note=none`; "-" for none.
    static func describe(_ configuration: JSONObject) -> String {
        configuration.isEmpty ? "-" : configuration.members.map { "\($0.key)=\($0.value.displayText)" }.joined(separator: ", ")
    }

    static func table(header: [String]?, rows: [[String]]) -> String {
        let all = (header.map { [$0] } ?? []) + rows
        // Padded by characters: an emoji is one, whatever its UTF-16 length.
        let widths = (0..<(all.first?.count ?? 0)).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
