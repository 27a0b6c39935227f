import FoundationEssentials
import WidgetSupport
import WidgetWire

/// A drawing beside what iOS draws for it, described from Apple's published sizes: the family's
/// size on a 390-point-wide iPhone, its content margins and corner radius, and for each text style
/// the drawing uses its size, weight and leading at the default Dynamic Type size (Large); with the
/// drawing's own content margin and corner guides laid over it, so a reviewer sees where the host
/// put things against where iOS puts them. `widgets gallery` writes one per widget and family.
public enum FidelitySheet {
    /// What iOS draws, as facts a reviewer checks the drawing against.
    public static func facts(_ view: ViewNode, family: WidgetFamily, contentMarginsDisabled: Bool = false) -> [String] {
        let size = family.displaySize
        var facts = ["\(family.rawValue): \(number(size.width)) × \(number(size.height)) points on a 390-point-wide iPhone (iPhone 14–16)"]
        switch family {
        case .accessoryCircular: facts.append("a circle, drawn vibrant on the Lock Screen")
        case .accessoryRectangular: facts.append("corners of 10 points, continuous; drawn vibrant on the Lock Screen")
        case .accessoryInline: facts.append("one line of text (and a symbol) beside the time, in the Lock Screen's font")
        default: facts.append("corners of 22 points, continuous (a squircle, not arcs)")
        }
        if family.contentMargin > 0 {
            facts.append(
                contentMarginsDisabled
                    ? "content margins disabled: the content reaches the edges"
                    : "content margins of \(number(family.contentMargin)) points on every side (iOS 17 and later)")
        }
        // Each text style the drawing uses, as iOS sets it.
        let placed = Layout(
            metrics: PointMetrics(), environment: .standard(for: family), contentMargin: contentMarginsDisabled ? 0 : family.contentMargin
        ).place(view, in: size)
        var seen: [String] = []
        for element in placed {
            guard case .text(_, let style) = element.content, style.symbol == nil else { continue }
            let name = style.size == nil ? style.font : "system(size: \(number(style.points)))"
            let line = "\(name): \(number(style.points)) points, weight \(style.weight) (\(weightName(style.weight))), lines \(number(PointMetrics().lineHeight(style))) points apart"
            if !seen.contains(line) { seen.append(line) }
        }
        facts += seen
        return facts
    }

    /// The drawing's guides, as SVG to lay over it: its content margins (dashed) and, for a system
    /// family, where each corner's continuous curve begins on the sides (1.53 radii from the corner).
    public static func guides(family: WidgetFamily, contentMarginsDisabled: Bool = false) -> String {
        let size = family.displaySize
        var guides = ""
        let margin = contentMarginsDisabled ? 0 : family.contentMargin
        if margin > 0 {
            guides += "<rect x=\"\(number(margin))\" y=\"\(number(margin))\" width=\"\(number(size.width - 2 * margin))\" "
                + "height=\"\(number(size.height - 2 * margin))\" fill=\"none\" stroke=\"#ff2d55\" stroke-width=\"0.75\" stroke-dasharray=\"3 2\"/>"
        }
        if !family.isAccessory {
            let reach = 22 * 1.528665
            for (x, y) in [(reach, 0.0), (size.width - reach, 0), (reach, size.height), (size.width - reach, size.height)] {
                guides += "<line x1=\"\(number(x))\" y1=\"\(number(y - 4))\" x2=\"\(number(x))\" y2=\"\(number(y + 4))\" stroke=\"#ff2d55\" stroke-width=\"0.75\"/>"
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"guides\" width=\"\(number(size.width))\" height=\"\(number(size.height))\" "
            + "viewBox=\"0 0 \(number(size.width)) \(number(size.height))\">\(guides)</svg>"
    }

    static func weightName(_ weight: Int) -> String {
        [100: "ultraLight", 200: "thin", 300: "light", 400: "regular", 500: "medium", 600: "semibold", 700: "bold", 800: "heavy", 900: "black"][weight]
            ?? "\(weight)"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : cFormat("%.1f", value)
    }
}
