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
    }

    static let shapes: [String: Shape] = {
        func filled(_ path: String) -> Shape { Shape(path: path, strokedOnly: false) }
        func lines(_ path: String) -> Shape { Shape(path: path, strokedOnly: true) }
        let circle = "M50 6 A44 44 0 1 1 49.99 6 Z"
        return [
            "star": filled("M50 5 L61.8 38.2 L97.6 38.2 L68.9 59.1 L79.4 92.7 L50 72 L20.6 92.7 L31.1 59.1 L2.4 38.2 L38.2 38.2 Z"),
            "heart": filled("M50 88 C20 65 5 48 5 30 C5 15 17 5 30 5 C40 5 47 11 50 18 C53 11 60 5 70 5 C83 5 95 15 95 30 C95 48 80 65 50 88 Z"),
            "circle": filled(circle),
            "square": filled("M14 10 H86 Q90 10 90 14 V86 Q90 90 86 90 H14 Q10 90 10 86 V14 Q10 10 14 10 Z"),
            "triangle": filled("M50 8 L94 88 H6 Z"),
            "diamond": filled("M50 4 L92 50 L50 96 L8 50 Z"),
            "checkmark": lines("M15 52 L40 77 L85 25"),
            "xmark": lines("M22 22 L78 78 M78 22 L22 78"),
            "plus": lines("M50 14 V86 M14 50 H86"),
            "minus": lines("M14 50 H86"),
            "chevron.right": lines("M36 14 L70 50 L36 86"),
            "chevron.left": lines("M64 14 L30 50 L64 86"),
            "chevron.up": lines("M14 64 L50 30 L86 64"),
            "chevron.down": lines("M14 36 L50 70 L86 36"),
            "arrow.up": lines("M50 88 V14 M22 42 L50 14 L78 42"),
            "arrow.down": lines("M50 12 V86 M22 58 L50 86 L78 58"),
            "arrow.left": lines("M88 50 H14 M42 22 L14 50 L42 78"),
            "arrow.right": lines("M12 50 H86 M58 22 L86 50 L58 78"),
            "bolt": filled("M58 3 L20 57 H48 L40 97 L80 40 H52 Z"),
            "play": filled("M25 10 L85 50 L25 90 Z"),
            "pause": filled("M24 12 H42 V88 H24 Z M58 12 H76 V88 H58 Z"),
            "stop": filled("M15 15 H85 V85 H15 Z"),
            "bell": filled("M50 8 C32 8 22 22 22 40 V62 L12 76 H88 L78 62 V40 C78 22 68 8 50 8 Z M40 82 C40 92 60 92 60 82 Z"),
            "trash": filled("M14 20 H86 V28 H14 Z M38 20 V10 H62 V20 Z M22 32 H78 L72 92 H28 Z"),
            "lock": filled("M20 44 H80 V92 H20 Z M32 44 V30 C32 8 68 8 68 30 V44 H60 V30 C60 18 40 18 40 30 V44 Z"),
            "location": filled("M88 10 L10 44 L47 53 L56 90 Z"),
            "car": filled(
                "M10 62 L20 36 C22 30 27 28 33 28 H67 C73 28 78 30 80 36 L90 62 V78 H10 Z M20 78 A9 9 0 1 0 38 78 Z M62 78 A9 9 0 1 0 80 78 Z"),
            "house": filled("M50 8 L92 46 H80 V90 H58 V64 H42 V90 H20 V46 H8 Z"),
            "clock": lines("\(circle) M50 50 V24 M50 50 L68 62"),
            "calendar": lines("M12 20 H88 V90 H12 Z M12 38 H88 M32 8 V28 M68 8 V28"),
            "hourglass": filled("M24 8 H76 L50 50 L76 92 H24 L50 50 Z"),
            "info": lines("M50 44 V76 M50 26 V28"),
            "exclamationmark": lines("M50 14 V62 M50 80 V82"),
            "exclamationmark.triangle": lines("M50 8 L94 88 H6 Z M50 36 V62 M50 74 V76"),
            "drop": filled("M50 6 C50 6 20 44 20 64 C20 81 33 94 50 94 C67 94 80 81 80 64 C80 44 50 6 50 6 Z"),
            "flame": filled(
                "M50 5 C60 25 78 38 78 60 C78 80 65 94 50 94 C35 94 22 80 22 62 C22 48 30 40 38 30 C38 45 45 52 50 52 C48 35 45 20 50 5 Z"),
            "sun.max": lines(
                "M50 32 A18 18 0 1 1 49.99 32 Z M50 4 V16 M50 84 V96 M4 50 H16 M84 50 H96 M17 17 L26 26 M74 74 L83 83 M83 17 L74 26 M26 74 L17 83"),
            "moon": filled("M62 8 C38 12 22 32 22 54 C22 76 40 94 62 94 C74 94 84 88 90 80 C56 84 36 60 44 36 C48 24 54 14 62 8 Z"),
            "cloud": filled(
                "M28 78 H74 C86 78 94 70 94 58 C94 46 85 38 74 38 C72 24 61 16 48 16 C34 16 24 26 22 40 C12 42 6 50 6 60 C6 70 15 78 28 78 Z"),
            "person": filled("M50 14 A16 16 0 1 1 49.99 14 Z M18 92 C18 68 32 56 50 56 C68 56 82 68 82 92 Z"),
            "envelope": lines("M8 22 H92 V80 H8 Z M8 22 L50 56 L92 22"),
            "magnifyingglass": lines("M42 12 A30 30 0 1 1 41.99 12 Z M63 63 L90 90"),
        ]
    }()

    /// A symbol's drawing, as SVG, in `box` (a square of the text's size), painted with `fill`
    /// (attributes for `fill`) or `stroke` (for `stroke`); nil for a name without a shape here.
    static func svg(_ name: String, x: Double, y: Double, size: Double, fill: String, stroke: String, background: String) -> String? {
        guard let (base, variant) = resolve(name) else { return nil }
        let scale = size / 100
        var body = ""
        func path(_ data: String, filled: Bool, width: Double = 8, paint: (fill: String, stroke: String)? = nil) -> String {
            let (fillPaint, strokePaint) = paint ?? (fill, stroke)
            return filled
                ? "<path d=\"\(data)\" \(fillPaint)/>"
                : "<path d=\"\(data)\" fill=\"none\" \(strokePaint) stroke-width=\"\(width)\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>"
        }
        let inner = shapes[base]!
        if variant.circle {
            // The symbol in a circle: knocked out of a filled one, or in an outlined one.
            body += path("M50 4 A46 46 0 1 1 49.99 4 Z", filled: variant.fill, width: 7)
            let knockout = variant.fill ? ("fill=\"\(background)\"", "stroke=\"\(background)\"") : nil
            body += "<g transform=\"translate(22 22) scale(0.56)\">"
                + path(inner.path, filled: !inner.strokedOnly && variant.fill, width: 12, paint: knockout) + "</g>"
        } else {
            body += path(inner.path, filled: !inner.strokedOnly && variant.fill)
        }
        if variant.slash { body += path("M10 10 L90 90", filled: false, width: 9) }
        return "<g transform=\"translate(\(format(x)) \(format(y))) scale(\(format(scale)))\">\(body)</g>\n"
    }

    /// Whether a name has a shape here.
    public static func has(_ name: String) -> Bool { resolve(name) != nil }

    /// A name as its shape's name and variant: `heart.slash.fill` is the heart, filled and struck
    /// through; `checkmark.circle` the checkmark in a circle. The shape's own name first (`sun.max`),
    /// then its parts left when the variants are taken off.
    static func resolve(_ name: String) -> (String, (fill: Bool, circle: Bool, slash: Bool))? {
        var parts = name.split(separator: ".").map(String.init)
        let fill = parts.contains("fill")
        let slash = parts.contains("slash")
        parts.removeAll { $0 == "fill" || $0 == "slash" }
        let whole = parts.joined(separator: ".")
        if shapes[whole] != nil { return (whole, (fill, false, slash)) }
        // `x.circle`: the symbol x in a circle.
        if parts.count >= 2, parts.last == "circle" {
            let base = parts.dropLast().joined(separator: ".")
            if shapes[base] != nil { return (base, (fill, true, slash)) }
        }
        // A name of the family (`cloud.sun` as `cloud`, `bell.badge` as `bell`).
        if let first = parts.first, first != "circle", shapes[first] != nil { return (first, (fill, false, slash)) }
        return nil
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
