public import Foundation
public import WidgetWire

/// Arranges its children in a vertical line.
public struct VStack<Content: View>: _PrimitiveView {
    let alignment: HorizontalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        [stackNode("vstack", alignment.rawValue, spacing, content._resolve(in: environment))]
    }
}

/// Arranges its children in a horizontal line.
public struct HStack<Content: View>: _PrimitiveView {
    let alignment: VerticalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        [stackNode("hstack", alignment.rawValue, spacing, content._resolve(in: environment))]
    }
}

/// Overlays its children, aligning them in both axes.
public struct ZStack<Content: View>: _PrimitiveView {
    let alignment: Alignment
    let content: Content

    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        [stackNode("zstack", alignment.name, nil, content._resolve(in: environment))]
    }
}

func stackNode(_ view: String, _ alignment: String, _ spacing: CGFloat?, _ children: [ViewNode]) -> ViewNode {
    var attributes = JSONObject()
    if alignment != "center" { attributes["alignment"] = .string(alignment) }
    if let spacing { attributes["spacing"] = .number(Double(spacing)) }
    return ViewNode(view, attributes: attributes, children: children)
}

/// A flexible space that expands along the major axis of its stack.
public struct Spacer: _PrimitiveView {
    let minLength: CGFloat?
    public init(minLength: CGFloat? = nil) { self.minLength = minLength }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        var attributes = JSONObject()
        if let minLength { attributes["minLength"] = .number(Double(minLength)) }
        return [ViewNode("spacer", attributes: attributes)]
    }
}

/// A visual element that separates content.
public struct Divider: _PrimitiveView {
    public init() {}
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [ViewNode("divider")] }
}

/// Groups views so that modifiers apply to each of them, without affecting layout.
public struct Group<Content: View>: _PrimitiveView {
    let content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { content._resolve(in: environment) }
}

/// Computes views (or, with Charts, marks) from a collection of data: a view where its content is
/// one, as SwiftUI's `ForEach` is.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public let data: Data
    public let content: (Data.Element) -> Content

    /// For content of another kind (Charts' marks), whose own initializers take its builder.
    public init(_unbuilt data: Data, content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

extension ForEach: View, _PrimitiveView where Content: View {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(_unbuilt: data, content: content)
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        // The content closure runs now, not when the enclosing body ran: it reads the environment
        // (`@Environment(\.widgetFamily)` of the view that built it) from here.
        let views = EnvironmentValues.$current.withValue(environment) { data.map(content) }
        return views.flatMap { $0._resolve(in: environment) }
    }
}

extension ForEach where Content: View, Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, id: \.id, content: content)
    }
}

extension ForEach where Content: View, Data == Range<Int>, ID == Int {
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.init(data, id: \.self, content: content)
    }
}

// MARK: - Alignment

public struct HorizontalAlignment: Equatable, Sendable {
    let rawValue: String
    public static let leading = HorizontalAlignment(rawValue: "leading")
    public static let center = HorizontalAlignment(rawValue: "center")
    public static let trailing = HorizontalAlignment(rawValue: "trailing")
}

public struct VerticalAlignment: Equatable, Sendable {
    let rawValue: String
    public static let top = VerticalAlignment(rawValue: "top")
    public static let center = VerticalAlignment(rawValue: "center")
    public static let bottom = VerticalAlignment(rawValue: "bottom")
    public static let firstTextBaseline = VerticalAlignment(rawValue: "firstTextBaseline")
    public static let lastTextBaseline = VerticalAlignment(rawValue: "lastTextBaseline")
}

public struct Alignment: Equatable, Sendable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment

    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

    /// "center", "top", "topLeading"...: the wire spelling.
    var name: String {
        switch (vertical.rawValue, horizontal.rawValue) {
        case ("center", let h): h
        case (let v, "center"): v
        case (let v, let h): v + h.prefix(1).uppercased() + h.dropFirst()
        }
    }
}
