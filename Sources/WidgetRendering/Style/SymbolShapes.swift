/// SF Symbols drawn as vector shapes in SVG, in the view's foreground colour, for the names widget
/// code uses most: a drawing of this project's own, in a 100-unit square, not Apple's artwork. A
/// name's `.fill` variant is filled, its plain one outlined; `.circle` puts the symbol in a circle
/// (knocked out of a filled one); `.slash` strikes it through. Names without a shape here are drawn
/// as their glyph (`SymbolGlyphs`), as in a terminal.
public enum SymbolShapes {
    /// A symbol's drawing: its outline in a 100-unit square, and whether it is only ever stroked
    /// (a checkmark, an arrow) rather than filled or outlined by its variant.
    struct Shape {
        let path: String
        let strokedOnly: Bool
        /// Parts always filled, whatever the variant (a photo's mountains and sun, an arrow's head):
        /// in the symbol's colour, knocked out of a filled variant.
        var solid: String? = nil
    }


    /// A symbol's drawing, as SVG, in `box` (a square of the text's size), painted with `fill`
    /// (attributes for `fill`) or `stroke` (for `stroke`); nil for a name without a shape here.
    /// Its lines are as heavy as its text's weight, as an SF Symbol's are: 8 units at regular
    /// (400), a unit more or less per hundred.
    /// `mode`: the symbol rendering mode (nil for monochrome); its secondary layer (the circle it
    /// is enclosed in, its slash) is the primary colour fainter under `hierarchical` (and
    /// `multicolor`, whose colours are Apple's artwork), `secondary` (attributes as `fill` and
    /// `stroke` are) under `palette`.
    static func svg(
        _ name: String, x: Double, y: Double, size: Double, weight: Int = 400, fill: String, stroke: String, background: String,
        mode: String? = nil, secondary: (fill: String, stroke: String)? = nil
    ) -> String? {
        guard let (base, variant) = resolve(name) else { return nil }
        let enclosure = variant.enclosure.flatMap { enclosures[$0] }
        let layered = mode == "hierarchical" || mode == "multicolor" || (mode == "palette" && secondary != nil)
        // The secondary layer: the palette's second colour, else the primary fainter (in a group of
        // its own opacity, as the paint may carry one already).
        let fainter = mode != "palette" || secondary == nil
        let faint = mode == "palette" ? (secondary ?? (fill, stroke)) : (fill, stroke)
        let scale = size / 100
        let heaviness = Double(weight - 400) / 100
        var body = ""
        func path(_ data: String, filled: Bool, width: Double = 8, paint: (fill: String, stroke: String)? = nil, faded: Bool = false) -> String {
            let (fillPaint, strokePaint) = paint ?? (fill, stroke)
            let drawn = filled
                ? "<path d=\"\(data)\" fill-rule=\"evenodd\" \(fillPaint)/>"
                : "<path d=\"\(data)\" fill=\"none\" \(strokePaint) stroke-width=\"\(format(max(2, width + heaviness)))\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>"
            return faded ? "<g opacity=\"0.45\">\(drawn)</g>" : drawn
        }
        let inner = shapes[base]!
        if let enclosure {
            // The symbol in a circle (a square...): knocked out of a filled one, or in an outlined
            // one; with layers, the enclosure is the secondary layer and the symbol lies on it.
            body += path(enclosure, filled: variant.fill, width: 7, paint: layered ? faint : nil, faded: layered && fainter)
            let knockout = variant.fill && !layered ? ("fill=\"\(background)\"", "stroke=\"\(background)\"") : nil
            body += "<g transform=\"translate(22 22) scale(0.56)\">"
                + path(inner.path, filled: !inner.strokedOnly && variant.fill, width: 12, paint: knockout)
                + (inner.solid.map { path($0, filled: true, paint: knockout) } ?? "") + "</g>"
        } else {
            body += path(inner.path, filled: !inner.strokedOnly && variant.fill)
            if let solid = inner.solid {
                // Knocked out of a filled outline (photo.fill's mountains), else in the symbol's colour.
                let filledOutline = !inner.strokedOnly && variant.fill
                body += path(solid, filled: true, paint: filledOutline ? ("fill=\"\(background)\"", "stroke=\"\(background)\"") : nil)
            }
        }
        if variant.slash { body += path("M10 10 L90 90", filled: false, width: 9, paint: layered ? faint : nil, faded: layered && fainter) }
        return "<g transform=\"translate(\(format(x)) \(format(y))) scale(\(format(scale)))\">\(body)</g>\n"
    }

    /// A symbol's name in a variant (`symbolVariant`): `heart` with `circle.fill` is
    /// `heart.circle.fill`; parts the name has already are not added twice; `none` or nil keep it.
    public static func name(_ name: String, variant: String?) -> String {
        guard let variant, variant != "none", !variant.isEmpty else { return name }
        var parts = name.split(separator: ".").map(String.init)
        let wanted = variant.split(separator: ".").map(String.init)
        let hadFill = parts.contains("fill")
        parts.removeAll { $0 == "fill" }
        // The order SF Symbols names them in: base, slash, enclosure, fill.
        for part in ["slash", "circle", "square", "rectangle"] where wanted.contains(part) && !parts.contains(part) {
            parts.append(part)
        }
        if hadFill || wanted.contains("fill") { parts.append("fill") }
        return parts.joined(separator: ".")
    }

    /// Whether a name has a shape here.
    public static func has(_ name: String) -> Bool { resolve(name) != nil }

    /// How a name asks for its shape: filled, struck through, enclosed (`circle`, `square`...).
    struct Variant: Equatable {
        var fill = false
        var slash = false
        var enclosure: String?
    }

    /// A name as its shape's name and variant: `heart.slash.fill` is the heart, filled and struck
    /// through; `checkmark.circle` the checkmark in a circle, `heart.text.square` the heart in a
    /// square. The shape's own name first (`sun.max`, `cloud.rain`), then with an enclosure taken
    /// off, then the name with its last parts dropped (`cloud.sun.rain` as `cloud.sun`, `bell.badge`
    /// as `bell`); another spelling of a shape is drawn as it (`tram` as `bus`).
    static func resolve(_ name: String) -> (String, Variant)? {
        var parts = name.split(separator: ".").map(String.init)
        // `filled` in a name (`circle.lefthalf.filled`) is part of the shape, drawn filled.
        var variant = Variant(fill: parts.contains("fill") || parts.contains("filled"), slash: parts.contains("slash"))
        parts.removeAll { $0 == "fill" || $0 == "slash" }
        func shape(_ parts: ArraySlice<String>) -> String? {
            let joined = parts.joined(separator: ".")
            if shapes[joined] != nil { return joined }
            return aliases[joined]
        }
        if let whole = shape(parts[...]) { return (whole, variant) }
        if parts.count >= 2, let last = parts.last, enclosures[last] != nil {
            var base = parts.dropLast()
            while !base.isEmpty {
                if let found = shape(base) {
                    variant.enclosure = last
                    return (found, variant)
                }
                base = base.dropLast()
            }
        }
        var family = parts.dropLast()
        while let first = family.first, enclosures[first] == nil {
            if let found = shape(family) { return (found, variant) }
            family = family.dropLast()
        }
        return nil
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
