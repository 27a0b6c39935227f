import WidgetWire

/// What fills a shape, a background or text: a colour (a name such as `red` or `secondary`, or
/// `#rrggbb`, either with `/opacity`), a linear gradient or a radial one. Views send it as a colour
/// string or a gradient object.
public enum Paint: Equatable, Sendable {
    case color(String)
    case linearGradient(LinearGradientPaint)
    case radialGradient(RadialGradientPaint)

    /// The paint a view sent, or nil for a value that is neither a colour nor a well-formed gradient.
    public init?(_ json: JSONValue) {
        if let color = json.stringValue {
            self = .color(color)
            return
        }
        if let gradient = json["radialGradient"] {
            guard let stops = Self.stops(gradient), let center = Self.point(gradient, "center") else { return nil }
            func radius(_ name: String) -> Double? {
                gradient[name]?.numberValue.flatMap { $0.isFinite ? min(1e6, max(0, $0)) : nil }
            }
            guard let start = radius("startRadius"), let end = radius("endRadius") else { return nil }
            self = .radialGradient(RadialGradientPaint(stops: stops, centerX: center.0, centerY: center.1, startRadius: start, endRadius: end))
            return
        }
        guard let gradient = json["linearGradient"], let stops = Self.stops(gradient),
            let start = Self.point(gradient, "startPoint"), let end = Self.point(gradient, "endPoint")
        else { return nil }
        self = .linearGradient(LinearGradientPaint(stops: stops, startX: start.0, startY: start.1, endX: end.0, endY: end.1))
    }

    /// A gradient's stops, in order; nil unless every stop is well formed and there is one.
    private static func stops(_ gradient: JSONValue) -> [GradientStop]? {
        guard let stops = gradient["stops"]?.arrayValue else { return nil }
        let parsed = stops.compactMap { stop -> GradientStop? in
            guard let color = stop["color"]?.stringValue, let location = stop["location"]?.numberValue, location.isFinite else { return nil }
            return GradientStop(color: color, location: min(1, max(0, location)))
        }
        guard !parsed.isEmpty, parsed.count == stops.count else { return nil }
        return parsed.sorted { $0.location < $1.location }
    }

    private static func point(_ gradient: JSONValue, _ name: String) -> (Double, Double)? {
        guard let pair = gradient[name]?.arrayValue?.compactMap(\.numberValue), pair.count == 2, pair.allSatisfy(\.isFinite) else {
            return nil
        }
        // Far outside the bounds means nothing more than far: kept where arithmetic stays finite.
        return (min(1e6, max(-1e6, pair[0])), min(1e6, max(-1e6, pair[1])))
    }

    /// One colour for where a single colour must do (a gradient's middle), as RGB.
    public func rgb(_ appearance: Appearance) -> (Int, Int, Int) {
        switch self {
        case .color(let name): SystemColors.rgb(name, appearance)
        case .linearGradient(let gradient): GradientStop.rgb(gradient.stops, at: 0.5, appearance)
        case .radialGradient(let gradient): GradientStop.rgb(gradient.stops, at: 0.5, appearance)
        }
    }

    /// The colour at a point of the painted bounds, in unit coordinates ((0, 0) top leading), for
    /// bounds `size` points large (a radial gradient's radii are in points).
    public func rgb(x: Double, y: Double, size: (width: Double, height: Double) = (1, 1), _ appearance: Appearance) -> (Int, Int, Int) {
        switch self {
        case .color(let name): SystemColors.rgb(name, appearance)
        case .linearGradient(let gradient): GradientStop.rgb(gradient.stops, at: gradient.position(x: x, y: y), appearance)
        case .radialGradient(let gradient):
            GradientStop.rgb(gradient.stops, at: gradient.position(x: x * size.width, y: y * size.height, size: size), appearance)
        }
    }

    /// The same paint with each of its colours changed by `change` (a rendering mode, an opacity).
    public func mapColors(_ change: (String) -> String) -> Paint {
        switch self {
        case .color(let name):
            return .color(change(name))
        case .linearGradient(var gradient):
            gradient.stops = gradient.stops.map { GradientStop(color: change($0.color), location: $0.location) }
            return .linearGradient(gradient)
        case .radialGradient(var gradient):
            gradient.stops = gradient.stops.map { GradientStop(color: change($0.color), location: $0.location) }
            return .radialGradient(gradient)
        }
    }

