public import Foundation
public import WidgetWire

// MARK: - Shape styles

/// A colour or gradient that fills a shape, a background, or the widget's container background.
///
/// On the wire a style is a colour (a name or `#rrggbb`) or a gradient object (docs/ABI.md).
public protocol ShapeStyle: Sendable {
    /// The style on the wire.
    var _paint: JSONValue { get }
}

extension Color: ShapeStyle {
    public var _paint: JSONValue { json }
}

/// `Color` fills the space it is offered, as in SwiftUI: `Color.blue` in a `ZStack` is a backdrop.
extension Color: _PrimitiveView {
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ShapeNode.node("rectangle", fill: json)] }
}

// So that `.foregroundStyle(.red)` and `.containerBackground(.blue, for: .widget)` read as on iOS.
extension ShapeStyle where Self == Color {
    public static var primary: Color { Color.primary }
    public static var secondary: Color { Color.secondary }
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

/// A point in a view's bounds, from (0, 0) at the top leading corner to (1, 1) at the bottom
/// trailing one.
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

/// Colours at locations from 0 to 1, for a gradient.
public struct Gradient: Equatable, Sendable {
    public struct Stop: Equatable, Sendable {
        public var color: Color
        public var location: CGFloat
        public init(color: Color, location: CGFloat) {
            self.color = color
            self.location = location
        }
    }

    public var stops: [Stop]

    public init(stops: [Stop]) { self.stops = stops }

    /// Colours spread evenly from 0 to 1.
    public init(colors: [Color]) {
        let last = max(1, colors.count - 1)
        stops = colors.enumerated().map { Stop(color: $0.element, location: CGFloat($0.offset) / CGFloat(last)) }
    }
}

/// A colour gradient along a line from `startPoint` to `endPoint`. As a view it fills the space it
/// is offered; as a style it fills a shape, a background, text or the container background.
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
        let stops = gradient.stops.map { stop in
            JSONValue.object(JSONObject([("color", stop.color.json), ("location", .number(Double(stop.location)))]))
        }
        return .object(
            JSONObject([
                ("linearGradient", .object(JSONObject([("stops", .array(stops)), ("startPoint", startPoint.json), ("endPoint", endPoint.json)])))
            ]))
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ShapeNode.node("rectangle", fill: _paint)] }
}

extension ShapeStyle where Self == LinearGradient {
    public static func linearGradient(_ gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(gradient: gradient, startPoint: startPoint, endPoint: endPoint)
    }

    public static func linearGradient(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(colors: colors, startPoint: startPoint, endPoint: endPoint)
    }
}

// MARK: - Shapes

/// A shape: it takes the space it is offered and, as a view, is filled with the foreground style
/// (`.fill(_:)` chooses another). The terminal draws shapes as filled cells; SVG draws their outline.
public protocol Shape: _PrimitiveView {
    /// The shape on the wire: its name and attributes.
    var _shape: JSONObject { get }
}

extension Shape {
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ViewNode("shape", attributes: _shape)] }

    /// The shape filled with a colour or gradient.
    public func fill<S: ShapeStyle>(_ content: S) -> _ShapeView<Self> { _ShapeView(shape: self, fill: content._paint) }
}

/// A shape filled with a style.
public struct _ShapeView<Content: Shape>: _PrimitiveView {
    let shape: Content
    let fill: JSONValue

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        var attributes = shape._shape
        attributes["fill"] = fill
        return [ViewNode("shape", attributes: attributes)]
    }
}

enum ShapeNode {
    static func node(_ shape: String, fill: JSONValue) -> ViewNode {
        ViewNode("shape", attributes: JSONObject([("shape", .string(shape)), ("fill", fill)]))
    }
}

/// The shape of the widget's container, inset to where the view is: its corners stay concentric
/// with the widget's own rounded corners (a circle in `accessoryCircular`).
public struct ContainerRelativeShape: Shape {
    let inset: CGFloat
    public init() { inset = 0 }
    init(inset: CGFloat) { self.inset = inset }

    /// The shape drawn `amount` points inside the view's bounds.
    public func inset(by amount: CGFloat) -> ContainerRelativeShape { ContainerRelativeShape(inset: inset + amount) }

    public var _shape: JSONObject {
        var attributes = JSONObject([("shape", .string("containerRelative"))])
        if inset != 0 { attributes["inset"] = .number(Double(inset)) }
        return attributes
    }
}

/// A rectangle filling the view's bounds.
public struct Rectangle: Shape {
    public init() {}
    public var _shape: JSONObject { JSONObject([("shape", .string("rectangle"))]) }
}

/// A rectangle with rounded corners.
public struct RoundedRectangle: Shape {
    public var cornerRadius: CGFloat
    public init(cornerRadius: CGFloat) { self.cornerRadius = cornerRadius }
    public var _shape: JSONObject {
        JSONObject([("shape", .string("roundedRectangle")), ("cornerRadius", .number(Double(cornerRadius)))])
    }
}

/// A circle centred in the view's bounds, as wide as their shorter side.
public struct Circle: Shape {
    public init() {}
    public var _shape: JSONObject { JSONObject([("shape", .string("circle"))]) }
}

/// A rectangle whose shorter sides are half circles.
public struct Capsule: Shape {
    public init() {}
    public var _shape: JSONObject { JSONObject([("shape", .string("capsule"))]) }
}

// MARK: - ViewThatFits

/// The horizontal and vertical axes.
public enum Axis: Int8, CaseIterable, Hashable, Sendable {
    case horizontal
    case vertical

    public struct Set: OptionSet, Hashable, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1 << 0)
        public static let vertical = Set(rawValue: 1 << 1)
    }
}

/// Shows the first of its child views whose ideal size fits the space offered along `axes`, or the
/// last one when none fits: a long form for a medium widget, a short one for a small.
public struct ViewThatFits<Content: View>: _PrimitiveView {
    let axes: Axis.Set
    let content: Content

    public init(in axes: Axis.Set = [.horizontal, .vertical], @ViewBuilder content: () -> Content) {
        self.axes = axes
        self.content = content()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        var names: [JSONValue] = []
        if axes.contains(.horizontal) { names.append(.string("horizontal")) }
        if axes.contains(.vertical) { names.append(.string("vertical")) }
        return [ViewNode("viewThatFits", attributes: JSONObject([("axes", .array(names))]), children: content._resolve(in: environment))]
    }
}

// MARK: - Backgrounds

extension View {
    /// Draws a view behind this one, sized to this view and aligned in it.
    public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> _BackgroundView<Self, V> {
        _BackgroundView(content: self, background: content(), alignment: alignment)
    }
}

/// A view with another drawn behind it, the size of the first.
public struct _BackgroundView<Content: View, Background: View>: _PrimitiveView {
    let content: Content
    let background: Background
    let alignment: Alignment

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        var attributes = JSONObject()
        if alignment != .center { attributes["alignment"] = .string(alignment.name) }
        // Several views behind are layered, as in SwiftUI's implicit ZStack, by the alignment.
        let layers = background._resolve(in: environment)
        let behind = layers.count == 1 ? layers[0] : ViewNode("zstack", attributes: attributes, children: layers)
        let front = ViewResolver.root(of: content, in: environment)
        return [ViewNode("background", attributes: attributes, children: [front, behind])]
    }
}
