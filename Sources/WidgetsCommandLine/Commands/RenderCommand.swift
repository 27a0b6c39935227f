import FoundationEssentials
import Glibc
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetWire

extension Command {
    static let render = Command(
        "render", summary: "Draw a widget's current entry in a framed box of its family's size, in colour.",
        arguments: ["[KIND]"],
        options: [
            Options.plugins.spec, Options.family.spec, Options.instance.spec, Options.appearance.spec, Options.color.spec,
            Options.renderingMode.spec, Options.stateDirectory.spec, Options.isolation.spec, Options.placeholder.spec, Options.locked.spec,
            Options.png.spec, Options.scale.spec,
        ],
        discussion: """
            The widget's views are built for the appearance and rendering mode drawn (its environment's
            colorScheme and widgetRenderingMode). The current entry is the latest of the provider's timeline whose date has come. A family's box is its
            size in points at 8 × 16 points a cell: systemSmall is 20 × 10 cells (\(Documentation.path("RENDERING.md")) has the table).
            With --png, the widget is drawn as the gallery and the home screen draw it (the same layout and font), in pixels: its
            family's size in points times --scale, transparent outside its outline. cairo draws it, loaded when asked.
            """
    ) { try await $0.render(kind: $0.argument(0)) }
}

extension Invocation {
    /// `widgets render KIND`: the current entry (or the placeholder), drawn in a framed box of the
    /// family's size, in colour when the output is a terminal.
    func render(kind named: String?) async throws(UsageError) -> ExitCode {
        if let file = try value(Options.png) { return try await renderPNG(kind: named, to: file) }
        if try value(Options.scale) != nil { throw UsageError(message: "--scale is for a PNG image: give --png FILE too", command: name) }
        let renderer = try terminalRenderer()
        return try await withCurrentEntry(kind: named, environment: renderer.environment(for:)) { kind, result, entry, widget in
            let title = widget.map { $0.displayName.isEmpty ? kind : $0.displayName } ?? kind
            let lines = renderer.render(
                entry.view, family: result.family, title: title, contentMarginsDisabled: widget?.contentMarginsDisabled ?? false)
            output.drawing(lines)
            for note in result.notes { output.standardError("widgets: note: widget \"\(kind)\": \(note)") }
            for name in SymbolGlyphs.unknown(in: entry.view) {
                output.standardError("widgets: note: widget \"\(kind)\": the symbol \"\(name)\" is not drawn here; \(SymbolGlyphs.placeholder) stands in")
            }
            return .success
        }
    }

    /// Asks the target's provider for its entry now (or, with --placeholder, its placeholder) in the
    /// environment its family is drawn in, and hands it to `draw` with the widget; a failure is said,
    /// naming the instance asked for.
    private func withCurrentEntry(
        kind named: String?, environment: (WidgetFamily) -> RenderingEnvironment,
        draw: (_ kind: String, ProviderResult, WireEntry, RegisteredWidget?) -> ExitCode
    ) async throws(UsageError) -> ExitCode {
        guard let target = try requestTarget(kind: named) else { return .failure }
        let (registry, _) = try loadSearchPath(for: target.kind)
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        do {
            let family = target.family ?? registry.widget(kind: target.kind)?.families.first
            let result = try await registry.request(
                isSet(Options.placeholder) ? .placeholder : .timeline, kind: target.kind, family: target.family,
                configuration: target.configuration, environment: family.map(environment))
            return draw(target.kind, result, result.entry(at: Date()), registry.widget(kind: target.kind))
        } catch {
            output.standardError("widgets: error: " + (target.instance.map { "instance \($0.id): " } ?? "") + "\(error)")
            return .failure
        }
    }

    /// `widgets render KIND --png FILE`: the current entry (or the placeholder) drawn by the SVG
    /// renderer and rasterized, written to FILE (by rename, so a reader never sees half of it).
    func renderPNG(kind named: String?, to file: String) async throws(UsageError) -> ExitCode {
        if try value(Options.color) != nil { throw UsageError(message: "--color is for the terminal's drawing, not a PNG image", command: name) }
        let renderer = SVGRenderer(appearance: try value(Options.appearance) ?? Options.defaultAppearance, renderingMode: try value(Options.renderingMode))
        let scale = try value(Options.scale) ?? 2
        let rasterizer: Rasterizer
        do {
            rasterizer = try Rasterizer.shared()
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        return try await withCurrentEntry(kind: named, environment: renderer.environment(for:)) { kind, result, entry, widget in
            let svg = renderer.render(entry.view, family: result.family, contentMarginsDisabled: widget?.contentMarginsDisabled ?? false)
            let size = result.family.displaySize
            let (width, height) = (Int((size.width * scale).rounded()), Int((size.height * scale).rounded()))
            let png: [UInt8]
            do {
                png = try rasterizer.png(try rasterizer.image(svg: svg, width: width, height: height))
            } catch {
                output.standardError("widgets: error: widget \"\(kind)\": \(error)")
                return .failure
            }
            if file == "-" {
                let failed = png.withUnsafeBytes { bytes in writeAll(bytes) { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) } }
                if let failed {
                    output.standardError("widgets: error: cannot write the PNG to standard output: \(errnoText(failed))")
                    return .failure
                }
            } else {
                do {
                    try Data(png).write(to: URL(fileURLWithPath: file), options: .atomic)
                } catch {
                    output.standardError("widgets: error: cannot write \(file): \(error.explanation)")
                    return .failure
                }
                output.standardOutput("\(file): \(result.family.rawValue), \(width) × \(height) pixels")
            }
            for note in result.notes { output.standardError("widgets: note: widget \"\(kind)\": \(note)") }
            return .success
        }
    }

    /// The renderer --color and --appearance ask for; colour by default only on a terminal, never
    /// with NO_COLOR.
    func terminalRenderer() throws(UsageError) -> TerminalRenderer {
        let mode: TerminalRenderer.ColorMode
        switch try value(Options.color) ?? .auto {
        case .auto: mode = TerminalRenderer.colorMode(environment: ProcessInfo.processInfo.environment, isTerminal: isatty(STDOUT_FILENO) == 1)
        case .fixed(let chosen): mode = chosen
        }
        return TerminalRenderer(
            colorMode: mode, appearance: try value(Options.appearance) ?? Options.defaultAppearance, renderingMode: try value(Options.renderingMode),
            isLocked: isSet(Options.locked))
    }
}
