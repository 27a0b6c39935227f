import FoundationEssentials
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
        if let tint = style.tint, let color = style.color { style.color = Self.tinted(color, tint) }
        if style.opacity < 1 {
            style.color = SystemColors.fading(style.color ?? "primary", by: style.opacity)
            style.gradient = style.gradient.map { gradient in
                var faded = gradient
                faded.stops = gradient.stops.map { GradientStop(color: SystemColors.fading($0.color, by: style.opacity), location: $0.location) }
                return faded
            }
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

    /// A fill as drawn in the rendering mode, for a view of `style`: its accent colour the view's
    /// tint, faded by the view's opacity.
    func drawn(_ paint: Paint, _ style: TextStyle) -> Paint {
        var paint = paint
        if let tint = style.tint { paint = paint.mapColors { Self.tinted($0, tint) } }
        if style.opacity < 1 { paint = paint.mapColors { SystemColors.fading($0, by: style.opacity) } }
        switch environment.renderingMode {
        case .fullColor: return paint
        case .accented:
            if style.accentable { return .color(SystemColors.fading("accent", by: style.opacity)) }
            fallthrough
        case .vibrant:
            return paint.mapColors(vibrant)
        }
    }

    /// `accent` as the view's tint (`.tint(.orange)`); other colours as they are.
    static func tinted(_ color: String, _ tint: String) -> String {
        guard color.hasPrefix("accent") else { return color }
        let (name, opacity) = SystemColors.split(color)
        guard name == "accent" else { return color }
        return SystemColors.fading(tint, by: opacity)
    }

    /// A colour desaturated to the grey of its luminance, its opacity kept; the system's greys
    /// and clear kept.
    func vibrant(_ color: String) -> String {
        let (name, opacity) = SystemColors.split(color)
        if ["primary", "secondary", "tertiary", "quaternary", "quinary", "separator", "redacted", "clear", "background"].contains(name) { return color }
        let (red, green, blue) = SystemColors.opaque(name, environment.colorScheme)
        let grey = Int((0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)).rounded())
        return SystemColors.fading(SystemColors.hex((grey, grey, grey)), by: opacity)
    }

    func vibrant(_ gradient: LinearGradientPaint) -> LinearGradientPaint {
        var gradient = gradient
        gradient.stops = gradient.stops.map { GradientStop(color: vibrant($0.color), location: $0.location) }
        return gradient
    }
}
