import FoundationEssentials
import Glibc
import WidgetSupport

/// The painter's reading of attribute values (references, numbers and lengths, transforms, blend
/// modes, paints) and the properties an element passes to what it holds.
extension SVGPainter {
    /// The id a `url(#id)` names; nil for another value.
    static func referencedID(_ value: String) -> String? {
        value.hasPrefix("url(#") && value.hasSuffix(")") ? String(value.dropFirst(5).dropLast()) : nil
    }

    func reference(_ value: String, _ attribute: String) throws(SVGUnsupported) -> SVGElement {
        guard let id = Self.referencedID(value) else { throw SVGUnsupported("\(attribute)=\"\(value)\"") }
        guard let element = definitions[id] else { throw SVGUnsupported("\(attribute) names #\(id), which is not defined") }
        return element
    }

    func number(_ element: SVGElement, _ attribute: String) throws(SVGUnsupported) -> Double? {
        guard let text = element[attribute] else { return nil }
        guard let list = NumberScanner.list(text), list.count == 1 else { throw SVGUnsupported("\(attribute)=\"\(text)\" on <\(element.name)>") }
        return list[0]
    }

    /// A length in user units (a unit of `px` allowed).
    func length(_ element: SVGElement, _ attribute: String) throws(SVGUnsupported) -> Double? {
        try Self.length(element, attribute)
    }

    static func length(_ element: SVGElement, _ attribute: String) throws(SVGUnsupported) -> Double? {
        guard let text = element[attribute] else { return nil }
        let bare = text.hasSuffix("px") ? String(text.dropLast(2)) : text
        guard let list = NumberScanner.list(bare), list.count == 1 else { throw SVGUnsupported("\(attribute)=\"\(text)\" on <\(element.name)>") }
        return list[0]
    }

    /// A number or a percentage (as a fraction).
    func fraction(_ element: SVGElement, _ attribute: String) throws(SVGUnsupported) -> Double? {
        guard let text = element[attribute] else { return nil }
        if text.hasSuffix("%"), let list = NumberScanner.list(String(text.dropLast())), list.count == 1 { return list[0] / 100 }
        return try number(element, attribute)
    }

    /// A transform list: matrix, translate, scale, rotate (about a point), skewX, skewY.
    static func matrix(_ text: String) throws(SVGUnsupported) -> CairoLibrary.Matrix {
        var result = CairoLibrary.Matrix()
        func then(_ m: CairoLibrary.Matrix) {
            // result × m: m applies first, as the list reads left to right from the outside in.
            result = CairoLibrary.Matrix(
                xx: result.xx * m.xx + result.xy * m.yx, yx: result.yx * m.xx + result.yy * m.yx,
                xy: result.xx * m.xy + result.xy * m.yy, yy: result.yx * m.xy + result.yy * m.yy,
                x0: result.xx * m.x0 + result.xy * m.y0 + result.x0, y0: result.yx * m.x0 + result.yy * m.y0 + result.y0)
        }
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }
            guard !rest.isEmpty else { return result }
            guard let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")"), open < close else {
                throw SVGUnsupported("transform=\"\(text)\"")
            }
            let name = rest[..<open].trimmingSpaces
            guard let values = NumberScanner.list(String(rest[rest.index(after: open)..<close])) else { throw SVGUnsupported("transform=\"\(text)\"") }
            rest = rest[rest.index(after: close)...]
            switch (name, values.count) {
            case ("matrix", 6): then(CairoLibrary.Matrix(xx: values[0], yx: values[1], xy: values[2], yy: values[3], x0: values[4], y0: values[5]))
            case ("translate", 1), ("translate", 2): then(CairoLibrary.Matrix(x0: values[0], y0: values.count == 2 ? values[1] : 0))
            case ("scale", 1), ("scale", 2): then(CairoLibrary.Matrix(xx: values[0], yy: values.count == 2 ? values[1] : values[0]))
            case ("rotate", 1), ("rotate", 3):
                let angle = values[0] * .pi / 180
                let (cx, cy) = values.count == 3 ? (values[1], values[2]) : (0, 0)
                then(CairoLibrary.Matrix(x0: cx, y0: cy))
                then(CairoLibrary.Matrix(xx: cos(angle), yx: sin(angle), xy: -sin(angle), yy: cos(angle)))
                then(CairoLibrary.Matrix(x0: -cx, y0: -cy))
            case ("skewX", 1): then(CairoLibrary.Matrix(xy: tan(values[0] * .pi / 180)))
            case ("skewY", 1): then(CairoLibrary.Matrix(yx: tan(values[0] * .pi / 180)))
            default: throw SVGUnsupported("transform=\"\(text)\"")
            }
        }
    }

    /// The cairo operator of a group's `mix-blend-mode` (in its style), nil for normal.
    static func blendOperator(_ element: SVGElement) throws(SVGUnsupported) -> Int32? {
        guard let style = element["style"] else { return nil }
        var mode: String?
        for declaration in style.split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingSpaces }
            guard parts.count == 2 else { continue }
            guard parts[0] == "mix-blend-mode" else { throw SVGUnsupported("the style \"\(parts[0])\"") }
            mode = parts[1]
        }
        guard let mode, mode != "normal" else { return nil }
        let operators: [String: Int32] = [
            "multiply": 14, "screen": 15, "overlay": 16, "darken": 17, "lighten": 18, "color-dodge": 19, "color-burn": 20,
            "hard-light": 21, "soft-light": 22, "difference": 23, "exclusion": 24, "hue": 25, "saturation": 26, "color": 27, "luminosity": 28,
            "plus-lighter": 12,
        ]
        guard let value = operators[mode] else { throw SVGUnsupported("mix-blend-mode: \(mode)") }
        return value
    }
}

