public import Foundation
public import WidgetWire

extension View {
    /// A fixed size for the view in either dimension; nil keeps the view's own.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View {
        var object = JSONObject()
        if let width { object["width"] = .number(Double(width)) }
        if let height { object["height"] = .number(Double(height)) }
        if alignment != .center { object["alignment"] = .string(alignment.name) }
        return wire("frame", .object(object))
    }

    /// Bounds for the view's size; `.infinity` as a maximum takes all the space offered.
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View {
        var object = JSONObject()
        func put(_ name: String, _ value: CGFloat?) {
            guard let value else { return }
            object[name] = value.isInfinite ? .string("infinity") : .number(Double(value))
        }
        put("minWidth", minWidth)
        put("idealWidth", idealWidth)
        put("maxWidth", maxWidth)
        put("minHeight", minHeight)
        put("idealHeight", idealHeight)
        put("maxHeight", maxHeight)
        if alignment != .center { object["alignment"] = .string(alignment.name) }
        return wire("frame", .object(object))
    }

    /// Pads the view on all edges by the system's default amount (16 points).
    public func padding() -> some View { padding(.all, nil) }

    /// Pads the view on all edges by `length` points.
    public func padding(_ length: CGFloat) -> some View { padding(.all, length) }

    /// Pads the given edges by `length` points, or by the default amount when nil.
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View {
        let amount = Double(length ?? 16)
        var insets = JSONObject()
        for (edge, name) in [(Edge.Set.top, "top"), (.leading, "leading"), (.bottom, "bottom"), (.trailing, "trailing")] {
            insets[name] = .number(edges.contains(edge) ? amount : 0)
        }
        return wire("padding", .object(insets))
    }

    /// Pads each edge by its own amount.
    public func padding(_ insets: EdgeInsets) -> some View {
        wire(
            "padding",
            .object(
                JSONObject([
                    ("top", .number(Double(insets.top))), ("leading", .number(Double(insets.leading))),
                    ("bottom", .number(Double(insets.bottom))), ("trailing", .number(Double(insets.trailing))),
                ])))
    }

    /// The view at its ideal size, whatever it is offered (text on one line, unwrapped).
    public func fixedSize() -> some View { fixedSize(horizontal: true, vertical: true) }

    /// The view at its ideal size along the chosen axes.
    public func fixedSize(horizontal: Bool, vertical: Bool) -> some View {
        wire("fixedSize", .object(JSONObject([("horizontal", .bool(horizontal)), ("vertical", .bool(vertical))])))
    }

    /// Which of a stack's children get space first: higher first (default 0).
    public func layoutPriority(_ value: Double) -> some View { wire("layoutPriority", .number(value)) }

    /// Keeps the view in an aspect ratio, fitting in or filling the space offered.
    public func aspectRatio(_ aspectRatio: CGFloat? = nil, contentMode: ContentMode) -> some View {
        var object = JSONObject([("contentMode", .string(contentMode == .fit ? "fit" : "fill"))])
        if let aspectRatio { object["ratio"] = .number(Double(aspectRatio)) }
        return wire("aspectRatio", .object(object))
    }

    public func aspectRatio(_ aspectRatio: CGSize, contentMode: ContentMode) -> some View {
        self.aspectRatio(aspectRatio.height == 0 ? nil : aspectRatio.width / aspectRatio.height, contentMode: contentMode)
    }

    /// Scales the view to fit the space offered, keeping its aspect ratio.
    public func scaledToFit() -> some View { aspectRatio(nil, contentMode: .fit) }

    /// Scales the view to fill the space offered, keeping its aspect ratio.
    public func scaledToFill() -> some View { aspectRatio(nil, contentMode: .fill) }

    /// Moves the view by an offset, without changing its place in the layout.
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some View {
        wire("offset", .object(JSONObject([("x", .number(Double(x))), ("y", .number(Double(y)))])))
    }

    public func offset(_ offset: CGSize) -> some View { self.offset(x: offset.width, y: offset.height) }

    /// Centres the view at a point of its parent's coordinates (drawn in place here).
    public func position(x: CGFloat = 0, y: CGFloat = 0) -> some View { unchanged }
    public func position(_ position: CGPoint) -> some View { unchanged }

    /// Draws a view over this one, sized to this view and aligned in it.
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        _LayeredView(content: self, layer: content(), alignment: alignment, inFront: true)
    }

    // Disfavoured, as in SwiftUI: a colour or gradient, a view and a style both, is drawn as a style.
    @_disfavoredOverload
    public func overlay<V: View>(_ overlay: V, alignment: Alignment = .center) -> some View {
        _LayeredView(content: self, layer: overlay, alignment: alignment, inFront: true)
    }

    /// Draws a style over the view's bounds.
    public func overlay<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View {
        _LayeredView(content: self, layer: Rectangle().fill(style), alignment: .center, inFront: true)
    }

    /// Draws a view behind this one, sized to this view and aligned in it.
    public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        _LayeredView(content: self, layer: content(), alignment: alignment, inFront: false)
    }

    @_disfavoredOverload
    public func background<V: View>(_ background: V, alignment: Alignment = .center) -> some View {
        _LayeredView(content: self, layer: background, alignment: alignment, inFront: false)
    }

    /// Fills the view's bounds with a colour or gradient, behind the view.
    public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View {
        wire("background", style._paint)
    }

    /// Fills a shape behind the view with a style.
    public func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T, fillStyle: FillStyle = FillStyle()) -> some View {
        _LayeredView(content: self, layer: shape.fill(style), alignment: .center, inFront: false)
    }

    /// Fills the view's bounds with the background style.
    public func background(ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View { wire("background", .string("background")) }

    /// Draws a border of a style around the view.
    public func border<S: ShapeStyle>(_ content: S, width: CGFloat = 1) -> some View {
        _LayeredView(content: self, layer: Rectangle().strokeBorder(content, lineWidth: width), alignment: .center, inFront: true)
    }

    /// Cuts what the view draws to its bounds.
    public func clipped(antialiased: Bool = false) -> some View { wire("clipShape", .string("rectangle")) }

    /// Cuts what the view draws to a shape.
    public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> some View {
        modifier(_ClipShapeModifier(shape: shape))
    }

    /// Rounds the view's corners (iOS 13's spelling of a rounded-rectangle clip).
    public func cornerRadius(_ radius: CGFloat, antialiased: Bool = true) -> some View {
        wire("clipShape", .object(RoundedRectangle(cornerRadius: radius)._shape))
    }

    /// Masks the view by another: the view is drawn where the mask is opaque (by its alpha).
    public func mask<M: View>(alignment: Alignment = .center, @ViewBuilder _ mask: () -> M) -> some View {
        _LayeredView(content: self, layer: mask(), alignment: alignment, inFront: true, masks: true)
    }
    public func mask<M: View>(_ mask: M) -> some View {
        _LayeredView(content: self, layer: mask, alignment: .center, inFront: true, masks: true)
    }

    /// Hides the view, keeping its place in the layout.
    public func hidden() -> some View { wire("hidden") }

    /// Draws the view at an opacity from 0 (invisible) to 1.
    public func opacity(_ opacity: Double) -> some View { wire("opacity", .number(min(max(opacity, 0), 1))) }

    /// Gives the view an identity (for animations between entries; no effect on how it is drawn).
    public func id<ID: Hashable>(_ id: ID) -> some View { unchanged }

    public func tag<V: Hashable>(_ tag: V) -> some View { unchanged }

    /// The order views in a `ZStack` are drawn in (drawn in their written order here).
    public func zIndex(_ value: Double) -> some View { unchanged }

    public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> some View { unchanged }
    public func edgesIgnoringSafeArea(_ edges: Edge.Set) -> some View { unchanged }
    public func contentShape<S: Shape>(_ shape: S, eoFill: Bool = false) -> some View { unchanged }
    public func containerRelativeFrame(_ axes: Axis.Set, alignment: Alignment = .center) -> some View {
        frame(maxWidth: axes.contains(.horizontal) ? .infinity : nil, maxHeight: axes.contains(.vertical) ? .infinity : nil, alignment: alignment)
    }
}

