public import Foundation
public import WidgetWire

/// A bar (or ring) showing progress: a value out of a total, the passing of a time interval
/// (updating by itself, as a timer text does), or an indeterminate activity.
public struct ProgressView<Label: View, CurrentValueLabel: View>: _PrimitiveView {
    let attributes: JSONObject
    let label: Label?
    let currentValueLabel: CurrentValueLabel?

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        let children = (label?._resolve(in: environment) ?? []) + (currentValueLabel?._resolve(in: environment) ?? [])
        return [ViewNode("progress", attributes: attributes, children: children)]
    }

    static func values<V: BinaryFloatingPoint>(_ value: V?, _ total: V) -> JSONObject {
        var attributes = JSONObject([("total", .number(Double(total)))])
        if let value { attributes["value"] = .number(Double(value)) }
        return attributes
    }

    static func timer(_ interval: ClosedRange<Date>, countsDown: Bool) -> JSONObject {
        JSONObject([
            ("timerInterval", .array([.number(interval.lowerBound.timeIntervalSince1970), .number(interval.upperBound.timeIntervalSince1970)])),
            ("countsDown", .bool(countsDown)),
        ])
    }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    /// An indeterminate progress view.
    public init() {
        attributes = JSONObject()
        label = nil
        currentValueLabel = nil
    }

    /// Progress of `value` out of `total`; nil shows an indeterminate bar.
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {
        attributes = Self.values(value, total)
        label = nil
        currentValueLabel = nil
    }

    /// Progress through an interval of time, filling up (or emptying, when counting down) as it passes.
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true) {
        attributes = Self.timer(timerInterval, countsDown: countsDown)
        label = nil
        currentValueLabel = nil
    }
}

extension ProgressView where CurrentValueLabel == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label) {
        attributes = Self.values(value, total)
        self.label = label()
        currentValueLabel = nil
    }

    /// An indeterminate progress view with a label.
    public init(@ViewBuilder label: () -> Label) {
        attributes = JSONObject()
        self.label = label()
        currentValueLabel = nil
    }
}

extension ProgressView where Label == Text, CurrentValueLabel == EmptyView {
    public init(_ titleKey: LocalizedStringKey) { self.init(label: { Text(titleKey) }) }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S) { self.init(label: { Text(title) }) }
    public init<V: BinaryFloatingPoint>(_ titleKey: LocalizedStringKey, value: V?, total: V = 1.0) {
        self.init(value: value, total: total, label: { Text(titleKey) })
    }
}

extension ProgressView {
    public init<V: BinaryFloatingPoint>(
        value: V?, total: V = 1.0, @ViewBuilder label: () -> Label, @ViewBuilder currentValueLabel: () -> CurrentValueLabel
    ) {
        attributes = Self.values(value, total)
        self.label = label()
        self.currentValueLabel = currentValueLabel()
    }

    /// Progress through an interval of time, with a label and a label of the time left.
    public init(
        timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label,
        @ViewBuilder currentValueLabel: () -> CurrentValueLabel
    ) {
        attributes = Self.timer(timerInterval, countsDown: countsDown)
        self.label = label()
        self.currentValueLabel = currentValueLabel()
    }
}

extension ProgressView where CurrentValueLabel == Text {
    /// Progress through an interval of time, with a label; the time left is shown as a timer.
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label) {
        attributes = Self.timer(timerInterval, countsDown: countsDown)
        self.label = label()
        currentValueLabel = Text(timerInterval: timerInterval, countsDown: countsDown)
    }
}

