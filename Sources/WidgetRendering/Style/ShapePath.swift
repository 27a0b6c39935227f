import FoundationEssentials
import Glibc
import WidgetWire

/// The outline of a `Path`, or of a shape of the author's own: its elements in points, and the size
/// they were made for, to which they are scaled to fit the shape's bounds (a custom shape's
/// `path(in:)` is made in the widget's size); without one (a `Path` drawn as a view), they are
/// placed from the bounds' origin as they are.
public struct ShapePath: Equatable, Sendable {
    public enum Element: Equatable, Sendable {
        case move(Point)
        case line(Point)
        case quadCurve(Point, control: Point)
        case curve(Point, control1: Point, control2: Point)
        case close
    }

    public struct Point: Equatable, Sendable {
        public var x: Double
        public var y: Double
    }

    /// Subpaths as points, curves flattened, each with whether it is closed.
    typealias Polylines = [(points: [Point], closed: Bool)]

    public var elements: [Element]
    /// The width and height the elements were made for; nil for a path in the view's own points.
    public var reference: Point?

    /// The most elements drawn (the rest are left out): a chart's line of a few hundred points fits,
    /// and a bundle's path cannot make every frame of the dashboard slow (the terminal tests each
    /// cell against the flattened path).
    static let maximumElements = 2_000

    /// The path sent as a shape's attributes, `{"shape": "path", "path": [["M", x, y], …],
    /// "reference": [w, h]}`; nil when it is not one (an element of another form is left out).
    init?(attributes: JSONValue) {
        guard attributes["shape"]?.stringValue == "path", let list = attributes["path"]?.arrayValue else { return nil }
        func finite(_ values: ArraySlice<JSONValue>) -> [Double]? {
            let numbers = values.compactMap { $0.numberValue }.filter(\.isFinite)
            return numbers.count == values.count ? numbers : nil
        }
        var elements: [Element] = []
        for item in list.prefix(Self.maximumElements) {
            guard let parts = item.arrayValue, let code = parts.first?.stringValue, let n = finite(parts.dropFirst()) else { continue }
            switch (code, n.count) {
            case ("M", 2): elements.append(.move(Point(x: n[0], y: n[1])))
            case ("L", 2): elements.append(.line(Point(x: n[0], y: n[1])))
            case ("Q", 4): elements.append(.quadCurve(Point(x: n[2], y: n[3]), control: Point(x: n[0], y: n[1])))
            case ("C", 6):
                elements.append(.curve(Point(x: n[4], y: n[5]), control1: Point(x: n[0], y: n[1]), control2: Point(x: n[2], y: n[3])))
            case ("Z", 0): elements.append(.close)
            default: continue
            }
        }
        self.elements = elements
        if let size = attributes["reference"]?.arrayValue, size.count == 2, let width = size[0].numberValue, let height = size[1].numberValue,
            width > 0, height > 0, width.isFinite, height.isFinite
        {
            reference = Point(x: width, y: height)
        }
    }

    /// The elements in a box at (`x`, `y`) of `width` by `height` points.
    func placed(x: Double, y: Double, width: Double, height: Double) -> [Element] {
        let (sx, sy) = reference.map { (width / $0.x, height / $0.y) } ?? (1, 1)
        func place(_ point: Point) -> Point { Point(x: x + point.x * sx, y: y + point.y * sy) }
        return elements.map { element in
            switch element {
            case .move(let point): .move(place(point))
            case .line(let point): .line(place(point))
            case .quadCurve(let point, let control): .quadCurve(place(point), control: place(control))
            case .curve(let point, let control1, let control2): .curve(place(point), control1: place(control1), control2: place(control2))
            case .close: .close
            }
        }
    }

    /// SVG path data for the path in the box.
    func svgData(x: Double, y: Double, width: Double, height: Double, format: (Double) -> String) -> String {
        placed(x: x, y: y, width: width, height: height).map { element in
            switch element {
            case .move(let p): "M\(format(p.x)) \(format(p.y))"
            case .line(let p): "L\(format(p.x)) \(format(p.y))"
            case .quadCurve(let p, let c): "Q\(format(c.x)) \(format(c.y)) \(format(p.x)) \(format(p.y))"
            case .curve(let p, let c1, let c2): "C\(format(c1.x)) \(format(c1.y)) \(format(c2.x)) \(format(c2.y)) \(format(p.x)) \(format(p.y))"
            case .close: "Z"
            }
        }.joined(separator: " ")
    }

