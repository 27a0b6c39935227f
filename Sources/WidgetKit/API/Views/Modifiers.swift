public import Foundation
public import WidgetWire

/// A view with one modifier applied; the modifier is recorded on each node the content resolves to.
public struct ModifiedContent<Content: View>: _PrimitiveView {
    let content: Content
    let modifier: ViewModifierNode

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        content._resolve(in: environment).map { node in
            var node = node
            node.modifiers.append(modifier)
            return node
        }
    }
}

extension View {
    func modifier(_ name: String, _ value: JSONValue) -> ModifiedContent<Self> {
        ModifiedContent(content: self, modifier: ViewModifierNode(name, value))
    }

    /// Sets the font of text in this view.
    public func font(_ font: Font?) -> ModifiedContent<Self> { modifier("font", font?.json ?? .null) }

    /// Sets the colour of text and symbols in this view.
    public func foregroundColor(_ color: Color?) -> ModifiedContent<Self> { modifier("foregroundColor", color?.json ?? .null) }

    /// Makes text in this view bold.
    public func bold(_ isActive: Bool = true) -> ModifiedContent<Self> { modifier("bold", .bool(isActive)) }

    /// Sets the weight of text in this view.
    public func fontWeight(_ weight: Font.Weight?) -> ModifiedContent<Self> { modifier("fontWeight", weight.map { .string($0.rawValue) } ?? .null) }

    /// Sets the style of text, symbols and unfilled shapes in this view: a colour, or a gradient
    /// across each text's bounds.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> ModifiedContent<Self> { modifier("foregroundStyle", style._paint) }

    /// Fills the view's bounds with a colour or gradient, behind the view.
    public func background<S: ShapeStyle>(_ style: S) -> ModifiedContent<Self> { modifier("background", style._paint) }

    /// A fixed size for the view in either dimension; nil keeps the view's own.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> ModifiedContent<Self> {
        var object = JSONObject()
        if let width { object["width"] = .number(Double(width)) }
        if let height { object["height"] = .number(Double(height)) }
        if alignment != .center { object["alignment"] = .string(alignment.name) }
        return modifier("frame", .object(object))
    }

    /// Bounds for the view's size; `.infinity` as a maximum takes all the space offered.
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> ModifiedContent<Self> {
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
        return modifier("frame", .object(object))
    }

    /// The most lines text in this view may take; it truncates with "…" beyond. Nil: no limit.
    public func lineLimit(_ number: Int?) -> ModifiedContent<Self> { modifier("lineLimit", number.map { .number(Double($0)) } ?? .null) }

    /// How the lines of wrapped text line up with each other.
    public func multilineTextAlignment(_ alignment: TextAlignment) -> ModifiedContent<Self> {
        modifier("multilineTextAlignment", .string(alignment.rawValue))
    }

    /// Shows the view redacted: `.placeholder` draws text as grey bars, as iOS does while loading.
    public func redacted(reason: RedactionReasons) -> ModifiedContent<Self> {
        modifier("redacted", reason.contains(.placeholder) ? .string("placeholder") : (reason.contains(.privacy) ? .string("privacy") : .null))
    }

    /// Marks the view as private data: redacted where widgets show on a locked screen.
    public func privacySensitive(_ sensitive: Bool = true) -> ModifiedContent<Self> { modifier("privacySensitive", .bool(sensitive)) }

    /// The widget's background (iOS 17), drawn by the system behind the content and removed where
    /// the system shows the widget without one.
    public func containerBackground<S: ShapeStyle>(_ style: S, for placement: ContainerBackgroundPlacement) -> ModifiedContent<Self> {
        modifier("containerBackground", style._paint)
    }

    /// Whether the view takes the accent colour when the widget is shown in accented mode.
    public func widgetAccentable(_ accentable: Bool = true) -> ModifiedContent<Self> { modifier("widgetAccentable", .bool(accentable)) }

    /// Marks content that goes stale after an interaction until the widget reloads.
    public func invalidatableContent(_ invalidatable: Bool = true) -> ModifiedContent<Self> {
        modifier("invalidatableContent", .bool(invalidatable))
    }

    /// Pads the view on all edges by the system's default amount (16 points).
    public func padding() -> ModifiedContent<Self> { padding(.all, nil) }

    /// Pads the view on all edges by `length` points.
    public func padding(_ length: CGFloat) -> ModifiedContent<Self> { padding(.all, length) }

    /// Pads the given edges by `length` points, or by the default amount when nil.
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> ModifiedContent<Self> {
        let amount = Double(length ?? 16)
        var insets = JSONObject()
        for (edge, name) in [(Edge.Set.top, "top"), (.leading, "leading"), (.bottom, "bottom"), (.trailing, "trailing")] {
            insets[name] = .number(edges.contains(edge) ? amount : 0)
        }
        return modifier("padding", .object(insets))
    }
}

