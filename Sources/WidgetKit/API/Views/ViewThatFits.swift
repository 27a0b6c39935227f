import Foundation
public import WidgetWire

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
