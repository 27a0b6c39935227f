public import WidgetWire

/// A modifier you apply to a view, producing another version of it. Write `body(content:)`, and
/// apply it with `modifier(_:)`, as in SwiftUI:
///
///     struct Badge: ViewModifier {
///         func body(content: Content) -> some View {
///             content.padding(4).background(Color.red)
///         }
///     }
///     Text("3").modifier(Badge())
public protocol ViewModifier {
    associatedtype Body: View
    /// The view the modifier is applied to, inside `body(content:)`.
    typealias Content = _ViewModifier_Content<Self>

    @ViewBuilder func body(content: Content) -> Body

    /// The modified content's nodes. A modifier written by an author is its body; the SDK's own
    /// record themselves on the wire.
    func _apply(to content: _ViewModifier_Content<Self>, in environment: EnvironmentValues) -> [ViewNode]
}

extension ViewModifier {
    public func _apply(to content: _ViewModifier_Content<Self>, in environment: EnvironmentValues) -> [ViewNode] {
        EnvironmentValues.$current.withValue(environment) { body(content: content) }._resolve(in: environment)
    }
}

extension ViewModifier where Body == Never {
    public func body(content: Content) -> Never { fatalError("\(Self.self) is applied by the SDK and has no body") }
}

/// The content a modifier's `body(content:)` is handed: the view it modifies.
public struct _ViewModifier_Content<Modifier: ViewModifier>: _PrimitiveView {
    let resolve: (EnvironmentValues) -> [ViewNode]

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { resolve(environment) }
}

/// A view with a modifier applied, as SwiftUI's: `ModifiedContent<Content, Modifier>`.
public struct ModifiedContent<Content, Modifier> {
    public var content: Content
    public var modifier: Modifier

    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}

extension ModifiedContent: View, _PrimitiveView where Content: View, Modifier: ViewModifier {
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        let content = content
        return modifier._apply(to: _ViewModifier_Content(resolve: { content._resolve(in: $0) }), in: environment)
    }
}

extension ModifiedContent: ViewModifier where Content: ViewModifier, Modifier: ViewModifier {
    public typealias Body = Never

    public func _apply(to content: _ViewModifier_Content<Self>, in environment: EnvironmentValues) -> [ViewNode] {
        let inner = self.content
        let outer = modifier
        let first = _ViewModifier_Content<Content>(resolve: { content.resolve($0) })
        return outer._apply(to: _ViewModifier_Content(resolve: { inner._apply(to: first, in: $0) }), in: environment)
    }
}

extension ViewModifier {
    /// This modifier followed by another.
    public func concat<T: ViewModifier>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

extension View {
    /// Applies a modifier to this view.
    public func modifier<M: ViewModifier>(_ modifier: M) -> ModifiedContent<Self, M> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

/// One of the SDK's own modifiers: recorded on each node the content resolves to, for the host to
/// draw (docs/ABI.md lists them; the host ignores those it does not draw).
public struct _WireModifier: ViewModifier {
    public typealias Body = Never
    let node: ViewModifierNode

    public func _apply(to content: _ViewModifier_Content<Self>, in environment: EnvironmentValues) -> [ViewNode] {
        Self.marking(content.resolve(environment), with: node)
    }

    /// Each node with `modifier` added to its modifiers.
    static func marking(_ nodes: [ViewNode], with modifier: ViewModifierNode) -> [ViewNode] {
        nodes.map { node in
            var node = node
            node.modifiers.append(modifier)
            return node
        }
    }
}

/// Changes the environment the content is built in (`.environment(\.colorScheme, .dark)`).
public struct _EnvironmentModifier: ViewModifier {
    public typealias Body = Never
    let change: (inout EnvironmentValues) -> Void

    public func _apply(to content: _ViewModifier_Content<Self>, in environment: EnvironmentValues) -> [ViewNode] {
        var changed = environment
        change(&changed)
        return EnvironmentValues.$current.withValue(changed) { content.resolve(changed) }
    }
}

/// Leaves the content as it is: for modifiers that have no effect in a widget (animations,
/// gestures, accessibility actions), which compile as in SwiftUI.
public struct _NoModifier: ViewModifier {
    public typealias Body = Never
    public func _apply(to content: _ViewModifier_Content<Self>, in environment: EnvironmentValues) -> [ViewNode] {
        content.resolve(environment)
    }
}

extension View {
    /// A modifier the host draws, by its wire name.
    func wire(_ name: String, _ value: JSONValue = .bool(true)) -> ModifiedContent<Self, _WireModifier> {
        modifier(_WireModifier(node: ViewModifierNode(name, value)))
    }

    /// A modifier with no effect in a widget.
    var unchanged: ModifiedContent<Self, _NoModifier> { modifier(_NoModifier()) }

    /// Changes an environment value for the view and everything in it.
    public func transformEnvironment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, transform: @escaping (inout V) -> Void) -> some View {
        let transform = _UncheckedSendable(transform)
        return modifier(_EnvironmentModifier { transform.value(&$0[keyPath: keyPath]) })
    }

    /// Sets an environment value for the view and everything in it.
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        let value = _UncheckedSendable(value)
        return modifier(_EnvironmentModifier { $0[keyPath: keyPath] = value.value })
    }
}