    /// Whether nothing is painted: the clear colour, or a colour of no opacity.
    public var isClear: Bool {
        guard case .color(let name) = self else { return false }
        return name == "clear" || SystemColors.split(name).opacity == 0
    }

    /// Whether what is under it shows through anywhere: a colour or a stop that is translucent or clear.
    public var isTranslucent: Bool {
        var translucent = false
        _ = mapColors { color in
            if color == "clear" || SystemColors.split(color).opacity < 1 { translucent = true }
            return color
        }
        return translucent
    }
}

/// A colour of a gradient and where it is, 0 to 1 along it.
public struct GradientStop: Equatable, Sendable {
    public var color: String
    public var location: Double

    /// The colour at `position` along `stops`: blended between stops, held beyond the first and last.
    static func rgb(_ stops: [GradientStop], at position: Double, _ appearance: Appearance) -> (Int, Int, Int) {
        guard let first = stops.first, let last = stops.last else { return SystemColors.rgb("primary", appearance) }
        let position = position.isFinite ? position : 0
        if stops.count == 1 || position <= first.location { return SystemColors.rgb(first.color, appearance) }
        if position >= last.location { return SystemColors.rgb(last.color, appearance) }
        let upper = stops.firstIndex { $0.location >= position } ?? stops.count - 1
        let (low, high) = (stops[upper - 1], stops[upper])
        let span = high.location - low.location
        let t = span > 0 ? (position - low.location) / span : 1
        return SystemColors.blend(SystemColors.rgb(high.color, appearance), over: SystemColors.rgb(low.color, appearance), t)
    }
}

/// Colours in rings around a centre, from `startRadius` to `endRadius` points out; held inside
/// the first and beyond the last.
public struct RadialGradientPaint: Equatable, Sendable {
    public var stops: [GradientStop]
    /// The centre, in unit coordinates of the bounds.
    public var centerX: Double
    public var centerY: Double
    public var startRadius: Double
    public var endRadius: Double

    /// Where a point (in points from the bounds' top leading corner) falls, 0 at the start radius
    /// and 1 at the end radius.
    public func position(x: Double, y: Double, size: (width: Double, height: Double)) -> Double {
        let (dx, dy) = (x - centerX * size.width, y - centerY * size.height)
        let span = endRadius - startRadius
        guard span > 0 else { return 0 }
        return ((dx * dx + dy * dy).squareRoot() - startRadius) / span
    }
}

/// A gradient along the line from its start point to its end point, in unit coordinates of the
/// bounds it fills; colours blend between stops, and hold their value beyond the first and last.
public struct LinearGradientPaint: Equatable, Sendable {
    public typealias Stop = GradientStop

    public var stops: [GradientStop]
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

    public func rgb(at position: Double, _ appearance: Appearance) -> (Int, Int, Int) {
        GradientStop.rgb(stops, at: position, appearance)
    }
}

/// The outline a shape view fills.
public enum ShapeKind: Equatable, Sendable {
    case rectangle
    /// Corners as iOS's continuous curve (SwiftUI's default), or circular arcs.
    case roundedRectangle(cornerRadius: Double, circular: Bool = false)
    case circle
    /// An ellipse filling its bounds.
    case ellipse
    case capsule
    /// The widget's own outline, inset to the shape's bounds (its corners concentric with the
    /// widget's).
    case containerRelative
    /// A `Path`, or a shape of the author's own.
    case path(ShapePath)

    init(_ view: ViewNode) {
        self.init(attributes: .object(view.attributes))
    }

    /// A shape sent as attributes: `{"shape": "roundedRectangle", "cornerRadius": 8}`.
    init(attributes: JSONValue) {
        if let path = ShapePath(attributes: attributes) {
            self = .path(path)
            return
        }
        self.init(name: attributes["shape"]?.stringValue, cornerRadius: attributes["cornerRadius"]?.numberValue)
        if case .roundedRectangle(let radius, _) = self, attributes["style"]?.stringValue == "circular" {
            self = .roundedRectangle(cornerRadius: radius, circular: true)
        }
    }

    init(name: String?, cornerRadius: Double?) {
        switch name {
        case "roundedRectangle": self = .roundedRectangle(cornerRadius: max(0, cornerRadius.flatMap { $0.isFinite ? $0 : nil } ?? 0))
        case "circle": self = .circle
        case "ellipse": self = .ellipse
        case "capsule": self = .capsule
        case "containerRelative": self = .containerRelative
        default: self = .rectangle
        }
    }
}