    /// Each subpath as points, curves flattened, and whether it is closed.
    func polylines(x: Double, y: Double, width: Double, height: Double) -> Polylines {
        var lines: Polylines = []
        var current: [Point] = []
        func finish(closed: Bool) {
            if current.count > 1 || (closed && !current.isEmpty) { lines.append((current, closed)) }
            current = []
        }
        let steps = 12
        for element in placed(x: x, y: y, width: width, height: height) {
            switch element {
            case .move(let point):
                finish(closed: false)
                current = [point]
            case .line(let point):
                current.append(point)
            case .quadCurve(let end, let control):
                let start = current.last ?? control
                if current.isEmpty { current = [start] }
                for step in 1...steps {
                    let t = Double(step) / Double(steps)
                    let u = 1 - t
                    current.append(
                        Point(x: u * u * start.x + 2 * u * t * control.x + t * t * end.x, y: u * u * start.y + 2 * u * t * control.y + t * t * end.y))
                }
            case .curve(let end, let c1, let c2):
                let start = current.last ?? c1
                if current.isEmpty { current = [start] }
                for step in 1...steps {
                    let t = Double(step) / Double(steps)
                    let u = 1 - t
                    let (a, b, c, d) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
                    current.append(Point(x: a * start.x + b * c1.x + c * c2.x + d * end.x, y: a * start.y + b * c1.y + c * c2.y + d * end.y))
                }
            case .close:
                let start = current.first
                finish(closed: true)
                if let start { current = [start] }
            }
        }
        finish(closed: false)
        return lines
    }

    /// Whether a point is inside the path, filled by the non-zero rule (every subpath closed).
    static func contains(_ lines: Polylines, _ point: Point) -> Bool {
        var winding = 0
        for line in lines where line.points.count > 2 {
            for index in line.points.indices {
                let a = line.points[index]
                let b = line.points[(index + 1) % line.points.count]
                if a.y <= point.y {
                    if b.y > point.y, (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y) > 0 { winding += 1 }
                } else if b.y <= point.y, (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y) < 0 {
                    winding -= 1
                }
            }
        }
        return winding != 0
    }

    /// The segments of the outline, the part from `trim.lowerBound` to `trim.upperBound` of its
    /// length kept.
    static func segments(_ lines: Polylines, trim: ClosedRange<Double>) -> [(Point, Point)] {
        var all: [(Point, Point)] = []
        for line in lines {
            let points = line.closed ? line.points + [line.points[0]] : line.points
            for index in points.indices.dropLast() { all.append((points[index], points[index + 1])) }
        }
        guard trim != 0...1 else { return all }
        let lengths = all.map { hypot($0.1.x - $0.0.x, $0.1.y - $0.0.y) }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return [] }
        let (from, to) = (trim.lowerBound * total, trim.upperBound * total)
        var kept: [(Point, Point)] = []
        var start = 0.0
        for (segment, length) in zip(all, lengths) {
            defer { start += length }
            let (a, b) = (max(from, start), min(to, start + length))
            guard b > a, length > 0 else { continue }
            func at(_ distance: Double) -> Point {
                let t = (distance - start) / length
                return Point(x: segment.0.x + (segment.1.x - segment.0.x) * t, y: segment.0.y + (segment.1.y - segment.0.y) * t)
            }
            kept.append((at(a), at(b)))
        }
        return kept
    }

    /// Whether a segment passes through a box (`minX`…`maxX`, `minY`…`maxY`).
    static func crosses(_ segment: (Point, Point), minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        // The part of the segment inside the box's slabs, clipped in turn (Liang–Barsky).
        var (t0, t1) = (0.0, 1.0)
        let (dx, dy) = (segment.1.x - segment.0.x, segment.1.y - segment.0.y)
        for (p, q) in [(-dx, segment.0.x - minX), (dx, maxX - segment.0.x), (-dy, segment.0.y - minY), (dy, maxY - segment.0.y)] {
            if p == 0 {
                if q < 0 { return false }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                if t0 > t1 { return false }
            }
        }
        return true
    }
}
