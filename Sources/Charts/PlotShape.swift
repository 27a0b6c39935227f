import Foundation

/// A chart's figure in a unit square (y up), drawn in whatever rectangle the plot is given.
struct PlotShape: Shape {
    enum Figure {
        case line([CGPoint], InterpolationMethod)
        case area(top: [CGPoint], bottom: [CGPoint], InterpolationMethod)
        case rects([CGRect], cornerRadius: Double)
        case dots([CGPoint], radius: Double)
        case segments([(CGPoint, CGPoint)])
        case sectors([(start: Double, end: Double)], inner: Double)
    }

    let figure: Figure

    func path(in rect: CGRect) -> Path {
        func place(_ point: CGPoint) -> CGPoint { CGPoint(x: rect.minX + point.x * rect.width, y: rect.minY + (1 - point.y) * rect.height) }
        var path = Path()
        switch figure {
        case .line(let points, let method):
            Self.trace(points.map(place), method, into: &path, moving: true)
        case .area(let top, let bottom, let method):
            guard !top.isEmpty else { break }
            Self.trace(top.map(place), method, into: &path, moving: true)
            Self.trace(bottom.reversed().map(place), method, into: &path, moving: false)
            path.closeSubpath()
        case .rects(let rects, let radius):
            for unit in rects {
                let a = place(CGPoint(x: unit.minX, y: unit.maxY))
                let b = place(CGPoint(x: unit.maxX, y: unit.minY))
                let box = CGRect(x: a.x, y: a.y, width: max(0, b.x - a.x), height: max(0, b.y - a.y))
                if radius > 0 {
                    let corner = min(CGFloat(radius), box.width / 2, box.height / 2)
                    path.addRoundedRect(in: box, cornerSize: CGSize(width: corner, height: corner), style: .continuous)
                } else {
                    path.addRect(box)
                }
            }
        case .dots(let points, let radius):
            for point in points.map(place) {
                path.addEllipse(in: CGRect(x: point.x - radius, y: point.y - radius, width: 2 * radius, height: 2 * radius))
            }
        case .segments(let segments):
            for (start, end) in segments {
                path.move(to: place(start))
                path.addLine(to: place(end))
            }
        case .sectors(let sectors, let inner):
            let centre = CGPoint(x: rect.midX, y: rect.midY)
            let outer = min(rect.width, rect.height) / 2
            for sector in sectors {
                let start = Angle.degrees(sector.start * 360 - 90)
                let end = Angle.degrees(sector.end * 360 - 90)
                path.addArc(center: centre, radius: outer, startAngle: start, endAngle: end, clockwise: false)
                if inner > 0 {
                    path.addArc(center: centre, radius: outer * inner, startAngle: end, endAngle: start, clockwise: true)
                } else {
                    path.addLine(to: centre)
                }
                path.closeSubpath()
            }
        }
        return path
    }

    /// `points` joined as `method` joins them: straight, in steps, or by a curve through each
    /// (Catmull-Rom; monotone keeps each piece within its two points' heights).
    static func trace(_ points: [CGPoint], _ method: InterpolationMethod, into path: inout Path, moving: Bool) {
        guard let first = points.first else { return }
        if moving { path.move(to: first) } else { path.addLine(to: first) }
        guard points.count > 1 else { return }
        switch method {
        case .stepStart, .stepEnd, .stepCenter:
            for index in 1..<points.count {
                let (previous, point) = (points[index - 1], points[index])
                switch method {
                case .stepStart:
                    path.addLine(to: CGPoint(x: previous.x, y: point.y))
                case .stepEnd:
                    path.addLine(to: CGPoint(x: point.x, y: previous.y))
                default:
                    let middle = (previous.x + point.x) / 2
                    path.addLine(to: CGPoint(x: middle, y: previous.y))
                    path.addLine(to: CGPoint(x: middle, y: point.y))
                }
                path.addLine(to: point)
            }
        case .catmullRom, .cardinal, .monotone:
            for index in 0..<(points.count - 1) {
                let p0 = points[max(0, index - 1)]
                let p1 = points[index]
                let p2 = points[index + 1]
                let p3 = points[min(points.count - 1, index + 2)]
                var c1 = CGPoint(x: p1.x + (p2.x - p0.x) / 6, y: p1.y + (p2.y - p0.y) / 6)
                var c2 = CGPoint(x: p2.x - (p3.x - p1.x) / 6, y: p2.y - (p3.y - p1.y) / 6)
                if method == .monotone {
                    let (low, high) = (min(p1.y, p2.y), max(p1.y, p2.y))
                    c1.y = min(max(c1.y, low), high)
                    c2.y = min(max(c2.y, low), high)
                }
                path.addCurve(to: p2, control1: c1, control2: c2)
            }
        default:
            for point in points.dropFirst() { path.addLine(to: point) }
        }
    }
}
