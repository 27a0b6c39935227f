public import Foundation
public import WidgetWire

/// A shape: it takes the space it is offered and, as a view, is filled with the foreground style.
/// `.fill(_:)`, `.stroke(_:lineWidth:)`, `.strokeBorder(_:lineWidth:)` and `.trim(from:to:)` shape
/// it further, as in SwiftUI. On the wire a shape view is a `shape` node (docs/ABI.md).
public protocol Shape: _PrimitiveView {
    /// The shape's outline in a rectangle: what a shape of the author's own says, and what the
    /// SDK's shapes give for use in one.
    func path(in rect: CGRect) -> Path

    /// The shape on the wire: its name and attributes (the SDK's shapes by name; others by their
    /// path, `Path.swift`).
    var _shape: JSONObject { get }
}

/// A shape that can be inset (`strokeBorder` draws inside such a shape's bounds).
public protocol InsettableShape: Shape {
    associatedtype InsetShape: InsettableShape
    func inset(by amount: CGFloat) -> InsetShape
}

extension Shape {
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ViewNode("shape", attributes: _shape(in: environment))] }

    /// The shape filled with a colour or gradient.
    public func fill<S: ShapeStyle>(_ content: S, style: FillStyle = FillStyle()) -> _ShapeView<Self> {
        _ShapeView(shape: self, fill: content._paint)
    }

    /// The shape filled with the foreground style.
    public func fill(style: FillStyle = FillStyle()) -> _ShapeView<Self> { _ShapeView(shape: self) }

    /// The shape's outline, `lineWidth` points wide, centred on its edge.
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self).stroke(content, lineWidth: lineWidth)
    }

    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> _ShapeView<Self> {
        _ShapeView(shape: self).stroke(content, style: style)
    }

    /// The outline in the foreground style.
    public func stroke(lineWidth: CGFloat = 1) -> _ShapeView<Self> { _ShapeView(shape: self).stroke(HierarchicalShapeStyle.primary, lineWidth: lineWidth) }
    public func stroke(style: StrokeStyle) -> _ShapeView<Self> { stroke(HierarchicalShapeStyle.primary, style: style) }

    /// The part of the shape's outline from `from` to `to` (0 to 1), as a progress ring draws it.
    public func trim(from startFraction: CGFloat = 0, to endFraction: CGFloat = 1) -> _TrimmedShape<Self> {
        _TrimmedShape(shape: self, from: startFraction, to: endFraction)
    }

    /// The shape turned by an angle (recorded; the host draws trimmed circles from the top).
    public func rotation(_ angle: Angle, anchor: UnitPoint = .center) -> _TrimmedShape<Self> {
        var turned = _TrimmedShape(shape: self, from: 0, to: 1)
        turned.rotation = angle.degrees
        return turned
    }

    /// The shape moved or scaled (the host draws it in place).
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> Self { self }
    public func offset(_ offset: CGSize) -> Self { self }
    public func scale(_ scale: CGFloat, anchor: UnitPoint = .center) -> Self { self }
}

extension InsettableShape {
    /// The outline drawn inside the shape's bounds.
    public func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1, antialiased: Bool = true) -> _ShapeView<Self> {
        _ShapeView(shape: self).stroke(content, lineWidth: lineWidth, inside: true)
    }

    public func strokeBorder<S: ShapeStyle>(_ content: S, style: StrokeStyle, antialiased: Bool = true) -> _ShapeView<Self> {
        var view = strokeBorder(content, lineWidth: style.lineWidth)
        if let dash = style.dashWire { view.stroke?["dash"] = dash }
        return view
    }

    public func strokeBorder(lineWidth: CGFloat = 1, antialiased: Bool = true) -> _ShapeView<Self> {
        strokeBorder(HierarchicalShapeStyle.primary, lineWidth: lineWidth)
    }
}

/// A shape drawn: filled, stroked, or both (iOS 17 lets a filled shape be stroked too).
public struct _ShapeView<Content: Shape>: _PrimitiveView {
    let shape: Content
    var fill: JSONValue?
    var stroke: JSONObject?

    init(shape: Content, fill: JSONValue? = nil) {
        self.shape = shape
        self.fill = fill
    }

