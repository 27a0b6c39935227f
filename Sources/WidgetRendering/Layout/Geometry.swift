import Foundation

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
}

extension LayoutMetrics {
    public func wordWidths(of text: String, style: TextStyle) -> [Double]? { nil }
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
        case bar(Double?, tint: String)
    }

    public var rect: LayoutRect
    public var content: Content
}

extension Double {
    var trimmed: String { isFinite && self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
