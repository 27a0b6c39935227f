import FoundationEssentials
import WidgetWire

extension WidgetFamily {
    /// The family's size in terminal cells: a cell stands for 8 × 16 points (a terminal cell is about
    /// twice as tall as wide), so a small widget's 158 × 158 points are 20 × 10 cells. The inline
    /// accessory is one line of text, one row.
    public var terminalSize: (columns: Int, rows: Int) {
        let points = displaySize
        let columns = Int((points.width / 8).rounded())
        return self == .accessoryInline ? (columns, 1) : (columns, Int((points.height / 16).rounded()))
    }
}

/// Terminal cells as layout units: every font one cell high, a character one cell wide (two for
/// wide characters such as emoji and CJK), 8 × 16 points a cell.
public struct TerminalMetrics: LayoutMetrics {
    public init() {}

    public func width(of text: String, style: TextStyle) -> Double { Double(TerminalText.width(text)) }
    public func lineHeight(_ style: TextStyle) -> Double { 1 }
    public func horizontal(_ points: Double) -> Double { points / 8 }
    public func vertical(_ points: Double) -> Double { points / 16 }
    /// SwiftUI's default stack spacing (about 8 points) is a column across; down, a row would cost
    /// a small widget a tenth of its height, so none.
    public var defaultSpacing: (horizontal: Double, vertical: Double) { (1, 0) }
    public var dividerThickness: Double { 1 }
    public var barThickness: Double { 1 }
    /// Toward zero: a negative length (a `padding(.top, -3)` pulling a view up) is no longer than the
    /// positive one, so a few points up do not take a whole row.
    public func snap(_ length: Double) -> Double { length.isFinite ? length.rounded(.towardZero) : length }
    public func wordWidths(of text: String, style: TextStyle) -> [Double]? { TerminalText.wordWidths(text) }
}
