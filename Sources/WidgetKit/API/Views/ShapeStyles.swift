public import Foundation
public import WidgetWire

/// A colour or gradient that fills a shape, a background, text, or the widget's container background.
///
/// On the wire a style is a colour (see `Color`) or a gradient object (docs/ABI.md).
public protocol ShapeStyle: Sendable {
    /// The style on the wire.
    var _paint: JSONValue { get }
}

/// Any style, its type erased: for a property or a function returning one of several styles.
public struct AnyShapeStyle: ShapeStyle {
    public let _paint: JSONValue
    public init<S: ShapeStyle>(_ style: S) { _paint = style._paint }
}

extension ShapeStyle {
    /// The style at an opacity from 0 (clear) to 1.
    public func opacity(_ opacity: Double) -> _OpacityShapeStyle { _OpacityShapeStyle(paint: _paint, opacity: opacity) }
}

extension Color: ShapeStyle {
    public var _paint: JSONValue { json }
}

/// A style at an opacity: a colour's opacity, or a gradient whose every stop has it.
public struct _OpacityShapeStyle: ShapeStyle {
    let paint: JSONValue
    let opacity: Double

    public var _paint: JSONValue { Self.apply(opacity, to: paint) }

    static func apply(_ opacity: Double, to paint: JSONValue) -> JSONValue {
        switch paint {
        case .string(let name): return Color(name: name).opacity(opacity).json
        case .object(var object):
            for key in ["linearGradient", "radialGradient"] {
                guard var gradient = object[key]?.objectValue, let stops = gradient["stops"]?.arrayValue else { continue }
                gradient["stops"] = .array(
                    stops.map { stop in
                        guard var stop = stop.objectValue else { return stop }
                        stop["color"] = stop["color"].map { apply(opacity, to: $0) }
                        return .object(stop)
                    })
                object[key] = .object(gradient)
            }
            return .object(object)
        default: return paint
        }
    }
}

/// The levels of foreground content: primary, secondary (dimmer), tertiary, quaternary, quinary.
public struct HierarchicalShapeStyle: ShapeStyle {
    let name: String
    public var _paint: JSONValue { .string(name) }
    public static let primary = HierarchicalShapeStyle(name: "primary")
    public static let secondary = HierarchicalShapeStyle(name: "secondary")
    public static let tertiary = HierarchicalShapeStyle(name: "tertiary")
    public static let quaternary = HierarchicalShapeStyle(name: "quaternary")
    public static let quinary = HierarchicalShapeStyle(name: "quinary")
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var primary: HierarchicalShapeStyle { .primary }
    public static var secondary: HierarchicalShapeStyle { .secondary }
    public static var tertiary: HierarchicalShapeStyle { .tertiary }
    public static var quaternary: HierarchicalShapeStyle { .quaternary }
    public static var quinary: HierarchicalShapeStyle { .quinary }
}

/// A named system style: the background, the foreground, the tint, separators.
public struct _SystemShapeStyle: ShapeStyle {
    let name: String
    public var _paint: JSONValue { .string(name) }

    /// The style's levels (`.fill.tertiary`, `.background.secondary`): each dimmer than the last.
    public var secondary: _OpacityShapeStyle { opacity(0.6) }
    public var tertiary: _OpacityShapeStyle { opacity(0.4) }
    public var quaternary: _OpacityShapeStyle { opacity(0.25) }
    public var quinary: _OpacityShapeStyle { opacity(0.15) }
}

public typealias BackgroundStyle = _SystemShapeStyle
public typealias ForegroundStyle = _SystemShapeStyle
public typealias TintShapeStyle = _SystemShapeStyle
public typealias SeparatorShapeStyle = _SystemShapeStyle
public typealias FillShapeStyle = _SystemShapeStyle

extension ShapeStyle where Self == _SystemShapeStyle {
    /// The system's background colour (white, or black in dark mode).
    public static var background: _SystemShapeStyle { _SystemShapeStyle(name: "background") }
    public static var foreground: _SystemShapeStyle { _SystemShapeStyle(name: "primary") }
    public static var tint: _SystemShapeStyle { _SystemShapeStyle(name: "accent") }
    public static var separator: _SystemShapeStyle { _SystemShapeStyle(name: "separator") }
    /// The fill for shapes in front of the background: a translucent grey.
    public static var fill: _SystemShapeStyle { _SystemShapeStyle(name: "gray/0.2") }
}

/// A translucent blur of what is behind; drawn as a translucent grey.
public struct Material: ShapeStyle {
    let opacity: Double
    public var _paint: JSONValue { .string("gray/\(opacity)") }
    public static let ultraThin = Material(opacity: 0.15)
    public static let thin = Material(opacity: 0.25)
    public static let regular = Material(opacity: 0.35)
    public static let thick = Material(opacity: 0.5)
    public static let ultraThick = Material(opacity: 0.65)
    public static let bar = Material(opacity: 0.35)
}

