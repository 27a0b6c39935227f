import WidgetWire

/// What text inherits from the modifiers of its ancestors: font, weight, colour, redaction.
public struct TextStyle: Equatable, Sendable {
    /// The values, shared by copies until one of them changes: a style is copied into every text
    /// of a layout and every line it places, and a copy is then one reference to count, not one
    /// for each of its strings.
    private struct Values: Equatable {
        var font = "body"
        var size: Double?
        /// A weight given (`bold`, `fontWeight`, `font(.system(size:weight:))`), CSS's numbers:
        /// 100 to 900; nil for the font's own.
        var weight: Int?
        var color: String?
        var gradient: LinearGradientPaint?
        var redacted = false
        var link: String?
        var alignment = "leading"
        var accentable = false
        var privacySensitive = false
        var redactsPrivacy = false
        var invalidatable = false
        var tint: String?
        var opacity = 1.0
        var italic = false
        var underline = false
        var strikethrough = false
        /// `minimumScaleFactor`: how far the text may shrink to fit, where fonts can (SVG).
        var minimumScale = 1.0
        var indicatorStyle: String?
        var labelStyle: String?
        var buttonStyle: String?
        var toggleStyle: String?
        /// `imageScale`: a symbol's size against its font's, 0.8 small, 1 medium, 1.3 large.
        var symbolScale = 1.0
        /// A self-updating date's parts (`DateText.liveParts`), for drawings that tick on their own.
        var live: JSONValue?
        /// The SF Symbol this text draws (`Image(systemName:)`), for a drawing that has its shape.
        var symbol: String?
        /// `symbolVariant`: the variant symbols inside take (`fill`, `circle.fill`, `slash`...).
        var symbolVariant: String?
        /// `symbolRenderingMode`: monochrome (nil), hierarchical, palette or multicolor.
        var symbolMode: String?
        /// The second of `foregroundStyle(_:_:)`: a symbol's secondary layer under `.palette`.
        var secondaryColor: String?
        /// `tracking(_:)` or `kerning(_:)`: space added after each character, in points.
        var tracking = 0.0
        /// `allowsTightening(true)`: a line too long may set its characters closer before it is cut.
        var allowsTightening = false
    }

    private final class Box: @unchecked Sendable {
        // Changed only through a style that holds the one reference to it (`change`).
        var values: Values
        init(_ values: Values) { self.values = values }
        static let standard = Box(Values())
    }

    private var box: Box