/// How a view keeps its aspect ratio: fitting in, or filling, the space offered.
public enum ContentMode: Hashable, Sendable, CaseIterable {
    case fit, fill
}

/// Regions of the safe area (none in a widget).
public struct SafeAreaRegions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let container = SafeAreaRegions(rawValue: 1)
    public static let keyboard = SafeAreaRegions(rawValue: 2)
    public static let all: SafeAreaRegions = [.container, .keyboard]
}

/// An edge of a rectangle, and sets of edges for `padding`.
public enum Edge: Int8, CaseIterable, Hashable, Sendable {
    case top, leading, bottom, trailing

    public struct Set: OptionSet, Hashable, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public init(_ edge: Edge) { self.init(rawValue: 1 << edge.rawValue) }
        public static let top = Set(.top)
        public static let leading = Set(.leading)
        public static let bottom = Set(.bottom)
        public static let trailing = Set(.trailing)
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
        public static let all: Set = [.top, .leading, .bottom, .trailing]
    }
}

/// Insets on each edge, in points.
public struct EdgeInsets: Hashable, Sendable {
    public var top: CGFloat
    public var leading: CGFloat
    public var bottom: CGFloat
    public var trailing: CGFloat

    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }
}

/// A view with another drawn in front of it (`overlay`) or behind it (`background`), the size of the
/// first.
public struct _LayeredView<Content: View, Layer: View>: _PrimitiveView {
    let content: Content
    let layer: Layer
    let alignment: Alignment
    let inFront: Bool
    /// The layer is a mask: the content is drawn only where it is opaque.
    var masks = false

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        var attributes = JSONObject()
        if alignment != .center { attributes["alignment"] = .string(alignment.name) }
        // Several layered views are stacked, as in SwiftUI's implicit ZStack, by the alignment.
        let layers = layer._resolve(in: environment)
        let layered = layers.count == 1 ? layers[0] : ViewNode("zstack", attributes: attributes, children: layers)
        let main = ViewResolver.root(of: content, in: environment)
        return [ViewNode(masks ? "mask" : inFront ? "overlay" : "background", attributes: attributes, children: [main, layered])]
    }
}

/// A clip to a shape, made when the view is built: a shape of the author's own is made in the
/// widget's size, which the environment says.
public struct _ClipShapeModifier<S: Shape>: ViewModifier {
    public typealias Body = Never
    let shape: S

    public func _apply(to content: _ViewModifier_Content<Self>, in environment: EnvironmentValues) -> [ViewNode] {
        _WireModifier.marking(content.resolve(environment), with: ViewModifierNode("clipShape", .object(shape._shape(in: environment))))
    }
}