extension ShapeStyle where Self == Material {
    public static var ultraThinMaterial: Material { .ultraThin }
    public static var thinMaterial: Material { .thin }
    public static var regularMaterial: Material { .regular }
    public static var thickMaterial: Material { .thick }
    public static var ultraThickMaterial: Material { .ultraThick }
    public static var bar: Material { .bar }
}

extension ShapeStyle where Self == Color {
    public static var accentColor: Color { Color.accentColor }
    public static var black: Color { Color.black }
    public static var white: Color { Color.white }
    public static var gray: Color { Color.gray }
    public static var red: Color { Color.red }
    public static var orange: Color { Color.orange }
    public static var yellow: Color { Color.yellow }
    public static var green: Color { Color.green }
    public static var mint: Color { Color.mint }
    public static var teal: Color { Color.teal }
    public static var cyan: Color { Color.cyan }
    public static var blue: Color { Color.blue }
    public static var indigo: Color { Color.indigo }
    public static var purple: Color { Color.purple }
    public static var pink: Color { Color.pink }
    public static var brown: Color { Color.brown }
    public static var clear: Color { Color.clear }
}

/// A point in a view's bounds, in unit coordinates: (0, 0) top leading, (1, 1) bottom trailing.
public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat

    public init() { self.init(x: 0, y: 0) }
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }

    public static let zero = UnitPoint(x: 0, y: 0)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)

    var json: JSONValue { .array([.number(Double(x)), .number(Double(y))]) }
}

/// Colours, each at a location from 0 to 1 along a gradient.
public struct Gradient: Hashable, Sendable {
    /// The space colours are mixed in (`Color.mix(with:by:in:)`); mixed in sRGB here.
    public enum ColorSpace: Hashable, Sendable { case device, perceptual }

    public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: CGFloat
        public init(color: Color, location: CGFloat) {
            self.color = color
            self.location = location
        }
    }

    public var stops: [Stop]

    public init(stops: [Stop]) { self.stops = stops }

    /// Colours evenly spaced from 0 to 1.
    public init(colors: [Color]) {
        let last = max(1, colors.count - 1)
        stops = colors.enumerated().map { Stop(color: $1, location: CGFloat($0) / CGFloat(last)) }
    }

    var stopsJSON: JSONValue {
        .array(stops.map { .object(JSONObject([("color", $0.color.json), ("location", .number(Double($0.location)))])) })
    }
}

extension Gradient: ShapeStyle {
    /// A gradient as a style: top to bottom.
    public var _paint: JSONValue { LinearGradient(gradient: self, startPoint: .top, endPoint: .bottom)._paint }
}

/// A colour's gentle gradient (`Color.gradient`): a little lighter at the top.
public struct AnyGradient: ShapeStyle, Hashable {
    let base: Color
    /// Opaque, as iOS draws it: the colour lightened a quarter of the way to white at the top, itself
    /// at the bottom (WidgetExamples' `.teal.gradient`: (95, 202, 222) to #30b0c7 on iOS); a colour
    /// too light to lighten is itself at the top and a tenth of the way to black at the bottom
    /// (`.white.gradient`: #ffffff to about #e6e6e6). A translucent colour is drawn even.
    public var _paint: JSONValue {
        guard case .string(let name) = base.json, !name.contains("/") else {
            return LinearGradient(colors: [base, base], startPoint: .top, endPoint: .bottom)._paint
        }
        let (red, green, blue, _) = base.components()
        let colors = 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.9
            ? [base, base.mix(with: .black, by: 0.1)] : [base.mix(with: .white, by: 0.25), base]
        return LinearGradient(colors: colors, startPoint: .top, endPoint: .bottom)._paint
    }
}

/// Colours blended along a line.
public struct LinearGradient: ShapeStyle, _PrimitiveView {
    public var gradient: Gradient
    public var startPoint: UnitPoint
    public var endPoint: UnitPoint

    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.gradient = gradient
        self.startPoint = startPoint
        self.endPoint = endPoint
    }

    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }

    public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }

    public var _paint: JSONValue {
        .object(
            JSONObject([
                ("linearGradient", .object(JSONObject([("stops", gradient.stopsJSON), ("startPoint", startPoint.json), ("endPoint", endPoint.json)])))
            ]))
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ShapeNode.node("rectangle", fill: _paint)] }
}

/// Colours blended outward from a centre.
public struct RadialGradient: ShapeStyle, _PrimitiveView {
    public var gradient: Gradient
    public var center: UnitPoint
    public var startRadius: CGFloat
    public var endRadius: CGFloat

    public init(gradient: Gradient, center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        self.gradient = gradient
        self.center = center
        self.startRadius = startRadius
        self.endRadius = endRadius
    }

    public init(colors: [Color], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        self.init(gradient: Gradient(colors: colors), center: center, startRadius: startRadius, endRadius: endRadius)
    }

