public import WidgetWire

/// A piece of a widget's user interface. Compose views in `body`, as in SwiftUI.
public protocol View: SendableMetatype {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }

    /// Resolves the view into wire nodes in an environment. Primitive views implement this; composed
    /// views get it from their body.
    func _resolve(in environment: EnvironmentValues) -> [ViewNode]
}

extension View {
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        EnvironmentValues.$current.withValue(environment) { body }._resolve(in: environment)
    }
}

/// Primitive views have no body.
extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body") }
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [] }
}

/// A view built into the SDK: it resolves itself into nodes and has no body.
public protocol _PrimitiveView: View where Body == Never {}

extension _PrimitiveView {
    public var body: Never { fatalError("\(Self.self) is a primitive view and has no body") }
}

enum ViewResolver {
    /// The node for a widget's root: one view as is, several in an implicit vertical stack.
    static func root(of view: some View, in environment: EnvironmentValues) -> ViewNode {
        let nodes = view._resolve(in: environment)
        return nodes.count == 1 ? nodes[0] : ViewNode("vstack", children: nodes)
    }
}

// MARK: - Builder

/// Builds views from closures: several views, `if`, `if let`, `if`/`else` and `switch`.
@resultBuilder
public enum ViewBuilder {
    public static func buildExpression<V: View>(_ view: V) -> V { view }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<V: View>(_ view: V) -> V { view }
    public static func buildBlock<each V: View>(_ view: repeat each V) -> TupleView<(repeat each V)> {
        var nodes: [@Sendable (EnvironmentValues) -> [ViewNode]] = []
        for element in repeat each view {
            let captured = _UncheckedSendable(element)
            nodes.append { captured.value._resolve(in: $0) }
        }
        return TupleView(resolvers: nodes)
    }
    public static func buildOptional<V: View>(_ view: V?) -> V? { view }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { .init(storage: .first(first)) }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { .init(storage: .second(second)) }
    public static func buildLimitedAvailability<V: View>(_ view: V) -> V { view }
}

/// Any view, its type erased: for a property or a function returning one of several views.
public struct AnyView: _PrimitiveView {
    let resolve: @Sendable (EnvironmentValues) -> [ViewNode]

    public init<V: View>(_ view: V) {
        let captured = _UncheckedSendable(view)
        resolve = { captured.value._resolve(in: $0) }
    }

    public init<V: View>(erasing view: V) { self.init(view) }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { resolve(environment) }
}

/// Several views in a row, from a `@ViewBuilder` block.
public struct TupleView<T>: _PrimitiveView {
    let resolvers: [@Sendable (EnvironmentValues) -> [ViewNode]]
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { resolvers.flatMap { $0(environment) } }
}

/// One of two views, from `if`/`else` or `switch`.
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: _PrimitiveView {
    enum Storage {
        case first(TrueContent)
        case second(FalseContent)
    }
    let storage: Storage
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        switch storage {
        case .first(let view): view._resolve(in: environment)
        case .second(let view): view._resolve(in: environment)
        }
    }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError("Optional has no body") }
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { self?._resolve(in: environment) ?? [] }
}

/// A view that shows nothing.
public struct EmptyView: _PrimitiveView {
    public init() {}
    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] { [] }
}
