import Foundation
import Glibc
import WidgetHost
import WidgetWire

extension CommandContext {
    /// `widgets render KIND`: the current entry (or the placeholder), drawn in a framed box of the
    /// family's size, in colour when the output is a terminal.
    func render(kind named: String?) async throws(UsageError) -> ExitCode {
        let renderer = try terminalRenderer()
        guard let target = try requestTarget(kind: named) else { return .failure }
        let placeholder = arguments.flags.contains("placeholder")
        let (registry, _) = try loadSearchPath()
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        do {
            let family = target.family ?? registry.widget(kind: target.kind)?.families.first
            let result = try await registry.request(
                placeholder ? .placeholder : .timeline, kind: target.kind, family: target.family, configuration: target.configuration,
                environment: family.map(renderer.environment(for:)))
            let entry = result.entry(at: Date())
            let title = registry.widget(kind: target.kind).map { $0.displayName.isEmpty ? target.kind : $0.displayName } ?? target.kind
            output.standardOutput(renderer.render(entry.view, family: result.family, title: title).joined(separator: "\n"))
            for note in result.notes { output.standardError("widgets: note: widget \"\(target.kind)\": \(note)") }
            return .success
        } catch {
            output.standardError("widgets: error: " + (target.instance.map { "instance \($0.id): " } ?? "") + "\(error)")
            return .failure
        }
    }

    /// The renderer --color and --appearance ask for; colour by default only on a terminal, never
    /// with NO_COLOR.
    func terminalRenderer() throws(UsageError) -> TerminalRenderer {
        let appearanceName = arguments.values["appearance"] ?? "dark"
        guard let appearance = TerminalRenderer.Appearance(rawValue: appearanceName) else {
            throw UsageError(message: "--appearance takes light or dark, not '\(appearanceName)'", command: command)
        }
        let colorName = arguments.values["color"] ?? "auto"
        let mode: TerminalRenderer.ColorMode
        if colorName == "auto" {
            mode = TerminalRenderer.colorMode(environment: ProcessInfo.processInfo.environment, isTerminal: isatty(STDOUT_FILENO) == 1)
        } else if let chosen = TerminalRenderer.ColorMode(rawValue: colorName) {
            mode = chosen
        } else {
            throw UsageError(message: "--color takes auto, none, 256 or truecolor, not '\(colorName)'", command: command)
        }
        return TerminalRenderer(
            colorMode: mode, appearance: appearance, renderingMode: try renderingMode(), isLocked: arguments.flags.contains("locked"))
    }

    /// The --rendering-mode asked for; nil for each family's own.
    func renderingMode() throws(UsageError) -> RenderingEnvironment.RenderingMode? {
        guard let name = arguments.values["rendering-mode"] else { return nil }
        guard let mode = RenderingEnvironment.RenderingMode(rawValue: name) else {
            let names = RenderingEnvironment.RenderingMode.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "--rendering-mode takes \(names), not '\(name)'", command: command)
        }
        return mode
    }
}
