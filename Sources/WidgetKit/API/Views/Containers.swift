public import Foundation
public import WidgetWire

/// A vertical stack that SwiftUI builds lazily; a widget's content is small, so it is a `VStack`.
public struct LazyVStack<Content: View>: _PrimitiveView {
    let stack: VStack<Content>
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, pinnedViews: PinnedScrollableViews = [], @ViewBuilder content: () -> Content) {
        stack = VStack(alignment: alignment, spacing: spacing, content: content)
    }
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { stack._resolve(in: environment) }
}

/// A horizontal stack that SwiftUI builds lazily; here an `HStack`.
public struct LazyHStack<Content: View>: _PrimitiveView {
    let stack: HStack<Content>
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, pinnedViews: PinnedScrollableViews = [], @ViewBuilder content: () -> Content) {
        stack = HStack(alignment: alignment, spacing: spacing, content: content)
    }
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { stack._resolve(in: environment) }
}

public struct PinnedScrollableViews: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let sectionHeaders = PinnedScrollableViews(rawValue: 1)
    public static let sectionFooters = PinnedScrollableViews(rawValue: 2)
}

/// A column of a `LazyVGrid` or a row of a `LazyHGrid`: its size, the space after it, and how its
/// cells are aligned in it.
public struct GridItem: Sendable {
    public enum Size: Sendable {
        case fixed(CGFloat)
        case flexible(minimum: CGFloat = 10, maximum: CGFloat = .infinity)
        /// As many as fit in SwiftUI; here one column (or row) sized as `flexible`, since the SDK
        /// builds the grid before the host knows the widget's size.
        case adaptive(minimum: CGFloat, maximum: CGFloat = .infinity)
    }

    public var size: Size
    public var spacing: CGFloat?
    public var alignment: Alignment?

    public init(_ size: Size = .flexible(), spacing: CGFloat? = nil, alignment: Alignment? = nil) {
        self.size = size
        self.spacing = spacing
        self.alignment = alignment
    }

    /// SwiftUI's spacing between cells where none is given.
    static let defaultSpacing: CGFloat = 8

    /// A cell placed in this column (`vertical`) or row: its width (or height) as the item's size says,
    /// and its spacing after it unless it is the last.
    func place(_ cell: some View, vertical: Bool, last: Bool) -> some View {
        let (minimum, ideal, maximum): (CGFloat?, CGFloat?, CGFloat?) =
            switch size {
            case .fixed(let length): (length, length, length)
            case .flexible(let minimum, let maximum), .adaptive(let minimum, let maximum): (minimum, nil, maximum)
            }
        let alignment = alignment ?? .center
        let sized = vertical
            ? AnyView(cell.frame(minWidth: minimum, idealWidth: ideal, maxWidth: maximum, alignment: alignment))
            : AnyView(cell.frame(minHeight: minimum, idealHeight: ideal, maxHeight: maximum, alignment: alignment))
        return sized.padding(vertical ? .trailing : .bottom, last ? 0 : spacing ?? Self.defaultSpacing)
    }
}

/// A grid of columns filled row by row (SwiftUI builds it lazily; a widget's content is small):
/// drawn as a vertical stack of rows, each cell sized as its column's `GridItem` says, so the columns
/// line up.
public struct LazyVGrid<Content: View>: _PrimitiveView {
    let columns: [GridItem]
    let alignment: HorizontalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(
        columns: [GridItem], alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil,
        pinnedViews: PinnedScrollableViews = [], @ViewBuilder content: () -> Content
    ) {
        self.columns = columns
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        [lazyGrid(content._resolve(in: environment), items: columns, vertical: true, alignment: alignment.rawValue, spacing: spacing, in: environment)]
    }
}

/// A grid of rows filled column by column: drawn as a horizontal stack of columns, each cell sized as
/// its row's `GridItem` says.
public struct LazyHGrid<Content: View>: _PrimitiveView {
    let rows: [GridItem]
    let alignment: VerticalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(
        rows: [GridItem], alignment: VerticalAlignment = .center, spacing: CGFloat? = nil,
        pinnedViews: PinnedScrollableViews = [], @ViewBuilder content: () -> Content
    ) {
        self.rows = rows
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        [lazyGrid(content._resolve(in: environment), items: rows, vertical: false, alignment: alignment.rawValue, spacing: spacing, in: environment)]
    }
}

