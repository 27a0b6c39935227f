public import Foundation
import WidgetWire

/// A view its author draws into (`Canvas { context, size in context.fill(path, with: .color(.red)) }`),
/// as SwiftUI's: the renderer runs when the view is built, in the size a `GeometryReader` would be
/// given (the widget's content), and what it fills and strokes becomes shapes, stretched with the
/// canvas to the space it is given. Texts, images and symbols drawn into it, filters and blend modes
/// are not drawn here (the paths are).
public struct Canvas<Symbols: View>: _PrimitiveView {
    let renderer: (inout GraphicsContext, CGSize) -> Void

    public init(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear, rendersAsynchronously: Bool = false,
                renderer: @escaping (inout GraphicsContext, CGSize) -> Void) where Symbols == EmptyView {
        self.renderer = renderer
    }

    public init(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear, rendersAsynchronously: Bool = false,
                renderer: @escaping (inout GraphicsContext, CGSize) -> Void, @ViewBuilder symbols: () -> Symbols) {
        self.renderer = renderer
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        let size = environment.contentSize
        var context = GraphicsContext(recorder: GraphicsContext.Recorder(size: size))
        EnvironmentValues.$current.withValue(environment) { renderer(&context, size) }
        let reference = JSONValue.array([.number(Double(size.width)), .number(Double(size.height))])
        let shapes = context.recorder.drawn.map { drawing -> ViewNode in
            var attributes = JSONObject([("shape", .string("path")), ("path", drawing.path.wire), ("reference", reference)])
            if let stroke = drawing.stroke {
                attributes["fill"] = .string("clear")
                var object = JSONObject([("paint", drawing.paint), ("lineWidth", .number(Double(stroke.lineWidth)))])
                if let dash = stroke.dashWire { object["dash"] = dash }
                attributes["stroke"] = .object(object)
            } else {
                attributes["fill"] = drawing.paint
            }
            return ViewNode("shape", attributes: attributes)
        }
        return [ViewNode("zstack", children: shapes.isEmpty ? [ViewNode("shape", attributes: JSONObject([("shape", .string("rectangle")), ("fill", .string("clear"))]))] : shapes)]
    }
}

public enum ColorRenderingMode: Sendable {
    case nonLinear, linear, extendedLinear
}

/// What a `Canvas` draws with: paths filled or stroked with a shading, under a transform and an opacity.
public struct GraphicsContext {
    final class Recorder {
        struct Drawing {
            let path: Path
            let paint: JSONValue
            let stroke: StrokeStyle?
        }
        var drawn: [Drawing] = []
        /// The canvas's reference size: gradients' points are fractions of it.
        let size: CGSize
        init(size: CGSize) { self.size = size }
    }

    let recorder: Recorder
    public var opacity: Double = 1
    public var transform: CGAffineTransform = .identity
    public var blendMode: BlendMode = .normal

    init(recorder: Recorder) { self.recorder = recorder }

    /// How a path is painted.
    public struct Shading: Sendable {
        enum Kind: Sendable {
            case paint(JSONValue)
            case linear(Gradient, CGPoint, CGPoint)
        }
        let kind: Kind
        public static func color(_ color: Color) -> Shading { Shading(kind: .paint(color.json)) }
        public static func style<S: ShapeStyle>(_ style: S) -> Shading { Shading(kind: .paint(style._paint)) }
        public static let foreground = Shading(kind: .paint(HierarchicalShapeStyle.primary._paint))
        /// A gradient from one point of the canvas to another.
        public static func linearGradient(_ gradient: Gradient, startPoint: CGPoint, endPoint: CGPoint, options: GradientOptions = GradientOptions()) -> Shading {
            Shading(kind: .linear(gradient, startPoint, endPoint))
        }
        /// A radial gradient, drawn from its centre outwards as a linear one from the top (its rings
        /// are not drawn here).
        public static func radialGradient(_ gradient: Gradient, center: CGPoint, startRadius: CGFloat, endRadius: CGFloat, options: GradientOptions = GradientOptions()) -> Shading {
            Shading(kind: .linear(gradient, CGPoint(x: center.x, y: center.y - endRadius), CGPoint(x: center.x, y: center.y + endRadius)))
        }
    }

    public struct GradientOptions: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public init() { rawValue = 0 }
        public static let `repeat` = GradientOptions(rawValue: 1)
        public static let mirror = GradientOptions(rawValue: 2)
        public static let linearColor = GradientOptions(rawValue: 4)
    }

    func painted(_ shading: Shading) -> JSONValue {
        let paint: JSONValue
        switch shading.kind {
        case .paint(let given): paint = given
        case .linear(let gradient, let start, let end):
            let size = recorder.size
            func unit(_ point: CGPoint) -> UnitPoint {
                let placed = point.applying(transform)
                return UnitPoint(x: size.width > 0 ? placed.x / size.width : 0, y: size.height > 0 ? placed.y / size.height : 0)
            }
            paint = LinearGradient(gradient: gradient, startPoint: unit(start), endPoint: unit(end))._paint
        }
        guard opacity < 1 else { return paint }
        return _OpacityShapeStyle(paint: paint, opacity: opacity)._paint
    }

    public func fill(_ path: Path, with shading: Shading, style: FillStyle = FillStyle()) {
        recorder.drawn.append(Recorder.Drawing(path: path.applying(transform), paint: painted(shading), stroke: nil))
    }

    public func stroke(_ path: Path, with shading: Shading, style: StrokeStyle) {
        recorder.drawn.append(Recorder.Drawing(path: path.applying(transform), paint: painted(shading), stroke: style))
    }

    public func stroke(_ path: Path, with shading: Shading, lineWidth: CGFloat = 1) {
        stroke(path, with: shading, style: StrokeStyle(lineWidth: lineWidth))
    }

    public mutating func translateBy(x: CGFloat, y: CGFloat) { transform = CGAffineTransform(translationX: x, y: y).concatenating(transform) }
    public mutating func scaleBy(x: CGFloat, y: CGFloat) { transform = CGAffineTransform(scaleX: x, y: y).concatenating(transform) }
    public mutating func rotate(by angle: Angle) { transform = CGAffineTransform(rotationAngle: CGFloat(angle.radians)).concatenating(transform) }
    public mutating func concatenate(_ matrix: CGAffineTransform) { transform = matrix.concatenating(transform) }
    /// Clipping is not applied here: what is drawn outside the clip shows.
    public mutating func clip(to path: Path, style: FillStyle = FillStyle(), options: ClipOptions = ClipOptions()) {}
    /// A copy drawing into the same canvas, whose changes to the transform and opacity stay its own.
    public func drawLayer(content: (inout GraphicsContext) throws -> Void) rethrows {
        var layer = self
        try content(&layer)
    }

    public struct ClipOptions: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public init() { rawValue = 0 }
        public static let inverse = ClipOptions(rawValue: 1)
    }
}
