import WidgetWire
import FoundationEssentials

/// The units a layout is made in: terminal cells, or points for SVG. Lengths in the view tree
/// (padding, spacing, minimum lengths) are points, converted per axis.
public protocol LayoutMetrics: Sendable {
    /// The width of `text` on one line.
    func width(of text: String, style: TextStyle) -> Double
    func lineHeight(_ style: TextStyle) -> Double
    func horizontal(_ points: Double) -> Double
    func vertical(_ points: Double) -> Double
    /// A stack's spacing when the view does not give one.
    var defaultSpacing: (horizontal: Double, vertical: Double) { get }
    var dividerThickness: Double { get }
    /// How thick a progress bar or gauge is.
    var barThickness: Double { get }
    /// Rounds a length to the grid: whole cells in a terminal.
    func snap(_ length: Double) -> Double
    /// The widths of `text`'s words (split at every U+0020 space), where the width of any run of
    /// them is exactly the sum of theirs and the spaces': then sizing wraps by adding numbers,
    /// without making the lines. Nil where widths do not add up so.
    func wordWidths(of text: String, style: TextStyle) -> [Double]?
    /// Whether text can be drawn smaller to fit (`minimumScaleFactor`): in points, not in cells.
    var scalesText: Bool { get }
    /// Whether a narrow no-break space (before AM/PM, as ICU and iOS set times) is drawn as such;
    /// else a plain space, as every terminal font has.
    var drawsNarrowSpaces: Bool { get }
}

extension LayoutMetrics {
    public func wordWidths(of text: String, style: TextStyle) -> [Double]? { nil }
    public var scalesText: Bool { false }
    public var drawsNarrowSpaces: Bool { false }
}

/// A rectangle in layout units, from the widget's top-left corner.
public struct LayoutRect: Equatable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "(\(x.trimmed), \(y.trimmed), \(width.trimmed)×\(height.trimmed))" }
}

/// One thing to draw, where.
public struct PlacedElement: Equatable, Sendable {
    public enum Content: Equatable, Sendable {
        /// One line of text, already wrapped and truncated to fit.
        case text(String, TextStyle)
        /// A divider: a line across `rect`.
        case rule(horizontal: Bool)
        /// A colour or gradient filling a shape in `rect` (a `background`, a `Color`, a shape view),
        /// drawn under what follows.
        case fill(Paint, ShapeKind)
        /// A progress bar or gauge across `rect`, filled to the fraction (nil: indeterminate), in a
        /// colour (the accent colour, unless the rendering mode changes it).
        /// `live`: a timer's progress (`ProgressView(timerInterval:)`) as `{"from", "to", "down"}`,
        /// where the layout marks live parts, for a drawing that moves it on its own.
        /// A bar: filled to its fraction, or (`marker`, an `accessoryLinear` gauge) a track with a
        /// dot at it.
        case bar(Double?, tint: String, live: JSONValue? = nil, marker: Bool = false)
        /// A shape's outline in `rect`.
        case stroke(Stroke, ShapeKind)
        /// A picture filling `rect`.
        case picture(Picture)
        /// What follows, up to the matching `unclip`, is drawn only inside the shape in `rect`.
        case clip(ShapeKind)
        case unclip
        /// What follows, up to the matching `endControl`, is intent control number N (from 1, in
        /// `TapTargets.controls`' order): a tap there performs its intent. Only where the layout
        /// marks controls (`Layout.marksLiveParts`).
        case control(Int)
        case endControl
        /// What follows, up to the matching `endEffect`, is drawn with an effect that leaves its
        /// place in the layout as it is (`rotationEffect`, `scaleEffect`, `shadow`, `blur`); `rect`
        /// is the view's frame, which the anchor is a point of.
        case effect(VisualEffect)
        case endEffect
        /// What follows, up to `maskEnd`, is a mask (drawn by its alpha, not shown); after it, up to
        /// the matching `endEffect`, what is drawn only where the mask is opaque.
        case maskBegin
        case maskEnd
    }

    public var rect: LayoutRect
    public var content: Content
}

