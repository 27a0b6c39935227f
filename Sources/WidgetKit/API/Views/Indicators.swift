public import Foundation
public import WidgetWire

/// A system symbol by its SF Symbols name. The host draws the documented set (docs/RENDERING.md)
/// as a glyph in the terminal and in SVG; other names draw as a square.
public struct Image: _PrimitiveView {
    let systemName: String

    public init(systemName: String) {
        self.systemName = systemName
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        [ViewNode("image", attributes: JSONObject([("systemName", .string(systemName))]))]
    }
}

/// A bar showing progress: a value out of a total, or the passing of a time interval (updating by
/// itself, as a timer text does).
public struct ProgressView<Label: View>: _PrimitiveView {
    let attributes: JSONObject
    let label: Label?

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        [ViewNode("progress", attributes: attributes, children: label?._resolve(in: environment) ?? [])]
    }
}

extension ProgressView where Label == EmptyView {
    /// Progress of `value` out of `total`; nil shows an indeterminate bar.
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {
        attributes = Self.values(value, total)
        label = nil
    }

    /// Progress through an interval of time, filling up (or emptying, when counting down) as it passes.
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true) {
        attributes = JSONObject([
            ("timerInterval", .array([.number(timerInterval.lowerBound.timeIntervalSince1970), .number(timerInterval.upperBound.timeIntervalSince1970)])),
            ("countsDown", .bool(countsDown)),
        ])
        label = nil
    }
}

extension ProgressView {
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label) {
        attributes = Self.values(value, total)
        self.label = label()
    }

    static func values<V: BinaryFloatingPoint>(_ value: V?, _ total: V) -> JSONObject {
        var attributes = JSONObject([("total", .number(Double(total)))])
        if let value { attributes["value"] = .number(Double(value)) }
        return attributes
    }
}

/// A value within a range, shown as a bar with its label.
public struct Gauge<Label: View>: _PrimitiveView {
    let value: Double
    let bounds: ClosedRange<Double>
    let label: Label

    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label) {
        self.value = Double(value)
        self.bounds = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.label = label()
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        [
            ViewNode(
                "gauge", attributes: JSONObject([("value", .number(value)), ("min", .number(bounds.lowerBound)), ("max", .number(bounds.upperBound))]),
                children: label._resolve(in: environment))
        ]
    }
}
