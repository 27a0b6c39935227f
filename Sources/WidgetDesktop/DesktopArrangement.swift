import FoundationEssentials
import WidgetWire

/// Where each widget lies on the desktop surface: in the home screen's order, on the home screen's
/// grid (a small widget's 158-point cell, 22 points apart across and 38 down, so that a medium widget
/// is two cells wide and a large one two tall, as on an iPhone), each taking the cells its family
/// spans (medium two across, large two by two, extra large four by two, inline two across, other
/// Lock Screen families one cell, drawn at their own size in its middle), each put in the first place
/// it fits, reading rows left to right, `columns` cells a row.
public struct DesktopArrangement: Equatable, Sendable {
    public static let cell = 158.0
    public static let across = 22.0
    public static let down = 38.0

    public struct Placed: Equatable, Sendable {
        public var id: String
        public var family: WidgetFamily
        /// The widget's frame in points of the surface.
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
    }

    public var placed: [Placed]
    /// The surface's size in points: what the widgets need, nothing around them.
    public var width: Double
    public var height: Double

    /// The cells a family spans, across and down.
    static func span(_ family: WidgetFamily, columns: Int) -> (across: Int, down: Int) {
        switch family {
        case .systemMedium: (min(2, columns), 1)
        case .systemLarge: (min(2, columns), 2)
        case .systemExtraLarge: (min(4, columns), 2)
        case .accessoryInline: (min(2, columns), 1)
        default: (1, 1)
        }
    }

    public init(_ widgets: [(id: String, family: WidgetFamily)], columns: Int) {
        let columns = max(1, columns)
        var taken: [[Bool]] = []
        func free(_ row: Int, _ column: Int, _ span: (across: Int, down: Int)) -> Bool {
            for r in row..<(row + span.down) {
                for c in column..<(column + span.across) where r < taken.count && taken[r][c] { return false }
            }
            return true
        }
        placed = []
        for widget in widgets {
            let span = Self.span(widget.family, columns: columns)
            var row = 0
            var spot: (row: Int, column: Int)?
            while spot == nil {
                for column in 0...(columns - span.across) where free(row, column, span) {
                    spot = (row, column)
                    break
                }
                if spot == nil { row += 1 }
            }
            let (r, c) = spot!
            while taken.count < r + span.down { taken.append([Bool](repeating: false, count: columns)) }
            for y in r..<(r + span.down) { for x in c..<(c + span.across) { taken[y][x] = true } }
            let size = widget.family.displaySize
            var x = Double(c) * (Self.cell + Self.across)
            var y = Double(r) * (Self.cell + Self.down)
            // A Lock Screen family is smaller than its cell: centred in it.
            if !WidgetFamily.systemFamilies.contains(widget.family) {
                let room = Double(span.across) * Self.cell + Double(span.across - 1) * Self.across
                x += max(0, (room - size.width) / 2)
                y += max(0, (Self.cell - size.height) / 2)
            }
            placed.append(Placed(id: widget.id, family: widget.family, x: x, y: y, width: size.width, height: size.height))
        }
        width = placed.map { $0.x + $0.width }.max() ?? 0
        height = placed.map { $0.y + $0.height }.max() ?? 0
    }

    /// The widget at a point of the surface, if any.
    public func widget(at x: Double, _ y: Double) -> Placed? {
        placed.last { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }
    }
}

/// Where the surface is put on its output: the edges it keeps to.
public enum DesktopAnchor: String, CaseIterable, Sendable {
    case topLeft = "top-left", top, topRight = "top-right", left, center, right, bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

    /// zwlr_layer_surface_v1's anchor bits (top 1, bottom 2, left 4, right 8); none is the centre.
    var bits: UInt32 {
        switch self {
        case .topLeft: 1 | 4
        case .top: 1
        case .topRight: 1 | 8
        case .left: 4
        case .center: 0
        case .right: 8
        case .bottomLeft: 2 | 4
        case .bottom: 2
        case .bottomRight: 2 | 8
        }
    }
}

/// The space kept between the surface and the output's edges, in points.
public struct DesktopMargins: Equatable, Sendable {
    public var top: Int
    public var right: Int
    public var bottom: Int
    public var left: Int

    public init(top: Int, right: Int, bottom: Int, left: Int) {
        (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
    }

    public init(all: Int) { self.init(top: all, right: all, bottom: all, left: all) }

    /// `24`, `24,32` (top and bottom, left and right) or `8,16,24,32` (top, right, bottom, left), as CSS
    /// writes margins; nil when it is none of these.
    public init?(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingSpaces) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0! >= 0 && $0! <= 10_000 }) else { return nil }
        let values = parts.map { $0! }
        switch values.count {
        case 1: self.init(all: values[0])
        case 2: self.init(top: values[0], right: values[1], bottom: values[0], left: values[1])
        case 4: self.init(top: values[0], right: values[1], bottom: values[2], left: values[3])
        default: return nil
        }
    }

    var values: [Int32] { [Int32(top), Int32(right), Int32(bottom), Int32(left)] }
}
