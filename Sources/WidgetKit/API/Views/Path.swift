public import Foundation
public import WidgetWire

/// An outline of lines and curves, as SwiftUI's: drawn as a view (`Path { p in … }.stroke(.red)`,
/// in the view's own points), and what a custom `Shape`'s `path(in:)` returns.
///
/// On the wire a path is its elements: `["M", x, y]`, `["L", x, y]`, `["Q", cx, cy, x, y]`,
/// `["C", c1x, c1y, c2x, c2y, x, y]` and `["Z"]`; arcs, ellipses and rounded corners are sent as
/// cubic curves.
public struct Path: Shape, Equatable, Sendable {
    enum Element: Equatable, Sendable {
        case move(CGPoint)
        case line(CGPoint)
        case quadCurve(CGPoint, control: CGPoint)
        case curve(CGPoint, control1: CGPoint, control2: CGPoint)
        case closeSubpath
    }

    var elements: [Element] = []

    public init() {}

    public init(_ callback: (inout Path) -> Void) {
        var path = Path()
        callback(&path)
        self = path
    }

    public init(_ rect: CGRect) { addRect(rect) }

    public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        addRoundedRect(in: rect, cornerSize: CGSize(width: cornerRadius, height: cornerRadius), style: style)
    }

    public init(roundedRect rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        addRoundedRect(in: rect, cornerSize: cornerSize, style: style)
    }

    public init(ellipseIn rect: CGRect) { addEllipse(in: rect) }

    public var isEmpty: Bool { elements.isEmpty }

    /// Where the next element starts: the last point, or the start of the subpath just closed. Read
    /// from the end (every element added asks it; from the start, a path would cost its square).
    public var currentPoint: CGPoint? {
        switch elements.last {
        case nil: return nil
        case .move(let point), .line(let point), .quadCurve(let point, _), .curve(let point, _, _): return point
        case .closeSubpath:
            for case .move(let start) in elements.reversed() { return start }
            return nil
        }
    }

    /// The smallest rectangle holding every point of the path, control points included.
    public var boundingRect: CGRect {
        var points: [CGPoint] = []
        for element in elements {
            switch element {
            case .move(let point), .line(let point): points.append(point)
            case .quadCurve(let point, let control): points += [point, control]
            case .curve(let point, let control1, let control2): points += [point, control1, control2]
            case .closeSubpath: break
            }
        }
        guard let first = points.first else { return .null }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points.dropFirst() {
            (minX, minY, maxX, maxY) = (min(minX, point.x), min(minY, point.y), max(maxX, point.x), max(maxY, point.y))
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    public mutating func move(to end: CGPoint) { elements.append(.move(end)) }

    public mutating func addLine(to end: CGPoint) {
        if currentPoint == nil { move(to: end) } else { elements.append(.line(end)) }
    }

    public mutating func addLines(_ lines: [CGPoint]) {
        guard let first = lines.first else { return }
        move(to: first)
        for point in lines.dropFirst() { addLine(to: point) }
    }

    public mutating func addQuadCurve(to end: CGPoint, control: CGPoint) {
        if currentPoint == nil { move(to: control) }
        elements.append(.quadCurve(end, control: control))
    }

    public mutating func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        if currentPoint == nil { move(to: control1) }
        elements.append(.curve(end, control1: control1, control2: control2))
    }

    public mutating func closeSubpath() {
        if currentPoint != nil { elements.append(.closeSubpath) }
    }

    public mutating func addRect(_ rect: CGRect) {
        let rect = rect.standardized
        move(to: CGPoint(x: rect.minX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        closeSubpath()
    }

    public mutating func addRects(_ rects: [CGRect]) { rects.forEach { addRect($0) } }

    public mutating func addRoundedRect(in rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        let rect = rect.standardized
        let rx = min(max(0, cornerSize.width), rect.width / 2)
        let ry = min(max(0, cornerSize.height), rect.height / 2)
        guard rx > 0, ry > 0 else { return addRect(rect) }
        let k = 0.5522847498  // a quarter circle's control points, as a fraction of its radius
        move(to: CGPoint(x: rect.minX + rx, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX - rx, y: rect.minY))
        addCurve(
            to: CGPoint(x: rect.maxX, y: rect.minY + ry), control1: CGPoint(x: rect.maxX - rx + rx * k, y: rect.minY),
            control2: CGPoint(x: rect.maxX, y: rect.minY + ry - ry * k))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY - ry))
        addCurve(
            to: CGPoint(x: rect.maxX - rx, y: rect.maxY), control1: CGPoint(x: rect.maxX, y: rect.maxY - ry + ry * k),
            control2: CGPoint(x: rect.maxX - rx + rx * k, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX + rx, y: rect.maxY))
        addCurve(
            to: CGPoint(x: rect.minX, y: rect.maxY - ry), control1: CGPoint(x: rect.minX + rx - rx * k, y: rect.maxY),
            control2: CGPoint(x: rect.minX, y: rect.maxY - ry + ry * k))
        addLine(to: CGPoint(x: rect.minX, y: rect.minY + ry))
        addCurve(
            to: CGPoint(x: rect.minX + rx, y: rect.minY), control1: CGPoint(x: rect.minX, y: rect.minY + ry - ry * k),
            control2: CGPoint(x: rect.minX + rx - rx * k, y: rect.minY))
        closeSubpath()
    }

    public mutating func addEllipse(in rect: CGRect) {
        let rect = rect.standardized
        let center = CGPoint(x: rect.midX, y: rect.midY)
        addArc(center: center, radii: (rect.width / 2, rect.height / 2), from: 0, to: 2 * .pi, clockwise: false, moving: true)
        closeSubpath()
    }

    /// An arc of a circle, from the angle `startAngle` to `endAngle`; as SwiftUI's, `clockwise` in
    /// the flipped coordinates of a view (y down) means counterclockwise on screen. A line joins the
    /// current point to the arc's start.
    public mutating func addArc(center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle, clockwise: Bool, transform: CGAffineTransform = .identity) {
        var arc = Path()
        if let current = currentPoint { arc.move(to: current) }
        arc.addArc(center: center, radii: (radius, radius), from: startAngle.radians, to: endAngle.radians, clockwise: clockwise, moving: false)
        elements += arc.applying(transform).elements.dropFirst(currentPoint == nil ? 0 : 1)
    }

    /// An arc from the current point's angle by `delta`.
    public mutating func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: Angle, delta: Angle, transform: CGAffineTransform = .identity) {
        addArc(center: center, radius: radius, startAngle: startAngle, endAngle: .radians(startAngle.radians + delta.radians), clockwise: delta.radians < 0, transform: transform)
    }

    public mutating func addPath(_ path: Path, transform: CGAffineTransform = .identity) { elements += path.applying(transform).elements }

    /// The path with every point transformed.
    public func applying(_ transform: CGAffineTransform) -> Path {
        guard !transform.isIdentity else { return self }
        var path = Path()
        path.elements = elements.map { element in
            switch element {
            case .move(let point): .move(point.applying(transform))
            case .line(let point): .line(point.applying(transform))
            case .quadCurve(let point, let control): .quadCurve(point.applying(transform), control: control.applying(transform))
            case .curve(let point, let control1, let control2):
                .curve(point.applying(transform), control1: control1.applying(transform), control2: control2.applying(transform))
            case .closeSubpath: .closeSubpath
            }
        }
        return path
    }

    /// The path moved by `x` and `y`.
    public func offsetBy(dx: CGFloat, dy: CGFloat) -> Path { applying(CGAffineTransform(translationX: dx, y: dy)) }

    /// The arc as cubic curves, a quarter turn at most each.
    private mutating func addArc(center: CGPoint, radii: (CGFloat, CGFloat), from start: Double, to end: Double, clockwise: Bool, moving: Bool) {
        // Angles grow towards +y (down): SwiftUI's `clockwise: false` sweeps with increasing angle.
        guard start.isFinite, end.isFinite, radii.0.isFinite, radii.1.isFinite else { return }
        var sweep = (end - start).truncatingRemainder(dividingBy: 2 * .pi)
        if clockwise, sweep > 0 { sweep -= 2 * .pi }
        if !clockwise, sweep < 0 { sweep += 2 * .pi }
        if abs(end - start) >= 2 * .pi { sweep = clockwise ? -2 * .pi : 2 * .pi }
        func point(_ angle: Double) -> CGPoint {
            CGPoint(x: center.x + radii.0 * cos(angle), y: center.y + radii.1 * sin(angle))
        }
        if moving || currentPoint == nil { move(to: point(start)) } else { addLine(to: point(start)) }
        let pieces = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        var angle = start
        for _ in 0..<pieces {
            let next = angle + step
            let (p0, p3) = (point(angle), point(next))
            let control1 = CGPoint(x: p0.x - k * radii.0 * sin(angle), y: p0.y + k * radii.1 * cos(angle))
            let control2 = CGPoint(x: p3.x + k * radii.0 * sin(next), y: p3.y - k * radii.1 * cos(next))
            elements.append(.curve(p3, control1: control1, control2: control2))
            angle = next
        }
    }

    /// As a view, a path is drawn where it says, in the view's own points.
    public func path(in rect: CGRect) -> Path { self }

    public var _shape: JSONObject { JSONObject([("shape", .string("path")), ("path", wire)]) }

    /// The elements on the wire.
    var wire: JSONValue {
        func numbers(_ points: [CGPoint]) -> [JSONValue] { points.flatMap { [JSONValue.number(Double($0.x)), .number(Double($0.y))] } }
        return .array(
            elements.map { element in
                switch element {
                case .move(let point): .array([.string("M")] + numbers([point]))
                case .line(let point): .array([.string("L")] + numbers([point]))
                case .quadCurve(let point, let control): .array([.string("Q")] + numbers([control, point]))
                case .curve(let point, let control1, let control2): .array([.string("C")] + numbers([control1, control2, point]))
                case .closeSubpath: .array([.string("Z")])
                }
            })
    }
}

extension Shape {
    /// A shape of the author's own, which says only its `path(in:)`: marked so, and made when the
    /// view is built (`_shape(in:)`), as a path in a rectangle the size of the widget, which the host
    /// scales to the bounds the shape is given.
    public var _shape: JSONObject { JSONObject([("shape", .string("custom"))]) }

    /// The shape's attributes for a view being built in `environment`: the SDK's shapes by name, a
    /// shape of the author's own by its path, made once, in the widget's size.
    func _shape(in environment: EnvironmentValues) -> JSONObject {
        var attributes = _shape
        guard attributes["shape"] == .string("custom") else { return attributes }
        let size = environment.widgetFamily.displaySize
        attributes["shape"] = .string("path")
        attributes["path"] = path(in: CGRect(x: 0, y: 0, width: size.width, height: size.height)).wire
        attributes["reference"] = .array([.number(size.width), .number(size.height)])
        return attributes
    }
}