    private mutating func change(_ body: (inout Values) -> Void) {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.values) }
        body(&box.values)
    }

    public static func == (lhs: TextStyle, rhs: TextStyle) -> Bool {
        lhs.box === rhs.box || lhs.box.values == rhs.box.values
    }

    /// A text style name (`body`, `headline`...) or nil with `size` for a fixed size.
    public var font: String {
        get { box.values.font }
        set { change { $0.font = newValue } }
    }
    public var size: Double? {
        get { box.values.size }
        set { change { $0.size = newValue } }
    }
    /// `bold()`: a weight of 700 given, or none.
    public var bold: Bool {
        get { givenWeight == 700 }
        set { givenWeight = newValue ? 700 : nil }
    }
    /// The weight given, if one was; `weight` is the weight drawn.
    public var givenWeight: Int? {
        get { box.values.weight }
        set { change { $0.weight = newValue } }
    }
    /// A colour name (`red`, `secondary`...) or `#rrggbb`; nil for the primary colour.
    public var color: String? {
        get { box.values.color }
        set { change { $0.color = newValue } }
    }
    /// A gradient the text is painted with, across each line's bounds (`foregroundStyle`); it
    /// takes the place of `color`.
    public var gradient: LinearGradientPaint? {
        get { box.values.gradient }
        set { change { $0.gradient = newValue } }
    }
    /// Set on a placeholder's tree: text is drawn as bars, as iOS redacts it.
    public var redacted: Bool {
        get { box.values.redacted }
        set { change { $0.redacted = newValue } }
    }
    /// The destination of the `Link` this text is inside, if any.
    public var link: String? {
        get { box.values.link }
        set { change { $0.link = newValue } }
    }
    /// How wrapped lines line up: `leading`, `center` or `trailing`.
    public var alignment: String {
        get { box.values.alignment }
        set { change { $0.alignment = newValue } }
    }
    /// Marked `widgetAccentable`: in the accent colour when the widget is drawn accented.
    public var accentable: Bool {
        get { box.values.accentable }
        set { change { $0.accentable = newValue } }
    }
    /// Marked `privacySensitive`: redacted on a locked device or under `redacted(reason: .privacy)`.
    public var privacySensitive: Bool {
        get { box.values.privacySensitive }
        set { change { $0.privacySensitive = newValue } }
    }
    /// Under `redacted(reason: .privacy)`.
    public var redactsPrivacy: Bool {
        get { box.values.redactsPrivacy }
        set { change { $0.redactsPrivacy = newValue } }
    }
    /// Marked `invalidatableContent`: shown as stale while an interaction's reload is pending.
    public var invalidatable: Bool {
        get { box.values.invalidatable }
        set { change { $0.invalidatable = newValue } }
    }

    /// The view's tint (`.tint(.orange)`): what the accent colour is inside it.
    public var tint: String? {
        get { box.values.tint }
        set { change { $0.tint = newValue } }
    }
    /// The opacity of the views this is inside, multiplied (`.opacity(0.5)`); their colours fade by it.
    public var opacity: Double {
        get { box.values.opacity }
        set { change { $0.opacity = newValue } }
    }
    public var italic: Bool {
        get { box.values.italic }
        set { change { $0.italic = newValue } }
    }
    public var underline: Bool {
        get { box.values.underline }
        set { change { $0.underline = newValue } }
    }
    public var strikethrough: Bool {
        get { box.values.strikethrough }
        set { change { $0.strikethrough = newValue } }
    }
    /// How far the text may shrink to fit its width (`minimumScaleFactor`), 0 to 1.
    public var minimumScale: Double {
        get { box.values.minimumScale }
        set { change { $0.minimumScale = newValue } }
    }

    /// The gauge or progress view style set on the views this is inside (`accessoryCircular`...).
    public var indicatorStyle: String? {
        get { box.values.indicatorStyle }
        set { change { $0.indicatorStyle = newValue } }
    }
    /// The label style (`titleOnly`, `iconOnly`, `titleAndIcon`).
    public var labelStyle: String? {
        get { box.values.labelStyle }
        set { change { $0.labelStyle = newValue } }
    }
    /// The button style (`bordered`, `borderedProminent`, `plain`...).
    public var buttonStyle: String? {
        get { box.values.buttonStyle }
        set { change { $0.buttonStyle = newValue } }
    }

    /// For a text that changes as time passes (a timer, a relative date), its parts as
    /// `DateText.liveParts` gives them: a drawing that ticks on its own (the web page) formats them
    /// each second. Nil for any other text, and for a text wrapped onto more than one line.
    public var live: JSONValue? {
        get { box.values.live }
        set { change { $0.live = newValue } }
    }
    public var symbolScale: Double {
        get { box.values.symbolScale }
        set { change { $0.symbolScale = newValue } }
    }
    public var toggleStyle: String? {
        get { box.values.toggleStyle }
        set { change { $0.toggleStyle = newValue } }
    }
    public var symbol: String? {
        get { box.values.symbol }
        set { change { $0.symbol = newValue } }
    }
    public var symbolVariant: String? {
        get { box.values.symbolVariant }
        set { change { $0.symbolVariant = newValue } }
    }
    public var symbolMode: String? {
        get { box.values.symbolMode }
        set { change { $0.symbolMode = newValue } }
    }
    public var secondaryColor: String? {
        get { box.values.secondaryColor }
        set { change { $0.secondaryColor = newValue } }
    }
    public var allowsTightening: Bool {
        get { box.values.allowsTightening }
        set { change { $0.allowsTightening = newValue } }
    }
    /// The tracking the text's author gave (`tracking(_:)`, `kerning(_:)`).
    public var tracking: Double {
        get { box.values.tracking }
        set { change { $0.tracking = newValue } }
    }

    /// The space after each character, in points: the system's at the size (SF Pro's, which iOS sets
    /// system text with) and the author's. A symbol has none.
    public var letterSpacing: Double { symbol != nil ? 0 : SystemTracking.points(at: points) + tracking }

    /// The same style at `scale` times its font size (never larger, unless allowed).
    func scaled(_ scale: Double, allowingLarger: Bool = false) -> TextStyle {
        guard scale < 1 || allowingLarger, scale.isFinite, scale > 0 else { return self }
        var style = self
        style.size = points * scale
        return style
    }

    public init() { box = Box.standard }

    /// The size in points of the font, as iOS's text styles are at the default Dynamic Type size.
    public var points: Double {
        if let size { return size }
        switch font {
        case "largeTitle": return 34
        case "title": return 28
        case "title2": return 22
        case "title3": return 20
        case "headline", "body": return 17
        case "callout": return 16
        case "subheadline": return 15
        case "footnote": return 13
        case "caption": return 12
        case "caption2": return 11
        default: return 17
        }
    }

    /// The weight drawn, as CSS numbers it: the one given (`.bold()` 700), else a headline's
    /// semibold 600, regular 400.
    public var weight: Int {
        givenWeight ?? (font == "headline" ? 600 : 400)
    }

    /// The weight of the face drawn in the font standing in for SF Pro: Inter's bold and heavier
    /// weights are a step heavier than SF Pro's of the same name (measured against WidgetExamples'
    /// iOS screenshots, Inter Bold put down about 20% more ink than iOS's `.bold()` at 15 points,
    /// Inter SemiBold 6%), so from bold on, the face a step lighter; up to semibold, as given.
    public var faceWeight: Int { weight >= 700 ? weight - 100 : weight }

    /// Semibold and heavier: bold wherever only bold or not can be shown (a terminal).
    public var isBold: Bool { weight >= 600 }

    /// A weight's name (`semibold`, SwiftUI's `Font.Weight`) as CSS's number; nil for an unknown one.
    static func weight(named name: String) -> Int? {
        switch name {
        case "ultraLight": 100
        case "thin": 200
        case "light": 300
        case "regular": 400
        case "medium": 500
        case "semibold": 600
        case "bold": 700
        case "heavy": 800
        case "black": 900
        default: nil
        }
    }
}