extension SVGPainter {
    /// A fill or a stroke: a colour (straight RGBA, 0 to 1) or a gradient named by id.
    enum PaintValue: Equatable {
        case color(Double, Double, Double, Double)
        case reference(String)

        /// `none` is nil; `#rgb`, `#rrggbb`, a few names, `url(#id)`.
        init?(_ text: String) throws(SVGUnsupported) {
            let value = text.trimmingSpaces
            switch value {
            case "none": return nil
            case "black": self = .color(0, 0, 0, 1)
            case "white": self = .color(1, 1, 1, 1)
            case "transparent": self = .color(0, 0, 0, 0)
            default:
                if let id = SVGPainter.referencedID(value) {
                    self = .reference(id)
                    return
                }
                let digits = Array(value.utf8.dropFirst())
                guard value.hasPrefix("#"), digits.count == 6 || digits.count == 3, let number = UInt32(value.dropFirst(), radix: 16) else {
                    throw SVGUnsupported("the colour \"\(value)\"")
                }
                if digits.count == 3 {
                    let (r, g, b) = (number >> 8 & 0xf, number >> 4 & 0xf, number & 0xf)
                    self = .color(Double(r * 17) / 255, Double(g * 17) / 255, Double(b * 17) / 255, 1)
                } else {
                    self = .color(Double(number >> 16 & 0xff) / 255, Double(number >> 8 & 0xff) / 255, Double(number & 0xff) / 255, 1)
                }
            }
        }
    }

    /// The properties an element passes to what it holds.
    struct Style {
        var fill: PaintValue? = .color(0, 0, 0, 1)
        var fillOpacity = 1.0
        var fillRule = "nonzero"
        var stroke: PaintValue?
        var strokeOpacity = 1.0
        var strokeWidth = 1.0
        var lineCap = "butt"
        var lineJoin = "miter"
        var dashes: [Double] = []
        var dashOffset = 0.0
        var fontFamily = "sans-serif"
        var fontSize = 16.0
        var fontWeight = 400
        var italic = false
        var letterSpacing = 0.0
        var anchor = "start"
        var decoration: [String] = []
        var display = "inline"

        /// The family list's names.
        var families: [String] { fontFamily.split(separator: ",").map(String.init) }

        /// The element's own presentation attributes taken over those inherited.
        mutating func take(_ element: SVGElement) throws(SVGUnsupported) {
            func number(_ name: String) throws(SVGUnsupported) -> Double? { try SVGPainter.length(element, name) }
            if let value = element["fill"] { fill = try PaintValue(value) }
            if let value = try number("fill-opacity") { fillOpacity = min(1, max(0, value)) }
            if let value = element["fill-rule"] { fillRule = value }
            if let value = element["stroke"] { stroke = try PaintValue(value) }
            if let value = try number("stroke-opacity") { strokeOpacity = min(1, max(0, value)) }
            if let value = try number("stroke-width") { strokeWidth = value }
            if let value = element["stroke-linecap"] { lineCap = value }
            if let value = element["stroke-linejoin"] { lineJoin = value }
            if let value = element["stroke-dasharray"] {
                guard value == "none" || NumberScanner.list(value) != nil else { throw SVGUnsupported("stroke-dasharray=\"\(value)\"") }
                dashes = value == "none" ? [] : NumberScanner.list(value)!
            }
            if let value = try number("stroke-dashoffset") { dashOffset = value }
            if let value = element["font-family"] {
                // Pango's list: names without their quotes, separated by commas.
                fontFamily = value.split(separator: ",").map { $0.trimmingSpaces.trimmingAny(of: "'\"") }
                    .joined(separator: ",")
            }
            if let value = try number("font-size") { fontSize = value }
            if let value = element["font-weight"] {
                switch value {
                case "normal": fontWeight = 400
                case "bold": fontWeight = 700
                default:
                    guard let weight = Int(value), (1...1000).contains(weight) else { throw SVGUnsupported("font-weight=\"\(value)\"") }
                    fontWeight = weight
                }
            }
            if let value = element["font-style"] { italic = value == "italic" || value == "oblique" }
            if let value = element["letter-spacing"] { letterSpacing = value == "normal" ? 0 : try number("letter-spacing") ?? 0 }
            if let value = element["text-anchor"] { anchor = value }
            if let value = element["text-decoration"] { decoration = value.split(separator: " ").map(String.init) }
            if let value = element["display"] { display = value }
        }
    }
}
