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
            "gearshape": filled(
                "M44 4 H56 L59 17 L70 22 L81 14 L89 22 L81 33 L85 44 L96 47 V53 L85 56 L81 67 L89 78 L81 86 L70 78 L59 83 L56 96 H44 L41 83 L30 78 L19 86 L11 78 L19 67 L15 56 L4 53 V47 L15 44 L19 33 L11 22 L19 14 L30 22 L41 17 Z M50 36 A14 14 0 1 0 50.01 36 Z"),
            "cart": lines("M6 14 H20 L32 66 H80 L90 30 H26 M38 84 A5 5 0 1 0 38.01 84 M74 84 A5 5 0 1 0 74.01 84"),
            "bag": filled("M16 32 H84 L80 92 H20 Z M36 32 V24 C36 8 64 8 64 24 V32 H58 V24 C58 16 42 16 42 24 V32 Z"),
            "creditcard": lines("M8 22 H92 V78 H8 Z M8 38 H92 M20 62 H40"),
            "gift": filled("M10 34 H90 V50 H10 Z M16 54 H84 V92 H16 Z M46 34 H54 V92 H46 Z M50 34 C40 14 22 18 30 30 Z M50 34 C60 14 78 18 70 30 Z"),
            "book": lines("M50 20 C38 12 22 12 10 16 V84 C22 80 38 80 50 88 C62 80 78 80 90 84 V16 C78 12 62 12 50 20 Z M50 20 V88"),
            "doc": lines("M20 6 H62 L82 26 V94 H20 Z M62 6 V26 H82"),
            "folder": filled("M8 20 H40 L48 30 H92 V86 H8 Z"),
            "phone": filled(
                "M30 8 L42 30 L34 40 C40 54 48 62 60 68 L70 60 L92 72 L86 88 C82 92 76 94 70 92 C38 82 18 62 8 30 C6 24 8 18 12 14 Z"),
            "message": filled("M50 10 C26 10 6 24 6 44 C6 56 13 66 24 72 L20 92 L42 78 C44 78 47 78 50 78 C74 78 94 64 94 44 C94 24 74 10 50 10 Z"),
            "link": lines("M42 58 L58 42 M36 48 L26 58 C18 66 18 76 26 82 C32 88 42 88 48 80 L58 70 M64 52 L74 42 C82 34 82 24 74 18 C68 12 58 12 52 20 L42 30"),
            "key": lines("M30 30 A20 20 0 1 1 29.99 30 Z M44 62 L88 62 M76 62 V76 M88 62 V72"),
            "eye": lines("M4 50 C20 24 80 24 96 50 C80 76 20 76 4 50 Z M50 36 A14 14 0 1 1 49.99 36 Z"),
            "wifi": lines("M10 40 C34 16 66 16 90 40 M24 54 C40 38 60 38 76 54 M38 68 C46 60 54 60 62 68 M50 82 V84"),
            "battery.100": filled("M6 28 H84 V72 H6 Z M88 40 H94 V60 H88 Z"),
            "battery.50": lines("M6 28 H84 V72 H6 Z M92 42 V58 M16 40 V60 M30 40 V60 M44 40 V60"),
            "battery.25": lines("M6 28 H84 V72 H6 Z M92 42 V58 M16 40 V60"),
            "battery.0": lines("M6 28 H84 V72 H6 Z M92 42 V58"),
            "music.note": filled("M40 12 L84 4 V66 A14 12 0 1 1 76 56 V24 L48 30 V78 A14 12 0 1 1 40 68 Z"),
            "photo": lines("M6 14 H94 V86 H6 Z M6 74 L34 46 L58 70 L72 56 L94 78 M70 32 A7 7 0 1 0 70.01 32"),
            "camera": filled("M8 30 H30 L38 18 H62 L70 30 H92 V86 H8 Z M50 40 A16 16 0 1 0 50.01 40 Z"),
            "mic": lines("M38 12 C38 4 62 4 62 12 V50 C62 60 38 60 38 50 Z M24 46 C24 80 76 80 76 46 M50 72 V92 M34 92 H66"),
            "speaker": filled("M8 36 H28 L56 12 V88 L28 64 H8 Z"),
            "globe": lines("M50 6 A44 44 0 1 1 49.99 6 Z M6 50 H94 M50 6 C30 26 30 74 50 94 C70 74 70 26 50 6 Z"),
            "map": lines("M6 20 L34 10 L66 22 L94 12 V80 L66 90 L34 78 L6 88 Z M34 10 V78 M66 22 V90"),
            "airplane": filled("M46 6 C46 2 54 2 54 6 V36 L94 58 V66 L54 54 V78 L66 88 V94 L50 88 L34 94 V88 L46 78 V54 L6 66 V58 L46 36 Z"),
            "leaf": filled("M88 8 C40 8 10 30 12 66 L4 92 L12 94 L20 76 C56 84 90 56 88 8 Z"),
            "thermometer": lines("M40 60 V16 C40 6 60 6 60 16 V60 A18 18 0 1 1 40 60 Z M50 30 V70"),
            "wind": lines("M6 36 H62 C76 36 76 14 62 14 C54 14 52 20 52 22 M6 54 H80 C94 54 94 78 80 78 C72 78 70 72 70 70 M6 72 H46"),
            "snowflake": lines("M50 4 V96 M10 27 L90 73 M10 73 L90 27 M40 10 L50 20 L60 10 M40 90 L50 80 L60 90"),
            "sparkles": filled("M40 10 L48 34 L72 42 L48 50 L40 74 L32 50 L8 42 L32 34 Z M76 54 L80 66 L92 70 L80 74 L76 86 L72 74 L60 70 L72 66 Z"),
            "crown": filled("M8 30 L30 54 L50 16 L70 54 L92 30 L84 82 H16 Z"),
            "flag": filled("M16 6 V94 H24 V60 H86 L72 34 L86 8 H24 V6 Z"),
            "bookmark": filled("M22 6 H78 V94 L50 72 L22 94 Z"),
            "tag": filled("M8 8 H50 L94 52 L52 94 L8 50 Z M28 22 A6 6 0 1 0 28.01 22 Z"),
            "list.bullet": lines("M34 22 H92 M34 50 H92 M34 78 H92 M12 22 V23 M12 50 V51 M12 78 V79"),
            "square.grid.2x2": filled("M8 8 H44 V44 H8 Z M56 8 H92 V44 H56 Z M8 56 H44 V92 H8 Z M56 56 H92 V92 H56 Z"),
            "chart.bar": filled("M10 56 H28 V92 H10 Z M41 30 H59 V92 H41 Z M72 8 H90 V92 H72 Z"),
            "arrow.clockwise": lines("M82 50 A32 32 0 1 1 70 24 M72 8 V26 H54"),
            "arrow.counterclockwise": lines("M18 50 A32 32 0 1 0 30 24 M28 8 V26 H46"),
            "figure.walk": filled(
                "M56 14 A9 9 0 1 1 55.99 14 Z M44 30 L62 32 L70 50 L82 54 L80 62 L64 56 L60 48 L54 64 L66 76 L68 96 H58 L56 80 L44 70 L36 96 H26 L38 58 L42 42 L34 48 L30 62 L22 60 L28 42 Z"),
        ]
    }()

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
        let layered = mode == "hierarchical" || mode == "multicolor" || (mode == "palette" && secondary != nil)
        let faint = mode == "palette" ? (secondary ?? (fill, stroke)) : (fill + " fill-opacity=\"0.45\"", stroke + " stroke-opacity=\"0.45\"")
        let scale = size / 100
        let heaviness = Double(weight - 400) / 100
        var body = ""
        func path(_ data: String, filled: Bool, width: Double = 8, paint: (fill: String, stroke: String)? = nil) -> String {
            let (fillPaint, strokePaint) = paint ?? (fill, stroke)
            return filled
                ? "<path d=\"\(data)\" fill-rule=\"evenodd\" \(fillPaint)/>"
                : "<path d=\"\(data)\" fill=\"none\" \(strokePaint) stroke-width=\"\(format(max(2, width + heaviness)))\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>"
        }
        let inner = shapes[base]!
        if variant.circle {
            // The symbol in a circle: knocked out of a filled one, or in an outlined one; with
            // layers, the circle is the secondary layer and the symbol lies on it in the primary.
            body += path("M50 4 A46 46 0 1 1 49.99 4 Z", filled: variant.fill, width: 7, paint: layered ? faint : nil)
            let knockout = variant.fill && !layered ? ("fill=\"\(background)\"", "stroke=\"\(background)\"") : nil
            body += "<g transform=\"translate(22 22) scale(0.56)\">"
                + path(inner.path, filled: !inner.strokedOnly && variant.fill, width: 12, paint: knockout) + "</g>"
        } else {
            body += path(inner.path, filled: !inner.strokedOnly && variant.fill)
        }
        if variant.slash { body += path("M10 10 L90 90", filled: false, width: 9, paint: layered ? faint : nil) }
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
