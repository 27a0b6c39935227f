import FoundationEssentials
import WidgetHost
import WidgetRendering
import WidgetWire

extension Command {
    static let preview = Command(
        "preview", summary: "Draw a widget's previews, as its author wrote them with #Preview (Xcode's canvas, in the terminal).",
        arguments: ["KIND"],
        options: [
            Options.plugins.spec, Options.family.spec, Options.appearance.spec, Options.color.spec, Options.renderingMode.spec,
            Options.locked.spec, Options.json.spec, Options.isolation.spec,
        ],
        discussion: """
            Each preview's entries are drawn in the family it was written for, in order, titled with the
            preview's name and the entry's number; --family keeps the previews of one family. The bundle
            must be built with ABI 1.5 or later (this SDK's). --json prints them as 'timeline --json'
            prints entries, grouped by preview.
            """
    ) { try await $0.preview(kind: $0.argument(0)) }
}

extension Invocation {
    /// `widgets preview KIND`: the author's previews, drawn.
    func preview(kind: String?) async throws(UsageError) -> ExitCode {
        guard let kind else { throw usageError("'widgets preview' needs KIND") }
        let renderer = try terminalRenderer()
        let family = try value(Options.family)
        let (registry, _) = try loadSearchPath(for: kind)
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        let widget = registry.widget(kind: kind)
        let result: ProviderResult
        do {
            result = try await registry.request(
                .previews, kind: kind, environment: widget?.families.first.map(renderer.environment(for:)))
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        let previews = result.previews.filter { family == nil || $0.family == family }
        guard !previews.isEmpty else {
            let which = family.map { " in \($0.rawValue)" } ?? ""
            output.standardError(
                "widgets: error: widget \"\(kind)\" has no previews\(which): its source declares none with #Preview(as: .family) { Widget() } timeline: { … }")
            return .failure
        }
        if isSet(Options.json) {
            let list = previews.map { preview in
                JSONValue.object(
                    JSONObject([
                        ("name", preview.name.map(JSONValue.string) ?? .null), ("family", .string(preview.family.rawValue)),
                        (
                            "entries",
                            .array(
                                preview.entries.map { entry in
                                    .object(
                                        JSONObject([
                                            ("date", .number(entry.date)), ("text", .string(PlainTextRenderer.text(entry.view, now: Render.shownAt(entry)))),
                                            ("view", entry.view.json),
                                        ]))
                                })
                        ),
                    ]))
            }
            output.standardOutput(JSONValue.object(JSONObject([("kind", .string(kind)), ("previews", .array(list))])).jsonText)
        } else {
            let marginsDisabled = widget?.contentMarginsDisabled ?? false
            for (index, preview) in previews.enumerated() {
                let name = preview.name ?? (previews.count == 1 ? "Preview" : "Preview \(index + 1)")
                for (number, entry) in preview.entries.enumerated() {
                    let title = preview.entries.count == 1 ? name : "\(name) \(number + 1)/\(preview.entries.count)"
                    let lines = renderer.render(
                        entry.view, family: preview.family, title: title, now: Render.shownAt(entry), contentMarginsDisabled: marginsDisabled)
                    output.drawing(lines)
                }
            }
        }
        for note in result.notes { output.standardError("widgets: note: widget \"\(kind)\": \(note)") }
        return .success
    }
}