/// A value within a range, shown as a bar or a ring with its labels.
public struct Gauge<Label: View, CurrentValueLabel: View, BoundsLabel: View, MarkedValueLabels: View>: _PrimitiveView {
    let value: Double
    let bounds: ClosedRange<Double>
    let label: Label
    let currentValueLabel: CurrentValueLabel?
    let minimumValueLabel: BoundsLabel?
    let maximumValueLabel: BoundsLabel?

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        var children = label._resolve(in: environment)
        if let currentValueLabel {
            let nodes = currentValueLabel._resolve(in: environment)
            if !nodes.isEmpty { children.append(ViewNode("gaugeValue", children: nodes)) }
        }
        var attributes = JSONObject([("value", .number(value)), ("min", .number(bounds.lowerBound)), ("max", .number(bounds.upperBound))])
        if let minimum = minimumValueLabel.map({ PlainTexts.text($0._resolve(in: environment)) }), !minimum.isEmpty { attributes["minimumLabel"] = .string(minimum) }
        if let maximum = maximumValueLabel.map({ PlainTexts.text($0._resolve(in: environment)) }), !maximum.isEmpty { attributes["maximumLabel"] = .string(maximum) }
        return [ViewNode("gauge", attributes: attributes, children: children)]
    }
}

extension Gauge where CurrentValueLabel == EmptyView, BoundsLabel == EmptyView, MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label) {
        self.value = Double(value)
        self.bounds = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.label = label()
        currentValueLabel = nil
        minimumValueLabel = nil
        maximumValueLabel = nil
    }
}

extension Gauge where BoundsLabel == EmptyView, MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(
        value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label, @ViewBuilder currentValueLabel: () -> CurrentValueLabel
    ) {
        self.value = Double(value)
        self.bounds = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.label = label()
        self.currentValueLabel = currentValueLabel()
        minimumValueLabel = nil
        maximumValueLabel = nil
    }
}

extension Gauge where MarkedValueLabels == EmptyView {
    public init<V: BinaryFloatingPoint>(
        value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label, @ViewBuilder currentValueLabel: () -> CurrentValueLabel,
        @ViewBuilder minimumValueLabel: () -> BoundsLabel, @ViewBuilder maximumValueLabel: () -> BoundsLabel
    ) {
        self.value = Double(value)
        self.bounds = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.label = label()
        self.currentValueLabel = currentValueLabel()
        self.minimumValueLabel = minimumValueLabel()
        self.maximumValueLabel = maximumValueLabel()
    }
}

/// The text of nodes, for a gauge's bounds labels.
enum PlainTexts {
    static func text(_ nodes: [ViewNode]) -> String {
        nodes.map { node in node["text"]?.stringValue ?? text(node.children) }.joined(separator: " ")
    }
}

/// How a gauge is drawn: a bar (`linearCapacity`, `accessoryLinear`...) or a ring (`accessoryCircular`...).
public struct _GaugeStyle: Sendable {
    let name: String
    public static let automatic = _GaugeStyle(name: "automatic")
    public static let linearCapacity = _GaugeStyle(name: "linearCapacity")
    public static let accessoryLinear = _GaugeStyle(name: "accessoryLinear")
    public static let accessoryLinearCapacity = _GaugeStyle(name: "accessoryLinearCapacity")
    public static let accessoryCircular = _GaugeStyle(name: "accessoryCircular")
    public static let accessoryCircularCapacity = _GaugeStyle(name: "accessoryCircularCapacity")
    public static let circular = _GaugeStyle(name: "accessoryCircular")
    public static let linear = _GaugeStyle(name: "accessoryLinear")
}

/// How a progress view is drawn: a bar or a ring.
public struct _ProgressViewStyle: Sendable {
    let name: String
    public static let automatic = _ProgressViewStyle(name: "linear")
    public static let linear = _ProgressViewStyle(name: "linear")
    public static let circular = _ProgressViewStyle(name: "circular")
}

extension View {
    /// How gauges in this view are drawn.
    public func gaugeStyle(_ style: _GaugeStyle) -> some View { wire("gaugeStyle", .string(style.name)) }

    /// How progress views in this view are drawn.
    public func progressViewStyle(_ style: _ProgressViewStyle) -> some View { wire("progressViewStyle", .string(style.name)) }
}