    /// The outline too, `lineWidth` points wide.
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1, antialiased: Bool = true) -> _ShapeView<Content> {
        stroke(content, lineWidth: lineWidth, inside: false)
    }

    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle, antialiased: Bool = true) -> _ShapeView<Content> {
        var view = stroke(content, lineWidth: style.lineWidth, inside: false)
        if let dash = style.dashWire { view.stroke?["dash"] = dash }
        return view
    }

    public func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1, antialiased: Bool = true) -> _ShapeView<Content> {
        stroke(content, lineWidth: lineWidth, inside: true)
    }

    public func fill<S: ShapeStyle>(_ content: S, style: FillStyle = FillStyle()) -> _ShapeView<Content> {
        var view = self
        view.fill = content._paint
        return view
    }

    func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat, inside: Bool) -> _ShapeView<Content> {
        var view = self
        // A shape only stroked is not filled; one filled and then stroked keeps its fill.
        if view.fill == nil { view.fill = .string("clear") }
        var object = JSONObject([("paint", content._paint), ("lineWidth", .number(Double(lineWidth)))])
        if inside { object["inside"] = .bool(true) }
        view.stroke = object
        return view
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        var attributes = shape._shape(in: environment)
        if let fill { attributes["fill"] = fill }
        if let stroke { attributes["stroke"] = .object(stroke) }
        return [ViewNode("shape", attributes: attributes)]
    }
}

/// A part of a shape's outline (`trim(from:to:)`), and its rotation.
public struct _TrimmedShape<Base: Shape>: Shape {
    let shape: Base
    let from: CGFloat
    let to: CGFloat
    var rotation: Double = 0

    public func path(in rect: CGRect) -> Path { shape.path(in: rect) }

    public var _shape: JSONObject {
        var attributes = shape._shape
        if from != 0 || to != 1 { attributes["trim"] = .array([.number(Double(from)), .number(Double(to))]) }
        if rotation != 0 { attributes["rotation"] = .number(rotation) }
        return attributes
    }
}

/// How a shape is filled (the even-odd rule is not drawn differently here).
public struct FillStyle: Hashable, Sendable {
    public var isEOFilled: Bool
    public var isAntialiased: Bool
    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
}

/// How an outline is drawn: its width and dashes (caps and joins are not drawn differently here).
public struct StrokeStyle: Hashable, Sendable {
    public var lineWidth: CGFloat
    public var lineCap: LineCap
    public var lineJoin: LineJoin
    public var miterLimit: CGFloat
    public var dash: [CGFloat]
    public var dashPhase: CGFloat

    /// The dash pattern as the wire carries it; nil for a solid line.
    var dashWire: JSONValue? { dash.isEmpty ? nil : .array(dash.map { .number(Double($0)) }) }

    public enum LineCap: Hashable, Sendable { case butt, round, square }
    public enum LineJoin: Hashable, Sendable { case miter, round, bevel }

    public init(
        lineWidth: CGFloat = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: CGFloat = 10, dash: [CGFloat] = [],
        dashPhase: CGFloat = 0
    ) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.dash = dash
        self.dashPhase = dashPhase
    }
}

enum ShapeNode {
    static func node(_ shape: String, fill: JSONValue) -> ViewNode {
        ViewNode("shape", attributes: JSONObject([("shape", .string(shape)), ("fill", fill)]))
    }
}

/// The shape of the widget's container, inset to where the view is: its corners stay concentric
/// with the widget's own rounded corners (a circle in `accessoryCircular`).
public struct ContainerRelativeShape: InsettableShape {
    let inset: CGFloat
    public init() { inset = 0 }
    init(inset: CGFloat) { self.inset = inset }

    /// The shape drawn `amount` points inside the view's bounds.
    public func inset(by amount: CGFloat) -> ContainerRelativeShape { ContainerRelativeShape(inset: inset + amount) }

    /// In a shape of one's own: a rounded rectangle, as the system small widget's corners.
    public func path(in rect: CGRect) -> Path {
        Path(roundedRect: rect.insetBy(dx: inset, dy: inset), cornerRadius: max(0, 22 - inset))
    }

    public var _shape: JSONObject {
        var attributes = JSONObject([("shape", .string("containerRelative"))])
        if inset != 0 { attributes["inset"] = .number(Double(inset)) }
        return attributes
    }
}

/// A rectangle filling the view's bounds.
public struct Rectangle: InsettableShape {
    public init() {}
    public var _shape: JSONObject { JSONObject([("shape", .string("rectangle"))]) }
    public func path(in rect: CGRect) -> Path { Path(rect) }
    public func inset(by amount: CGFloat) -> Rectangle { self }
}

/// How a rounded rectangle's corners curve: iOS's continuous curve (the default), or arcs.
public enum RoundedCornerStyle: Hashable, Sendable {
    case circular, continuous
}

