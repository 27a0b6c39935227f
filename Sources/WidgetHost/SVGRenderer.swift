import Foundation
import WidgetWire

/// Points as layout units, with text measured by average glyph widths of the system font (SF Pro
/// and its stand-ins): close enough to wrap where iOS wraps, for a gallery.
public struct PointMetrics: LayoutMetrics {
    public init() {}

    public func width(of text: String, style: TextStyle) -> Double {
        let em = style.points
        var width = 0.0
        for character in text {
            switch TerminalText.width(of: character) {
            case 0: continue
            case 2: width += em * 1.0
            default:
                if character == " " {
                    width += em * 0.28
                } else if character.isUppercase || character.isNumber {
                    width += em * (style.isBold ? 0.66 : 0.62)
                } else {
                    width += em * (style.isBold ? 0.56 : 0.52)
                }
            }
        }
        return width
    }

    public func lineHeight(_ style: TextStyle) -> Double { (style.points * 1.2).rounded(.up) }
    public func horizontal(_ points: Double) -> Double { points }
    public func vertical(_ points: Double) -> Double { points }
    public var defaultSpacing: (horizontal: Double, vertical: Double) { (8, 8) }
    public var dividerThickness: Double { 1 }
    public var barThickness: Double { 6 }
    public func snap(_ length: Double) -> Double { length.isFinite ? length.rounded(.down) : length }
}

/// Draws a widget as an SVG image a browser opens: its shape and background, its text, dividers,
/// redaction bars for a placeholder; links and its widget URL are clickable.
public struct SVGRenderer: Sendable {
    public var appearance: TerminalRenderer.Appearance

    public init(appearance: TerminalRenderer.Appearance) {
        self.appearance = appearance
    }

    public func render(_ view: ViewNode, family: WidgetFamily, now: Date = Date(), dates: DateText = DateText()) -> String {
        let size = family.displaySize
        let elements = Layout(metrics: PointMetrics(), now: now, dates: dates).place(view, in: size)
        let targets = TapTargets(view)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(format(size.width))" height="\(format(size.height))" \
            viewBox="0 0 \(format(size.width)) \(format(size.height))" font-family="-apple-system, 'SF Pro Text', system-ui, 'Helvetica Neue', sans-serif">

            """
        // The widget: a tap anywhere opens its widgetURL; links (not in small widgets) open theirs.
        let linksApply = family != .systemSmall
        svg += targets.widgetURL.map { "<a href=\"\(XMLText.escape($0))\">" } ?? "<g>"
        svg += background(family, size, fill: view.modifier("containerBackground")?.stringValue)
        for element in elements where !(linksApply && element.link != nil) { svg += draw(element) }
        svg += targets.widgetURL == nil ? "</g>\n" : "</a>\n"
        if linksApply {
            var index = 0
            let linked = elements.filter { $0.link != nil }
            while index < linked.count {
                let url = linked[index].link!
                svg += "<a href=\"\(XMLText.escape(url))\">"
                while index < linked.count, linked[index].link == url {
                    svg += draw(linked[index])
                    index += 1
                }
                svg += "</a>\n"
            }
        }
        return svg + "</svg>\n"
    }

    func background(_ family: WidgetFamily, _ size: (width: Double, height: Double), fill color: String?) -> String {
        let fill = hex(color.map { SystemColors.rgb($0, appearance) } ?? SystemColors.background(appearance))
        switch family {
        case .accessoryInline: return ""
        case .accessoryCircular:
            return "<circle cx=\"\(format(size.width / 2))\" cy=\"\(format(size.height / 2))\" r=\"\(format(size.width / 2))\" fill=\"\(fill)\"/>\n"
        case .accessoryRectangular:
            return "<rect width=\"\(format(size.width))\" height=\"\(format(size.height))\" rx=\"10\" fill=\"\(fill)\"/>\n"
        default:
            return "<rect width=\"\(format(size.width))\" height=\"\(format(size.height))\" rx=\"22\" fill=\"\(fill)\"/>\n"
        }
    }

    func draw(_ element: PlacedElement) -> String {
        let rect = element.rect
        switch element.content {
        case .text(let text, let style):
            if style.redacted {
                let height = (style.points * 0.8).rounded()
                return "<rect x=\"\(format(rect.x))\" y=\"\(format(rect.y + (rect.height - height) / 2))\" width=\"\(format(rect.width))\" "
                    + "height=\"\(format(height))\" rx=\"4\" fill=\"\(hex(SystemColors.rgb("redacted", appearance)))\"/>\n"
            }
            let baseline = rect.y + (rect.height - style.points * 1.2) / 2 + style.points * 0.95
            return "<text x=\"\(format(rect.x))\" y=\"\(format(baseline))\" font-size=\"\(format(style.points))\""
                + (style.isBold ? " font-weight=\"600\"" : "") + " fill=\"\(hex(SystemColors.rgb(style.color ?? "primary", appearance)))\""
                + " xml:space=\"preserve\">\(XMLText.escape(text))</text>\n"
        case .bar(let fraction):
            let track = "<rect x=\"\(format(rect.x))\" y=\"\(format(rect.y))\" width=\"\(format(rect.width))\" height=\"\(format(rect.height))\" rx=\"3\" fill=\"\(hex(SystemColors.rgb("separator", appearance)))\"/>\n"
            guard let fraction else { return track }
            return track
                + "<rect x=\"\(format(rect.x))\" y=\"\(format(rect.y))\" width=\"\(format(rect.width * fraction))\" height=\"\(format(rect.height))\" rx=\"3\" fill=\"\(hex(SystemColors.rgb("accent", appearance)))\"/>\n"
        case .fill(let color):
            return "<rect x=\"\(format(rect.x))\" y=\"\(format(rect.y))\" width=\"\(format(rect.width))\" height=\"\(format(rect.height))\" "
                + "fill=\"\(hex(SystemColors.rgb(color, appearance)))\"/>\n"
        case .rule(let horizontal):
            let stroke = hex(SystemColors.rgb("separator", appearance))
            return horizontal
                ? "<line x1=\"\(format(rect.x))\" y1=\"\(format(rect.y + 0.5))\" x2=\"\(format(rect.x + rect.width))\" y2=\"\(format(rect.y + 0.5))\" stroke=\"\(stroke)\"/>\n"
                : "<line x1=\"\(format(rect.x + 0.5))\" y1=\"\(format(rect.y))\" x2=\"\(format(rect.x + 0.5))\" y2=\"\(format(rect.y + rect.height))\" stroke=\"\(stroke)\"/>\n"
        }
    }

    func hex(_ rgb: (Int, Int, Int)) -> String {
        func two(_ value: Int) -> String {
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + two(rgb.0) + two(rgb.1) + two(rgb.2)
    }

    func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() && abs(rounded) < 1e12 ? String(Int(rounded)) : String(rounded)
    }
}

public enum XMLText {
    /// Text for XML: `&`, `<`, `>`, quotes escaped, and characters XML forbids dropped.
    public static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&apos;"
        default:
            let value = scalar.value
            if value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                || value >= 0x10000
            {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
    }
}

extension PlacedElement {
    var link: String? {
        if case .text(_, let style) = content { return style.link }
        return nil
    }
}