/// A lazy grid's stack of lines (rows of a `LazyVGrid` in a vertical stack, columns of a
/// `LazyHGrid` in a horizontal one): its cells cut into lines of one cell per item, each sized as
/// its item says; the last line is filled out with empty cells, so its cells keep their items' sizes.
func lazyGrid(
    _ cells: [ViewNode], items: [GridItem], vertical: Bool, alignment: String, spacing: CGFloat?, in environment: EnvironmentValues
) -> ViewNode {
    let lines = items.isEmpty ? [] : stride(from: 0, to: cells.count, by: items.count).map { start in
        items.indices.flatMap { index in
            let cell = start + index < cells.count
                ? AnyView(_Nodes([cells[start + index]]))
                : AnyView(Color.clear.frame(width: vertical ? nil : 0, height: vertical ? 0 : nil))
            return items[index].place(cell, vertical: vertical, last: index == items.count - 1)._resolve(in: environment)
        }
    }
    let (outer, inner) = vertical ? ("vstack", "hstack") : ("hstack", "vstack")
    return stackNode(outer, alignment, spacing ?? GridItem.defaultSpacing, lines.map { stackNode(inner, "center", 0, $0) })
}

/// Nodes already resolved, as a view.
struct _Nodes: _PrimitiveView {
    let nodes: [ViewNode]
    init(_ nodes: [ViewNode]) { self.nodes = nodes }
    func _resolve(in environment: EnvironmentValues) -> [ViewNode] { nodes }
}

/// A grid of rows (iOS 16): drawn as a vertical stack of its rows, each a horizontal stack.
public struct Grid<Content: View>: _PrimitiveView {
    let stack: VStack<Content>
    public init(alignment: Alignment = .center, horizontalSpacing: CGFloat? = nil, verticalSpacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        stack = VStack(alignment: alignment.horizontal, spacing: verticalSpacing, content: content)
    }
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { stack._resolve(in: environment) }
}

/// A row of a `Grid`.
public struct GridRow<Content: View>: _PrimitiveView {
    let stack: HStack<Content>
    public init(alignment: VerticalAlignment? = nil, @ViewBuilder content: () -> Content) {
        stack = HStack(alignment: alignment ?? .center, content: content)
    }
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { stack._resolve(in: environment) }
}

/// A view with a title and an icon: in a row, or one of them alone as `labelStyle` says.
public struct Label<Title: View, Icon: View>: _PrimitiveView {
    let title: Title
    let icon: Icon

    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        let icon = ViewResolver.root(of: icon, in: environment)
        let title = ViewResolver.root(of: title, in: environment)
        return styled(title: [title], icon: [icon], in: environment) ?? [ViewNode("label", children: [icon, title])]
    }
}

extension Label where Title == Text, Icon == Image {
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(systemName: name) })
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.init(title: { Text(title) }, icon: { Image(systemName: name) })
    }
    public init(_ titleKey: LocalizedStringKey, image name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(name) })
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, image name: String) {
        self.init(title: { Text(title) }, icon: { Image(name) })
    }
}

/// How a `Label` shows: title and icon, or one of them.

public struct _LabelStyle: Sendable {
    let name: String
}

extension _LabelStyle {
    public static let automatic = _LabelStyle(name: "titleAndIcon")
    public static let titleAndIcon = _LabelStyle(name: "titleAndIcon")
    public static let titleOnly = _LabelStyle(name: "titleOnly")
    public static let iconOnly = _LabelStyle(name: "iconOnly")
}

extension View {
    /// How labels in this view show: `.iconOnly`, `.titleOnly` or `.titleAndIcon`.
    public func labelStyle(_ style: _LabelStyle) -> some View {
        wire("labelStyle", .string(style.name)).modifier(_EnvironmentModifier { $0.customLabelStyle = nil })
    }
}

/// A view whose content is built for the size it is given (`geometry.size`). A widget's views are
/// built in the bundle before the host lays them out, so the size is the widget's content area:
/// its family's size less its content margins. A `GeometryReader` takes all the space offered and
/// puts its content at the top leading corner, as SwiftUI's.
public struct GeometryReader<Content: View>: _PrimitiveView {
    let content: (GeometryProxy) -> Content

    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) { self.content = content }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        let proxy = GeometryProxy(size: environment.contentSize, safeAreaInsets: EdgeInsets())
        let inner = EnvironmentValues.$current.withValue(environment) { content(proxy) }._resolve(in: environment)
        let stack = ViewNode("zstack", attributes: JSONObject([("alignment", .string("topLeading"))]), children: inner)
        var node = stack
        node.modifiers.append(
            ViewModifierNode("frame", .object(JSONObject([("maxWidth", .string("infinity")), ("maxHeight", .string("infinity")), ("alignment", .string("topLeading"))]))))
        return [node]
    }
}

/// The size a `GeometryReader`'s content is built for.
public struct GeometryProxy: Sendable {
    public let size: CGSize
    public let safeAreaInsets: EdgeInsets

    /// The reader's frame: at the origin of the widget's content area.
    public func frame(in coordinateSpace: CoordinateSpace) -> CGRect { CGRect(origin: .zero, size: size) }
}

public enum CoordinateSpace: Hashable, Sendable {
    case global, local
    case named(String)
}
