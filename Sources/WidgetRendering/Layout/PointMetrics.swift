import FoundationEssentials
import WidgetWire

/// Points as layout units, with text measured as the font sets it (`SystemFont`: Inter's advances
/// and kerning, standing in for SF Pro), or, where the font is not installed, by average glyph
/// widths of the system font: close enough to wrap where iOS wraps, for a gallery.
public struct PointMetrics: LayoutMetrics {
    /// Whether text is measured in the font when it is installed (a benchmark compares without).
    public var measuresWithFont: Bool

    public init(measuresWithFont: Bool = true) {
        self.measuresWithFont = measuresWithFont
    }

    public func width(of text: String, style: TextStyle) -> Double {
        let em = style.points
        // A symbol drawn as its shape is as wide as its drawing, as an SF Symbol's frame is its glyph's.
        if let symbol = style.symbol, let frame = SymbolShapes.frame(symbol, points: em) { return frame.width }
        let bold = style.isBold
        let measured = measuresWithFont ? SystemFont.width(of: text, points: em, weight: style.faceWeight) { Self.averageWidth(of: $0, em: em, bold: bold) } : nil
        var width = measured ?? text.reduce(0) { $0 + Self.averageWidth(of: $1, em: em, bold: bold) }
        // Tracking after each character, as the drawing's letter-spacing sets it.
        width += style.letterSpacing * Double(text.count)
        // Whole points, as every other length of a layout is: a text's width then survives being
        // handed back to it (a stack sized by its children's widths gives each its own again).
        return width.rounded(.up)
    }

    /// A character's width by the system font's averages: what is measured without the font, and
    /// for a character it lacks (an emoji, CJK).
    static func averageWidth(of character: Character, em: Double, bold: Bool) -> Double {
        switch TerminalText.width(of: character) {
        case 0: return 0
        case 2: return em * 1.0
        default:
            if character == " " { return em * 0.28 }
            if character.isUppercase || character.isNumber { return em * (bold ? 0.66 : 0.62) }
            return em * (bold ? 0.56 : 0.52)
        }
    }

    /// A line's height: a text style's leading as iOS sets it at the default Dynamic Type size
    /// (body 22 points for 17, caption 16 for 12...); a size of one's own, 1.2 times it.
    public func lineHeight(_ style: TextStyle) -> Double {
        // A symbol drawn as its shape is as tall as its drawing, as an SF Symbol's frame is its glyph's
        // (WidgetExamples' bordered reset button: 33 points high on iOS; 34 on a 22-point line).
        if let symbol = style.symbol, let frame = SymbolShapes.frame(symbol, points: style.points) { return frame.height }
        if style.size == nil, let leading = Self.leading[style.font] { return leading }
        return (style.points * 1.2).rounded(.up)
    }

    /// iOS's text styles' leading, in points, at the default Dynamic Type size.
    static let leading: [String: Double] = [
        "largeTitle": 41, "title": 34, "title2": 28, "title3": 25, "headline": 22, "body": 22, "callout": 21, "subheadline": 20,
        "footnote": 18, "caption": 16, "caption2": 13,
    ]
    public func horizontal(_ points: Double) -> Double { points }
    public func vertical(_ points: Double) -> Double { points }
    public var defaultSpacing: (horizontal: Double, vertical: Double) { (8, 8) }
    public var dividerThickness: Double { 1 }
    /// A progress view's bar, 4 points high, as iOS draws it.
    public var barThickness: Double { 4 }
    public var scalesText: Bool { true }
    public var drawsNarrowSpaces: Bool { true }
    /// Whole points, toward zero: a negative length rounds as its positive one does.
    public func snap(_ length: Double) -> Double { length.isFinite ? length.rounded(.towardZero) : length }
}
