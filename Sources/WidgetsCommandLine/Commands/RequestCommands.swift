import FoundationEssentials
import WidgetABI
import WidgetHost
import WidgetWire

extension Command {
    static let placeholder = Command(
        "placeholder", summary: "Ask a widget's provider for its placeholder (shown redacted while loading).",
        arguments: ["KIND"], options: requestOptions(instances: false)
    ) { try await $0.request(.placeholder, kind: $0.positionals[0]) }

    static let snapshot = Command(
        "snapshot", summary: "Ask a widget's provider for a snapshot (its current entry, for the gallery).",
        arguments: ["[KIND]"], options: requestOptions(instances: true),
        discussion: "Give KIND, or --instance ID to send that instance's configuration."
    ) { try await $0.request(.snapshot, kind: $0.argument(0)) }

    static let timeline = Command(
        "timeline", summary: "Ask a widget's provider for a timeline: dated entries and a reload policy.",
        arguments: ["[KIND]"], options: requestOptions(instances: true),
        discussion: "Give KIND, or --instance ID to send that instance's configuration."
    ) { try await $0.request(.timeline, kind: $0.argument(0)) }

    private static func requestOptions(instances: Bool) -> [OptionSpec] {
        [Options.plugins.spec, Options.family.spec] + (instances ? [Options.instance.spec, Options.stateDirectory.spec] : [])
            + [Options.memoryLimit.spec, Options.isolation.spec, Options.json.spec]
    }
}

extension Invocation {
    func request(_ requestKind: RequestKind, kind named: String?) async throws(UsageError) -> ExitCode {
        guard let target = try requestTarget(kind: named) else { return .failure }
        let (registry, _) = try loadSearchPath(for: target.kind)
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        do {
            let result = try await registry.request(requestKind, kind: target.kind, family: target.family, configuration: target.configuration)
            if json {
                Render.writeResultJSON(result, output.standardOutputPart)
            } else {
                Render.writeResultText(result, output.standardOutputPart)
            }
            for note in result.notes where !json { output.standardError("widgets: note: widget \"\(target.kind)\": \(note)") }
            return .success
        } catch {
            // A request for an instance names it: its configuration may be what failed.
            output.standardError("widgets: error: " + (target.instance.map { "instance \($0.id): " } ?? "") + "\(error)")
            return .failure
        }
    }
}
