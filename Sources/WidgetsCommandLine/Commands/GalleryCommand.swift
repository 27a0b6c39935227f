import FoundationEssentials
import WidgetABI
import WidgetHost
import WidgetRendering
import WidgetWire

extension Command {
    static let gallery = Command(
        "gallery", summary: "Write every widget in every family, placeholder and snapshot, and its previews, as SVG and an HTML page.",
        options: [Options.plugins.spec, Options.out.spec, Options.appearance.spec, Options.renderingMode.spec, Options.isolation.spec, Options.galleryPNG.spec],
        discussion: """
            Open DIR/index.html in a browser. Links and widget URLs in the images are clickable. Without --appearance
            each widget is drawn light (NAME.light.svg) and dark (NAME.svg), and the page shows the drawings of the
            appearance the browser prefers; with it, that appearance only. With --png each drawing is also written as
            a PNG image beside it (NAME.png, two pixels a point), as `widgets render --png` draws it.
            """
    ) { try await $0.gallery() }
}

extension Invocation {
    /// `widgets gallery --out DIR`: every widget in every family it supports, its placeholder and its
    /// snapshot, as SVG files and an HTML page showing them all, like the widget gallery.
    func gallery() async throws(UsageError) -> ExitCode {
        guard let out = try value(Options.out) else { throw usageError("'widgets gallery' needs --out DIR") }
        // Without --appearance, both: the page follows the browser's preference.
        let given = try value(Options.appearance)
        let appearances: [Appearance] = given.map { [$0] } ?? [.dark, .light]
        let directory = URL(fileURLWithPath: out)
        var rasterizer: Rasterizer?
        if isSet(Options.galleryPNG) {
            do {
                rasterizer = try Rasterizer.shared()
            } catch {
                output.standardError("widgets: error: --png: \(error)")
                return .failure
            }
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            output.standardError("widgets: error: cannot create \(out): \(error.explanation)")
            return .failure
        }
        let (registry, _) = try loadSearchPath()
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        let renderingMode = try value(Options.renderingMode)
        let renderers = appearances.map { SVGRenderer(appearance: $0, renderingMode: renderingMode) }
        var sections: [String] = []
        var images = 0
        var failures = 0
        // Symbols no drawing has, each named once.
        var unknownSymbols: [String] = []
        // Each snapshot beside what iOS draws for it (fidelity.html).
        var fidelity: [String] = []
        let lightRenderer = SVGRenderer(appearance: .light, renderingMode: renderingMode)
        for widget in registry.widgets {
            var rows = ""
            // A configurable widget is shown as a new instance would be: its default configuration
            // (the widget's defaults, or the provider's default choice), as iOS's gallery shows it.
            var configuration = "{}"
            if widget.configuration != nil {
                do {
                    configuration = JSONValue.object(try await registry.configuration(kind: widget.kind, assignments: [])).jsonText
                } catch {
                    output.standardError("widgets: warning: \(widget.kind)'s default configuration: \(error); its snapshots are of an empty one")
                }
            }
            for family in widget.families {
                var figures = ""
                for requestKind in [RequestKind.placeholder, .snapshot] {
                    let name = "\(Self.fileSafe(widget.kind)).\(family.rawValue).\(requestKind.rawValue).svg"
                    let caption = "\(family.rawValue) · \(requestKind.rawValue)"
                    do {
                        // Asked once per appearance: a view that reads the colour scheme is built for each.
                        var views: [ViewNode] = []
                        for each in renderers {
                            let result = try await registry.request(
                                requestKind, kind: widget.kind, family: family, configuration: configuration, environment: each.environment(for: family))
                            views.append(result.entries[0].view)
                        }
                        let drawn = try Self.figure(
                            views, family: family, now: Date(), file: name, caption: caption, renderers: renderers,
                            contentMarginsDisabled: widget.contentMarginsDisabled, in: directory, rasterizer: rasterizer, images: &images)
                        if requestKind == .snapshot {
                            // The fidelity page is light: the light view, asked for if only dark was drawn.
                            let light =
                                if let index = renderers.firstIndex(where: { $0.appearance == .light }) {
                                    views[index]
                                } else {
                                    try await registry.request(
                                        requestKind, kind: widget.kind, family: family, configuration: configuration,
                                        environment: lightRenderer.environment(for: family)
                                    ).entries[0].view
                                }
                            fidelity.append(
                                Self.fidelityFigure(
                                    light, title: widget.displayName.isEmpty ? widget.kind : widget.displayName, family: family,
                                    renderer: lightRenderer, contentMarginsDisabled: widget.contentMarginsDisabled, number: fidelity.count + 1))
                        }
                        for symbol in SymbolGlyphs.unknown(in: views[0]) where !unknownSymbols.contains(symbol) {
                            unknownSymbols.append(symbol)
                            output.standardError("widgets: note: widget \"\(widget.kind)\": the symbol \"\(symbol)\" is not drawn here; \(SymbolGlyphs.placeholder) stands in")
                        }
                        figures += "<figure>\(drawn)</figure>\n"
                    } catch {
                        failures += 1
                        output.standardError("widgets: error: \(error)")
                        figures += "<figure class=\"failed\"><p>\(XMLText.escape("\(error)"))</p><figcaption>\(XMLText.escape(caption))</figcaption></figure>\n"
                    }
                }
                rows += figures
            }
            // The author's previews, as Xcode's canvas shows them: a bundle of ABI 1.5 or later has them.
            if widget.bundle.abiVersion.minor >= RequestKind.previews.introducedInMinor, let first = widget.families.first {
                var figures = ""
                do {
                    // Asked once per appearance, as the snapshots are.
                    var results: [ProviderResult] = []
                    for each in renderers { results.append(try await registry.request(.previews, kind: widget.kind, environment: each.environment(for: first))) }
                    for (index, preview) in results[0].previews.enumerated() {
                        let label = preview.name ?? "Preview \(index + 1)"
                        for (number, entry) in preview.entries.enumerated() {
                            let name = "\(Self.fileSafe(widget.kind)).preview\(index + 1)-\(number + 1).\(preview.family.rawValue).svg"
                            let caption = "\(preview.family.rawValue) · \(label)" + (preview.entries.count > 1 ? " \(number + 1)/\(preview.entries.count)" : "")
                            let views = results.map { result in
                                index < result.previews.count && number < result.previews[index].entries.count
                                    ? result.previews[index].entries[number].view : entry.view
                            }
                            let drawn = try Self.figure(
                                views, family: preview.family, now: Render.shownAt(entry), file: name, caption: caption, renderers: renderers,
                                contentMarginsDisabled: widget.contentMarginsDisabled, in: directory, rasterizer: rasterizer, images: &images)
                            figures += "<figure class=\"preview\">\(drawn)</figure>\n"
                        }
                    }
                } catch {
                    failures += 1
                    output.standardError("widgets: error: \(error)")
                    figures += "<figure class=\"failed\"><p>\(XMLText.escape("\(error)"))</p><figcaption>previews</figcaption></figure>\n"
                }
                if !figures.isEmpty { rows += figures }
            }
            let title = widget.displayName.isEmpty ? widget.kind : widget.displayName
            sections.append(
                "<section><h2>\(XMLText.escape(title))</h2><p class=\"kind\">\(XMLText.escape(widget.kind)) · \(XMLText.escape(widget.bundle.fileName))</p>"
                    + "<p>\(XMLText.escape(widget.description))</p>\n<div class=\"row\">\n\(rows)</div></section>")
        }
        let page = Self.galleryPage(sections: sections, appearance: given)
        do {
            try page.write(to: directory.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
            try Self.fidelityPage(fidelity).write(to: directory.appendingPathComponent("fidelity.html"), atomically: true, encoding: .utf8)
        } catch {
            output.standardError("widgets: error: cannot write \(out)/index.html: \(error.explanation)")
            return .failure
        }
        output.standardOutput("wrote \(images) images of \(registry.widgets.count) widget(s) and \(directory.appendingPathComponent("index.html").path)")
        if let missing = SystemFont.missing { output.standardError("widgets: note: \(missing)") }
        return failures == 0 && registry.problems.isEmpty ? .success : .failure
    }

    /// A kind as a file name: letters, digits, `.`, `-` and `_` kept, anything else `_`.
    static func fileSafe(_ kind: String) -> String {
        String(kind.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    }

    /// One snapshot beside what iOS draws for it: the drawing (light) with its content margin and
    /// corner guides laid over it, and the facts from Apple's published sizes.
    static func fidelityFigure(
        _ view: ViewNode, title: String, family: WidgetFamily, renderer: SVGRenderer, contentMarginsDisabled: Bool, number: Int
    ) -> String {
        let svg = renderer.render(view, family: family, idPrefix: "f\(number)-", contentMarginsDisabled: contentMarginsDisabled)
        let guides = FidelitySheet.guides(family: family, contentMarginsDisabled: contentMarginsDisabled)
        let facts = FidelitySheet.facts(view, family: family, contentMarginsDisabled: contentMarginsDisabled)
        return "<section class=\"pair\"><h2>\(XMLText.escape(title)) · \(family.rawValue)</h2><div class=\"row\"><div class=\"drawn\">\(svg)\(guides)</div>"
            + "<div><h3>What iOS draws</h3><ul>\(facts.map { "<li>\(XMLText.escape($0))</li>" }.joined())</ul></div></div></section>\n"
    }

    /// The fidelity page: every snapshot beside what iOS draws for it.
    static func fidelityPage(_ figures: [String]) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="color-scheme" content="light">
        <title>Widget gallery: fidelity</title>
        <style>
        body { font-family: -apple-system, system-ui, sans-serif; margin: 2em; background: #f2f2f7; color: #000; }
        .pair { margin: 0 0 2.5em; }
        .pair h2 { font-size: 1.1em; margin: 0 0 0.6em; }
        .row { display: flex; flex-wrap: wrap; gap: 2em; align-items: flex-start; }
        .drawn { position: relative; }
        .drawn svg { display: block; }
        .drawn svg.guides { position: absolute; left: 0; top: 0; pointer-events: none; }
        h3 { margin: 0 0 0.3em; font-size: 0.95em; }
        ul { margin: 0; padding-left: 1.2em; max-width: 36em; color: #3c3c43; }
        .legend { color: #6e6e73; max-width: 50em; }
        </style>
        </head>
        <body>
        <h1>Fidelity</h1>
        <p class="legend">Each snapshot as this host draws it (light), with its content margins dashed and, on the edges, where
        each continuous corner begins; beside it what iOS draws, from Apple's published sizes. Text is set in Inter standing in
        for SF Pro (docs/RENDERING.md). <a href="index.html">Back to the gallery</a>.</p>
        \(figures.joined())
        </body>
        </html>

        """
    }

    /// A figure's drawings and caption: the view built for each renderer drawn by it (one appearance each, the
    /// first's file named `file`, a light one's `NAME.light.svg`), each written beside the page and
    /// inlined in it, marked with its appearance when there are two.
    static func figure(
        _ views: [ViewNode], family: WidgetFamily, now: Date, file: String, caption: String, renderers: [SVGRenderer],
        contentMarginsDisabled: Bool, in directory: URL, rasterizer: Rasterizer? = nil, images: inout Int
    ) throws -> String {
        var drawings = ""
        var links = ""
        for (number, renderer) in renderers.enumerated() {
            let name = number == 0 ? file : String(file.dropLast(".svg".count)) + ".\(renderer.appearance == .light ? "light" : "dark").svg"
            // Every image is inlined in one page: its gradients need ids no other image has.
            let svg = renderer.render(views[min(number, views.count - 1)], family: family, now: now, idPrefix: "w\(images + 1)-", contentMarginsDisabled: contentMarginsDisabled)
            try svg.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            images += 1
            if let rasterizer {
                let size = family.displaySize
                let image = try rasterizer.image(svg: svg, width: Int((size.width * 2).rounded()), height: Int((size.height * 2).rounded()))
                try Data(try rasterizer.png(image)).write(to: directory.appendingPathComponent(String(name.dropLast(".svg".count)) + ".png"), options: .atomic)
            }
            let marked = renderers.count > 1 ? " class=\"\(renderer.appearance == .light ? "light" : "dark")\"" : ""
            drawings += renderers.count > 1 ? "<div\(marked)>\(svg)</div>" : svg
            links += "<a\(marked) href=\"\(XMLText.escape(name))\">\(XMLText.escape(caption))</a>"
        }
        return drawings + "<figcaption>\(links)</figcaption>"
    }

    /// The page: in the appearance given, else following the browser's preference (light or dark,
    /// its colours and the drawings of that appearance).
    static func galleryPage(sections: [String], appearance: Appearance?) -> String {
        let scheme = appearance.map { $0 == .dark ? "dark" : "light" } ?? "light dark"
        // Light and dark colours: fixed to one appearance when given, else as the browser prefers.
        let light = ":root { --page: #f2f2f7; --ink: #000; --quiet: #6e6e73; --accent: #007aff; } .dark { display: none; }"
        let dark = ":root { --page: #000; --ink: #fff; --quiet: #98989d; --accent: #0a84ff; } .light { display: none; } .dark { display: block; }"
        let colours =
            switch appearance {
            case .light?: light
            case .dark?: dark
            case nil: light + "\n@media (prefers-color-scheme: dark) { " + dark + " }"
            }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="\(scheme)">
            <title>Widget gallery</title>
            <link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%23007aff'/%3E%3Crect x='6' y='6' width='9' height='9' rx='2.5' fill='%23fff'/%3E%3Crect x='17' y='6' width='9' height='9' rx='2.5' fill='%23fff'/%3E%3Crect x='6' y='17' width='20' height='9' rx='2.5' fill='%23fff'/%3E%3C/svg%3E">
            <style>
            \(colours)
            body { font-family: -apple-system, system-ui, sans-serif; margin: 2em; background: var(--page); color: var(--ink); }
            main { display: flex; flex-wrap: wrap; gap: 2.5em 3.5em; align-items: flex-start; }
            section { flex: 0 1 auto; max-width: 100%; min-width: 0; }
            h2 { margin: 0 0 0.2em; }
            .kind { color: #8e8e93; font-size: 0.9em; margin: 0; }
            .row { display: flex; flex-wrap: wrap; gap: 1.5em 1.2em; margin: 1em 0; align-items: flex-end; }
            section > p { max-width: 40em; }
            figure { margin: 0; }
            figure svg { display: block; }
            figcaption { font-size: 0.8em; text-align: center; margin-top: 0.4em; }
            figcaption a, figcaption a:visited { color: var(--quiet); text-decoration: none; }
            figcaption a:hover { color: var(--accent); text-decoration: underline; }
            .failed p { max-width: 20em; color: #ff3b30; }
            </style>
            </head>
            <body>
            <h1>Widget gallery</h1>
            <p><a href="fidelity.html">Fidelity: each snapshot beside what iOS draws for it</a></p>
            <main>
            \(sections.joined(separator: "\n"))
            </main>
            </body>
            </html>

            """
    }
}