    public init(stops: [Gradient.Stop], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        self.init(gradient: Gradient(stops: stops), center: center, startRadius: startRadius, endRadius: endRadius)
    }

    public var _paint: JSONValue {
        .object(
            JSONObject([
                (
                    "radialGradient",
                    .object(
                        JSONObject([
                            ("stops", gradient.stopsJSON), ("center", center.json), ("startRadius", .number(Double(startRadius))),
                            ("endRadius", .number(Double(endRadius))),
                        ]))
                )
            ]))
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ShapeNode.node("rectangle", fill: _paint)] }
}

/// Colours around a centre (a conic gradient); drawn as a diagonal gradient of the same colours.
public struct AngularGradient: ShapeStyle, _PrimitiveView {
    public var gradient: Gradient
    public var center: UnitPoint

    public init(gradient: Gradient, center: UnitPoint, startAngle: Angle = .zero, endAngle: Angle = .zero) {
        self.gradient = gradient
        self.center = center
    }

    public init(colors: [Color], center: UnitPoint, startAngle: Angle = .zero, endAngle: Angle = .zero) {
        self.init(gradient: Gradient(colors: colors), center: center)
    }

    public init(gradient: Gradient, center: UnitPoint, angle: Angle = .zero) {
        self.init(gradient: gradient, center: center, startAngle: angle, endAngle: angle)
    }
    public init(colors: [Color], center: UnitPoint, angle: Angle = .zero) {
        self.init(gradient: Gradient(colors: colors), center: center, startAngle: angle, endAngle: angle)
    }

    public var _paint: JSONValue { LinearGradient(gradient: gradient, startPoint: .topLeading, endPoint: .bottomTrailing)._paint }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ShapeNode.node("rectangle", fill: _paint)] }
}

/// Colours blended outward from a centre to the bounds' edges; drawn as a radial gradient.
public struct EllipticalGradient: ShapeStyle, _PrimitiveView {
    public var gradient: Gradient
    public var center: UnitPoint

    public init(gradient: Gradient, center: UnitPoint = .center, startRadiusFraction: CGFloat = 0, endRadiusFraction: CGFloat = 0.5) {
        self.gradient = gradient
        self.center = center
    }

    public init(colors: [Color], center: UnitPoint = .center, startRadiusFraction: CGFloat = 0, endRadiusFraction: CGFloat = 0.5) {
        self.init(gradient: Gradient(colors: colors), center: center)
    }

    public var _paint: JSONValue { RadialGradient(gradient: gradient, center: center, startRadius: 0, endRadius: 100)._paint }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ShapeNode.node("rectangle", fill: _paint)] }
}

extension ShapeStyle where Self == LinearGradient {
    public static func linearGradient(_ gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(gradient: gradient, startPoint: startPoint, endPoint: endPoint)
    }

    public static func linearGradient(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(colors: colors, startPoint: startPoint, endPoint: endPoint)
    }

    public static func linearGradient(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(stops: stops, startPoint: startPoint, endPoint: endPoint)
    }
}

extension ShapeStyle where Self == RadialGradient {
    public static func radialGradient(_ gradient: Gradient, center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) -> RadialGradient {
        RadialGradient(gradient: gradient, center: center, startRadius: startRadius, endRadius: endRadius)
    }

    public static func radialGradient(colors: [Color], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) -> RadialGradient {
        RadialGradient(colors: colors, center: center, startRadius: startRadius, endRadius: endRadius)
    }
}

extension ShapeStyle where Self == AngularGradient {
    public static func angularGradient(_ gradient: Gradient, center: UnitPoint, startAngle: Angle, endAngle: Angle) -> AngularGradient {
        AngularGradient(gradient: gradient, center: center, startAngle: startAngle, endAngle: endAngle)
    }

    public static func angularGradient(colors: [Color], center: UnitPoint, startAngle: Angle, endAngle: Angle) -> AngularGradient {
        AngularGradient(colors: colors, center: center, startAngle: startAngle, endAngle: endAngle)
    }

    public static func conicGradient(_ gradient: Gradient, center: UnitPoint, angle: Angle = .zero) -> AngularGradient {
        AngularGradient(gradient: gradient, center: center, angle: angle)
    }
}

/// An angle, in degrees or radians.
public struct Angle: Hashable, Comparable, Sendable {
    public var radians: Double
    public var degrees: Double {
        get { radians * 180 / .pi }
        set { radians = newValue * .pi / 180 }
    }

    public init() { radians = 0 }
    public init(radians: Double) { self.radians = radians }
    public init(degrees: Double) { radians = degrees * .pi / 180 }
    public static func radians(_ radians: Double) -> Angle { Angle(radians: radians) }
    public static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
    public static let zero = Angle()
    public static func < (lhs: Angle, rhs: Angle) -> Bool { lhs.radians < rhs.radians }
}