/// An edge of a rectangle, and sets of edges for `padding`.
public enum Edge: Int8, CaseIterable, Sendable {
    case top, leading, bottom, trailing

    public struct Set: OptionSet, Sendable {
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

/// A font: a text style (`.title`, `.headline`...) or a system font of a size.
public struct Font: Equatable, Sendable {
    let json: JSONValue

    public static let largeTitle = Font(json: .string("largeTitle"))
    public static let title = Font(json: .string("title"))
    public static let title2 = Font(json: .string("title2"))
    public static let title3 = Font(json: .string("title3"))
    public static let headline = Font(json: .string("headline"))
    public static let subheadline = Font(json: .string("subheadline"))
    public static let body = Font(json: .string("body"))
    public static let callout = Font(json: .string("callout"))
    public static let footnote = Font(json: .string("footnote"))
    public static let caption = Font(json: .string("caption"))
    public static let caption2 = Font(json: .string("caption2"))

    /// A system font of a fixed size.
    public static func system(size: CGFloat, weight: Weight? = nil) -> Font {
        var object = JSONObject([("size", .number(Double(size)))])
        if let weight { object["weight"] = .string(weight.rawValue) }
        return Font(json: .object(object))
    }

    public struct Weight: Equatable, Sendable {
        let rawValue: String
        public static let ultraLight = Weight(rawValue: "ultraLight")
        public static let thin = Weight(rawValue: "thin")
        public static let light = Weight(rawValue: "light")
        public static let regular = Weight(rawValue: "regular")
        public static let medium = Weight(rawValue: "medium")
        public static let semibold = Weight(rawValue: "semibold")
        public static let bold = Weight(rawValue: "bold")
        public static let heavy = Weight(rawValue: "heavy")
        public static let black = Weight(rawValue: "black")
    }
}

/// A colour: a named system colour, or red, green and blue components.
public struct Color: Equatable, Sendable {
    let json: JSONValue

    public static let primary = Color(json: .string("primary"))
    public static let secondary = Color(json: .string("secondary"))
    public static let accentColor = Color(json: .string("accent"))
    public static let black = Color(json: .string("black"))
    public static let white = Color(json: .string("white"))
    public static let gray = Color(json: .string("gray"))
    public static let red = Color(json: .string("red"))
    public static let orange = Color(json: .string("orange"))
    public static let yellow = Color(json: .string("yellow"))
    public static let green = Color(json: .string("green"))
    public static let mint = Color(json: .string("mint"))
    public static let teal = Color(json: .string("teal"))
    public static let cyan = Color(json: .string("cyan"))
    public static let blue = Color(json: .string("blue"))
    public static let indigo = Color(json: .string("indigo"))
    public static let purple = Color(json: .string("purple"))
    public static let pink = Color(json: .string("pink"))
    public static let brown = Color(json: .string("brown"))
    public static let clear = Color(json: .string("clear"))

    /// Components from 0 to 1; written on the wire as `#rrggbb`.
    public init(red: Double, green: Double, blue: Double) {
        func byte(_ component: Double) -> Int { Int((min(max(component, 0), 1) * 255).rounded()) }
        let hex = [byte(red), byte(green), byte(blue)].map { value in
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        json = .string("#" + hex.joined())
    }

    init(json: JSONValue) { self.json = json }
}

/// How the lines of multiline text line up.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    case leading, center, trailing
}

/// Where a container background goes; widgets have one placement.
public struct ContainerBackgroundPlacement: Hashable, Sendable {
    let name: String
    /// The widget's background.
    public static let widget = ContainerBackgroundPlacement(name: "widget")
}