/// An effect SwiftUI draws a view with, after layout: the view keeps its frame.
public enum VisualEffect: Equatable, Sendable {
    /// SwiftUI's blend modes that CSS has, by SwiftUI's name.
    static let blendModes: [String: String] = [
        "multiply": "multiply", "screen": "screen", "overlay": "overlay", "darken": "darken", "lighten": "lighten",
        "colorDodge": "color-dodge", "colorBurn": "color-burn", "softLight": "soft-light", "hardLight": "hard-light",
        "difference": "difference", "exclusion": "exclusion", "hue": "hue", "saturation": "saturation", "color": "color",
        "luminosity": "luminosity", "plusLighter": "plus-lighter", "plusDarker": "plus-darker",
    ]

    /// Turned clockwise by `degrees` about a point of the frame (`anchorX`, `anchorY` from 0 to 1).
    case rotation(degrees: Double, anchorX: Double, anchorY: Double)
    /// Scaled about a point of the frame.
    case scale(x: Double, y: Double, anchorX: Double, anchorY: Double)
    /// A shadow of the view's drawing: its colour, blur radius and offset, in points.
    case shadow(color: String, radius: Double, x: Double, y: Double)
    /// The view's drawing blurred by a radius in points.
    case blur(radius: Double)
    /// The view's drawing mixed with what is under it, by a CSS `mix-blend-mode` (`multiply`,
    /// `screen`, `plus-lighter`...).
    case blend(String)

    /// The effect a modifier describes, or nil when it changes nothing (or is malformed).
    init?(modifier name: String, _ value: JSONValue) {
        func number(_ key: String, _ fallback: Double) -> Double {
            guard let number = value[key]?.numberValue, number.isFinite else { return fallback }
            return number
        }
        switch name {
        case "rotationEffect":
            let degrees = number("degrees", 0).truncatingRemainder(dividingBy: 360)
            guard degrees != 0 else { return nil }
            self = .rotation(degrees: degrees, anchorX: number("anchorX", 0.5), anchorY: number("anchorY", 0.5))
        case "scaleEffect":
            let (x, y) = (number("x", 1), number("y", 1))
            guard x != 1 || y != 1 else { return nil }
            self = .scale(x: x, y: y, anchorX: number("anchorX", 0.5), anchorY: number("anchorY", 0.5))
        case "shadow":
            let radius = max(0, number("radius", 0))
            self = .shadow(color: value["color"]?.stringValue ?? "black/0.33", radius: radius, x: number("x", 0), y: number("y", 0))
        case "blur":
            let radius = max(0, number("radius", 0))
            guard radius > 0 else { return nil }
            self = .blur(radius: radius)
        case "blendMode":
            // SwiftUI's names as CSS's: `colorDodge` is `color-dodge`; `normal` changes nothing.
            guard let name = value.stringValue, name != "normal", let css = Self.blendModes[name] else { return nil }
            self = .blend(css)
        default:
            return nil
        }
    }
}

extension Double {
    var trimmed: String { isFinite && self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

/// A shape's outline: its paint, its width in points, drawn inside the shape's bounds
/// (`strokeBorder`) or centred on them (`stroke`), only the part `trim` keeps (fractions of the
/// path, which starts at the shape's trailing middle and runs clockwise), turned by `rotation`
/// degrees clockwise.
public struct Stroke: Equatable, Sendable {
    public var paint: Paint
    public var lineWidth: Double
    public var inside: Bool
    public var trim: ClosedRange<Double>
    public var rotation: Double
    /// `StrokeStyle(dash:)`: lengths of dashes and gaps, in points (empty: a solid line).
    public var dash: [Double]

    public init(paint: Paint, lineWidth: Double, inside: Bool = false, trim: ClosedRange<Double> = 0...1, rotation: Double = 0, dash: [Double] = []) {
        self.paint = paint
        self.lineWidth = lineWidth
        self.inside = inside
        self.trim = trim
        self.rotation = rotation
        self.dash = dash
    }

    /// Whether a point at `angle` degrees (clockwise from the trailing middle) is on the kept part.
    public func keeps(angle: Double) -> Bool {
        guard trim != 0...1 else { return true }
        var turned = (angle - rotation).truncatingRemainder(dividingBy: 360)
        if turned < 0 { turned += 360 }
        return trim.contains(turned / 360)
    }
}

/// A picture a view sent: a PNG or JPEG as a `data:` URL, and its size in points.
public struct Picture: Equatable, Sendable {
    public var dataURL: String?
    public var width: Double
    public var height: Double
    /// `resizable()`: it takes the size it is given; else its own.
    public var resizable: Bool
}
