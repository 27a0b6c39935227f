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
        return [ViewNode("label", children: [icon, title])]
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
    public func labelStyle(_ style: _LabelStyle) -> some View { wire("labelStyle", .string(style.name)) }
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
