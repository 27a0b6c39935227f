import Foundation
import WidgetWire

extension Layout {
    // MARK: Rendering modes

    /// A style as drawn: redacted where privacy asks, stale while invalidated, and its colours as
    /// the rendering mode draws them.
    func drawn(_ style: TextStyle) -> TextStyle {
        var style = style
        if style.privacySensitive, isLocked || style.redactsPrivacy { style.redacted = true }
        if isInvalidated, style.invalidatable {
            style.color = "secondary"
            style.gradient = nil
            return style
        }
        switch environment.renderingMode {
        case .fullColor:
            break
        case .accented:
            // Two groups, as iOS tints them: the accentable in the accent colour, the rest primary
            // (secondary stays secondary).
            style.color = style.accentable ? "accent" : (style.color == "secondary" ? "secondary" : nil)
            style.gradient = nil
        case .vibrant:
            style.color = style.color.map(vibrant)
            style.gradient = style.gradient.map(vibrant)
        }
        return style
    }

    /// A fill as drawn in the rendering mode, for a view of `style`.
    func drawn(_ paint: Paint, _ style: TextStyle) -> Paint {
        switch environment.renderingMode {
        case .fullColor: return paint
        case .accented:
            if style.accentable { return .color("accent") }
            fallthrough
        case .vibrant:
            switch paint {
            case .color(let color): return .color(vibrant(color))
            case .linearGradient(let gradient): return .linearGradient(vibrant(gradient))
            }
        }
    }

    /// A colour desaturated to the grey of its luminance; the system's greys and clear kept.
    func vibrant(_ color: String) -> String {
        if ["primary", "secondary", "separator", "redacted", "clear"].contains(color) { return color }
        let (red, green, blue) = SystemColors.rgb(color, environment.colorScheme)
        let grey = Int((0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)).rounded())
        return SystemColors.hex((grey, grey, grey))
    }

    func vibrant(_ gradient: LinearGradientPaint) -> LinearGradientPaint {
        var gradient = gradient
        gradient.stops = gradient.stops.map { LinearGradientPaint.Stop(color: vibrant($0.color), location: $0.location) }
        return gradient
    }
}