/// A rectangle with rounded corners.
public struct RoundedRectangle: InsettableShape {
    public var cornerSize: CGSize
    public var style: RoundedCornerStyle
    public var cornerRadius: CGFloat { cornerSize.width }

    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        cornerSize = CGSize(width: cornerRadius, height: cornerRadius)
        self.style = style
    }

    public init(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        self.cornerSize = cornerSize
        self.style = style
    }

    public var _shape: JSONObject {
        var shape = JSONObject([("shape", .string("roundedRectangle")), ("cornerRadius", .number(Double(cornerSize.width)))])
        if style == .circular { shape["style"] = .string("circular") }
        return shape
    }

    public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerSize: cornerSize, style: style) }
    public func inset(by amount: CGFloat) -> RoundedRectangle { self }
}

/// A rectangle whose corners are rounded each by its own radius; drawn with the largest.
public struct UnevenRoundedRectangle: InsettableShape {
    let radius: CGFloat

    public init(
        topLeadingRadius: CGFloat = 0, bottomLeadingRadius: CGFloat = 0, bottomTrailingRadius: CGFloat = 0, topTrailingRadius: CGFloat = 0,
        style: RoundedCornerStyle = .continuous
    ) {
        radius = max(topLeadingRadius, bottomLeadingRadius, bottomTrailingRadius, topTrailingRadius)
    }

    public var _shape: JSONObject { RoundedRectangle(cornerRadius: radius)._shape }
    public func path(in rect: CGRect) -> Path { RoundedRectangle(cornerRadius: radius).path(in: rect) }
    public func inset(by amount: CGFloat) -> UnevenRoundedRectangle { self }
}

/// A circle centred in the view's bounds, as wide as their shorter side.
public struct Circle: InsettableShape {
    public init() {}
    public var _shape: JSONObject { JSONObject([("shape", .string("circle"))]) }
    public func path(in rect: CGRect) -> Path {
        let side = min(rect.width, rect.height)
        return Path(ellipseIn: CGRect(x: rect.midX - side / 2, y: rect.midY - side / 2, width: side, height: side))
    }
    public func inset(by amount: CGFloat) -> Circle { self }
}

/// An ellipse filling the view's bounds; drawn as a capsule where the terminal cannot curve.
public struct Ellipse: InsettableShape {
    public init() {}
    public var _shape: JSONObject { JSONObject([("shape", .string("ellipse"))]) }
    public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
    public func inset(by amount: CGFloat) -> Ellipse { self }
}

/// A rectangle whose shorter sides are half circles.
public struct Capsule: InsettableShape {
    public init(style: RoundedCornerStyle = .continuous) {}
    public var _shape: JSONObject { JSONObject([("shape", .string("capsule"))]) }
    public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerRadius: min(rect.width, rect.height) / 2) }
    public func inset(by amount: CGFloat) -> Capsule { self }
}

extension Color: _PrimitiveView {
    /// `Color` fills the space it is offered, as in SwiftUI: `Color.blue` in a `ZStack` is a backdrop.
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ShapeNode.node("rectangle", fill: json)] }
}

extension _SystemShapeStyle: _PrimitiveView {
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ShapeNode.node("rectangle", fill: _paint)] }
}

extension Material: _PrimitiveView {
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ShapeNode.node("rectangle", fill: _paint)] }
}

// Shapes by their static names (iOS 17): `.clipShape(.rect(cornerRadius: 12))`, `.background(.capsule)`.
extension Shape where Self == Rectangle {
    public static var rect: Rectangle { Rectangle() }
}

extension Shape where Self == RoundedRectangle {
    public static func rect(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerRadius: cornerRadius, style: style)
    }
    public static func rect(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerSize: cornerSize, style: style)
    }
}

extension Shape where Self == UnevenRoundedRectangle {
    public static func rect(
        topLeadingRadius: CGFloat = 0, bottomLeadingRadius: CGFloat = 0, bottomTrailingRadius: CGFloat = 0, topTrailingRadius: CGFloat = 0,
        style: RoundedCornerStyle = .continuous
    ) -> UnevenRoundedRectangle {
        UnevenRoundedRectangle(
            topLeadingRadius: topLeadingRadius, bottomLeadingRadius: bottomLeadingRadius, bottomTrailingRadius: bottomTrailingRadius,
            topTrailingRadius: topTrailingRadius, style: style)
    }
}

extension Shape where Self == Circle {
    public static var circle: Circle { Circle() }
}

extension Shape where Self == Ellipse {
    public static var ellipse: Ellipse { Ellipse() }
}

extension Shape where Self == Capsule {
    public static var capsule: Capsule { Capsule() }
    public static func capsule(style: RoundedCornerStyle) -> Capsule { Capsule(style: style) }
}

extension Shape where Self == ContainerRelativeShape {
    public static var containerRelative: ContainerRelativeShape { ContainerRelativeShape() }
}
