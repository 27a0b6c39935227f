import WidgetWire

/// What fills a shape, a background or text: a colour (a name such as `red` or `secondary`, or
/// `#rrggbb`) or a linear gradient. Views send it as a colour string or a gradient object.
public enum Paint: Equatable, Sendable {
    case color(String)
    case linearGradient(LinearGradientPaint)

    /// The paint a view sent, or nil for a value that is neither a colour nor a well-formed gradient.
    public init?(_ json: JSONValue) {
        if let color = json.stringValue {
            self = .color(color)
            return
        }
        guard let gradient = json["linearGradient"], let stops = gradient["stops"]?.arrayValue else { return nil }
        func point(_ name: String) -> (Double, Double)? {
            guard let pair = gradient[name]?.arrayValue?.compactMap(\.numberValue), pair.count == 2, pair.allSatisfy(\.isFinite) else {
                return nil
            }
            // Far outside the bounds means nothing more than far: kept where arithmetic stays finite.
            return (min(1e6, max(-1e6, pair[0])), min(1e6, max(-1e6, pair[1])))
        }
        let parsed = stops.compactMap { stop -> LinearGradientPaint.Stop? in
            guard let color = stop["color"]?.stringValue, let location = stop["location"]?.numberValue, location.isFinite else { return nil }
            return LinearGradientPaint.Stop(color: color, location: min(1, max(0, location)))
        }
        guard !parsed.isEmpty, parsed.count == stops.count, let start = point("startPoint"), let end = point("endPoint") else { return nil }
        self = .linearGradient(
            LinearGradientPaint(stops: parsed.sorted { $0.location < $1.location }, startX: start.0, startY: start.1, endX: end.0, endY: end.1))
    }

    /// One colour for where a single colour must do (a gradient's middle), as RGB.
    public func rgb(_ appearance: TerminalRenderer.Appearance) -> (Int, Int, Int) {
        switch self {
        case .color(let name): SystemColors.rgb(name, appearance)
        case .linearGradient(let gradient): gradient.rgb(at: 0.5, appearance)
        }
    }

    /// The colour at a point of the painted bounds, in unit coordinates ((0, 0) top leading).
    public func rgb(x: Double, y: Double, _ appearance: TerminalRenderer.Appearance) -> (Int, Int, Int) {
        switch self {
        case .color(let name): SystemColors.rgb(name, appearance)
        case .linearGradient(let gradient): gradient.rgb(at: gradient.position(x: x, y: y), appearance)
        }
    }

    /// Whether nothing is painted: the clear colour.
    public var isClear: Bool { self == .color("clear") }
}

/// A gradient along the line from its start point to its end point, in unit coordinates of the
/// bounds it fills; colours blend between stops, and hold their value beyond the first and last.
public struct LinearGradientPaint: Equatable, Sendable {
    public struct Stop: Equatable, Sendable {
        public var color: String
        public var location: Double
    }

    public var stops: [Stop]
    public var startX: Double
    public var startY: Double
    public var endX: Double
    public var endY: Double

    /// Where a point falls along the gradient line, 0 at the start point and 1 at the end point: the
    /// projection of the point onto the line, as the colour bands run across it.
    public func position(x: Double, y: Double) -> Double {
        let dx = endX - startX
        let dy = endY - startY
        let length = dx * dx + dy * dy
        guard length > 0 else { return 0 }
        return ((x - startX) * dx + (y - startY) * dy) / length
    }

    public func rgb(at position: Double, _ appearance: TerminalRenderer.Appearance) -> (Int, Int, Int) {
        guard let first = stops.first, let last = stops.last else { return SystemColors.rgb("primary", appearance) }
        let position = position.isFinite ? position : 0
        if stops.count == 1 || position <= first.location { return SystemColors.rgb(first.color, appearance) }
        if position >= last.location { return SystemColors.rgb(last.color, appearance) }
        let upper = stops.firstIndex { $0.location >= position } ?? stops.count - 1
        let (low, high) = (stops[upper - 1], stops[upper])
        let span = high.location - low.location
        let t = span > 0 ? (position - low.location) / span : 1
        let (a, b) = (SystemColors.rgb(low.color, appearance), SystemColors.rgb(high.color, appearance))
        func mix(_ from: Int, _ to: Int) -> Int { Int((Double(from) + (Double(to) - Double(from)) * t).rounded()) }
        return (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }
}

/// The outline a shape view fills.
public enum ShapeKind: Equatable, Sendable {
    case rectangle
    case roundedRectangle(cornerRadius: Double)
    case circle
    case capsule
    /// The widget's own outline, inset to the shape's bounds (its corners concentric with the
    /// widget's).
    case containerRelative

    init(_ view: ViewNode) {
        switch view["shape"]?.stringValue {
        case "roundedRectangle": self = .roundedRectangle(cornerRadius: max(0, view["cornerRadius"]?.numberValue ?? 0))
        case "circle": self = .circle
        case "capsule": self = .capsule
        case "containerRelative": self = .containerRelative
        default: self = .rectangle
        }
    }
}
