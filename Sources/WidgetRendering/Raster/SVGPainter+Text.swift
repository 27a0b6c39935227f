import FoundationEssentials
import Glibc
import WidgetSupport

/// Text in the painter: set glyph by glyph in the faces the layout measured (`TextFaces`), or by
/// Pango where it needs shaping; anchored, held to a length, decorated.
extension SVGPainter {
    /// A line of text set: how far it advances, how high it stands and hangs (for a gradient's
    /// bounds), where its lines under and through lie (their tops below the baseline, and their
    /// thickness), and how it is drawn at a baseline's start (as glyphs, or as a path to fill).
    struct SetLine {
        var advance: Double
        var ascent: Double
        var descent: Double
        var underline: (top: Double, thickness: Double)
        var strikeout: (top: Double, thickness: Double)
        var draw: (_ x: Double, _ y: Double, _ asPath: Bool) -> Void
        var release: () -> Void = {}
    }

    func text(_ element: SVGElement, _ style: Style) throws(SVGUnsupported) {
        guard element.children.isEmpty else { throw SVGUnsupported("a <text> with elements in it (\(element.children[0].name))") }
        // xml:space="preserve" keeps every space, a line break as one; else runs of spaces are one and the ends trimmed.
        var words = element.text.replacing("\r\n", with: " ").map { $0 == "\n" || $0 == "\t" || $0 == "\r" ? " " : $0 }.reduce(into: "") { $0.append($1) }
        if element["xml:space"] != "preserve" {
            words = words.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        guard !words.isEmpty, style.fontSize > 0 else { return }
        // A list of positions (one for each character) is not written by the renderer: the first is the line's.
        guard var x = NumberScanner.list(element["x"] ?? "0")?.first, let y = NumberScanner.list(element["y"] ?? "0")?.first else {
            throw SVGUnsupported("a <text> at x=\"\(element["x"] ?? "")\" y=\"\(element["y"] ?? "")\"")
        }
        let line: SetLine
        if let set = glyphs(words, style) { line = set } else { line = try shaped(words, style) }
        defer { line.release() }
        // Held to a length given, the text is anchored by that length.
        let length = try number(element, "textLength").flatMap { $0 > 0 && element["lengthAdjust"] == "spacingAndGlyphs" ? $0 : nil }
        switch style.anchor {
        case "middle": x -= (length ?? line.advance) / 2
        case "end": x -= length ?? line.advance
        default: break
        }
        cairo.save(context)
        defer { cairo.restore(context) }
        if let length, line.advance > 0 {
            // Held to the width given: the glyphs stretched or squeezed along the line.
            cairo.translate(context, x, 0)
            cairo.scale(context, length / line.advance, 1)
            cairo.translate(context, -x, 0)
        }
        guard let fill = style.fill else { return }
        let box = (x: x, y: y - line.ascent, width: line.advance, height: line.ascent + line.descent)
        cairo.newPath(context)
        let solid: Bool
        if case .color = fill { solid = true } else { solid = false }
        if solid {
            if try source(fill, opacity: style.fillOpacity, box: box) { line.draw(x, y, false) }
            cairo.newPath(context)
        } else {
            line.draw(x, y, true)
        }
        // Lines under and through the text where the font says, as browsers and librsvg draw them.
        for (decoration, place) in [("underline", line.underline), ("line-through", line.strikeout)] where style.decoration.contains(decoration) {
            cairo.rectangle(context, x, y + place.top, line.advance, max(place.thickness, 0.5))
        }
        if try source(fill, opacity: style.fillOpacity, box: box) { cairo.fill(context) }
        cairo.newPath(context)
    }

    /// The lines under and through text in Inter, from its tables, when it is installed and named.
    func interDecorations(_ style: Style) -> (underline: (Double, Double), strikeout: (Double, Double))? {
        guard let cut = TextFaces.interCut(families: style.families, weight: style.fontWeight), let directory = SystemFont.directory,
            let inter = SystemFont.load(cut, from: directory), let strikeout = inter.strikeout, let underline = inter.underline
        else { return nil }
        let em = style.fontSize / Double(inter.unitsPerEm)
        return ((-Double(underline.position) * em - Double(underline.thickness) * em / 2, Double(underline.thickness) * em),
            (-Double(strikeout.position) * em, Double(strikeout.size) * em))
    }

    /// Scalars that need shaping to be set right: marks that combine, scripts whose letters join or
    /// reorder (Hebrew and Arabic to Khmer), joiners and direction marks, variation selectors,
    /// emoji sequences (flags, skin tones, tags).
    static func needsShaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x08FF, 0x0900...0x0DFF, 0x0E00...0x0FFF, 0x1000...0x109F, 0x1100...0x11FF,
            0x1700...0x18AF, 0x1A00...0x1BFF, 0x1DC0...0x1DFF, 0x200C...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x20D0...0x20FF,
            0xA800...0xABFF, 0xD7B0...0xD7FF, 0xFB1D...0xFDFF, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xFE70...0xFEFF, 0x10A00...0x11FFF,
            0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF, 0xE0000...0xE01EF:
            true
        default:
            false
        }
    }

    /// The text set glyph by glyph: each character in the face the drawing names (its advance and
    /// kerning as the layout measured them), or in an installed face that has it, and the letter
    /// spacing after each. Nil for text that needs shaping, or when no face can be had.
    func glyphs(_ words: String, _ style: Style) -> SetLine? {
        guard !words.unicodeScalars.contains(where: Self.needsShaping) else { return nil }
        let families = style.families
        guard let primary = faces.primary(families: families, weight: style.fontWeight, italic: style.italic) else { return nil }
        var runs: [(face: TextFaces.Face, glyphs: [GlyphRecord])] = []
        func place(_ glyph: UInt32, in face: TextFaces.Face, at x: Double) {
            if runs.last?.face.key != face.key { runs.append((face, [])) }
            runs[runs.count - 1].glyphs.append(GlyphRecord(index: UInt(glyph), x: x, y: 0))
        }
        var x = 0.0
        var previous: UInt32?
        for character in words {
            let scalars = character.unicodeScalars
            let own = scalars.map { faces.glyph($0, in: primary) }
            if !own.contains(0) {
                for glyph in own {
                    if let previous, let metrics = primary.metrics {
                        x += Double(metrics.kerning(UInt16(truncatingIfNeeded: previous), UInt16(truncatingIfNeeded: glyph))) * style.fontSize / Double(metrics.unitsPerEm)
                    }
                    place(glyph, in: primary, at: x)
                    x += faces.advance(glyph, in: primary, context: context) * style.fontSize
                    previous = glyph
                }
            } else {
                // A character the face lacks: one scalar (more would need shaping), in a face that has it.
                guard scalars.count == 1, let scalar = scalars.first else { return nil }
                let face = faces.fallback(for: scalar, families: families, weight: style.fontWeight, italic: style.italic) ?? primary
                let glyph = faces.glyph(scalar, in: face)
                place(glyph, in: face, at: x)
                x += faces.advance(glyph, in: face, context: context) * style.fontSize
                previous = nil
            }
            x += style.letterSpacing
        }
        let decorations = interDecorations(style)
            ?? ((0.075 * style.fontSize, 0.06 * style.fontSize), (-0.3 * style.fontSize, 0.06 * style.fontSize))
        let size = style.fontSize
        let (cairo, context) = (self.cairo, self.context)
        return SetLine(
            advance: x, ascent: size * Double(primary.metrics?.ascender ?? 800) / Double(primary.metrics?.unitsPerEm ?? 1000),
            descent: -size * Double(primary.metrics?.descender ?? -200) / Double(primary.metrics?.unitsPerEm ?? 1000),
            underline: decorations.underline, strikeout: decorations.strikeout,
            draw: { startX, baseline, asPath in
                for run in runs {
                    cairo.setFontFace(context, run.face.font)
                    cairo.setFontSize(context, size)
                    let placed = run.glyphs.map { GlyphRecord(index: $0.index, x: startX + $0.x, y: baseline) }
                    placed.withUnsafeBytes { bytes in
                        if asPath {
                            cairo.glyphPath(context, bytes.baseAddress, Int32(placed.count))
                        } else {
                            cairo.showGlyphs(context, bytes.baseAddress, Int32(placed.count))
                        }
                    }
                }
            })
    }

    /// The text set by Pango, which shapes it (HarfBuzz): what `glyphs` cannot set.
    func shaped(_ words: String, _ style: Style) throws(SVGUnsupported) -> SetLine {
        let pango = try loadPango()
        guard let pangoContext = pango.createContext(context) else { throw SVGUnsupported("Pango could not make a context") }
        pango.setFontOptions(pangoContext, fontOptions)
        pango.setRoundGlyphPositions?(pangoContext, 0)
        guard let layout = pango.layoutNew(pangoContext) else {
            pango.objectUnref(pangoContext)
            throw SVGUnsupported("Pango could not make a layout")
        }
        let font = pango.fontDescriptionNew()
        style.fontFamily.withCString { pango.fontDescriptionSetFamily(font, $0) }
        pango.fontDescriptionSetWeight(font, Int32(style.fontWeight))
        pango.fontDescriptionSetStyle(font, style.italic ? 2 /* PANGO_STYLE_ITALIC */ : 0)
        pango.fontDescriptionSetAbsoluteSize(font, style.fontSize * 1024)
        pango.layoutSetFontDescription(layout, font)
        let attributes = pango.attrListNew()
        if style.letterSpacing != 0 { pango.attrListInsert(attributes, pango.attrLetterSpacingNew(Int32((style.letterSpacing * 1024).rounded()))) }
        pango.layoutSetAttributes(layout, attributes)
        pango.attrListUnref(attributes)
        words.withCString { pango.layoutSetText(layout, $0, -1) }
        let logical = pango.layoutLogicalExtents(layout)
        let baseline = Double(pango.layoutGetBaseline(layout)) / 1024
        var decorations = interDecorations(style)
        if decorations == nil, let metrics = pango.contextGetMetrics(pangoContext, font, nil) {
            // Pango's positions are of the lines' tops, above the baseline.
            func line(_ position: Int32, _ thickness: Int32) -> (Double, Double) { (-Double(position) / 1024, Double(thickness) / 1024) }
            decorations = (
                line(pango.metricsUnderlinePosition(metrics), pango.metricsUnderlineThickness(metrics)),
                line(pango.metricsStrikethroughPosition(metrics), pango.metricsStrikethroughThickness(metrics))
            )
            pango.metricsUnref(metrics)
        }
        pango.fontDescriptionFree(font)
        let (cairo, context) = (self.cairo, self.context)
        return SetLine(
            advance: Double(logical.width) / 1024, ascent: baseline, descent: Double(logical.height) / 1024 - baseline,
            underline: decorations?.underline ?? (0, 0), strikeout: decorations?.strikeout ?? (0, 0),
            draw: { x, y, asPath in
                // At the transform now in effect (a text held to its length is scaled).
                pango.updateContext(context, pangoContext)
                pango.layoutContextChanged(layout)
                cairo.moveTo(context, x, y - baseline)
                if asPath { pango.layoutPath(context, layout) } else { pango.showLayout(context, layout) }
            },
            release: {
                pango.objectUnref(layout)
                pango.objectUnref(pangoContext)
            })
    }
}
