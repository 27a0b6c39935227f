import Foundation

// MARK: - The chart and its modifiers

/// A chart of marks, drawn as Swift Charts draws one by default: the marks in a plot whose y axis
/// (its values and grid lines) is at the trailing edge and x axis at the bottom, a legend below
/// when marks are coloured by a value; each axis hidden by `chartXAxis(.hidden)` or
/// `chartYAxis(.hidden)`, its scale set by `chartXScale(domain:)` or `chartYScale(domain:)`.
public struct Chart<Content: ChartContent>: View {
    let content: Content
    @Environment(\.chartOptions) private var options

    public init(@ChartContentBuilder content: () -> Content) { self.content = content() }

    public var body: some View {
        ChartDrawing(marks: content._marks().flatMap(\.marks), options: options)
    }
}

extension Chart {
    public init<Data: RandomAccessCollection, C: ChartContent>(_ data: Data, @ChartContentBuilder content: @escaping (Data.Element) -> C)
    where Content == ForEach<Data, Data.Element.ID, C>, Data.Element: Identifiable {
        self.content = ForEach(_unbuilt: data, content: content)
    }

    public init<Data: RandomAccessCollection, ID: Hashable, C: ChartContent>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ChartContentBuilder content: @escaping (Data.Element) -> C
    ) where Content == ForEach<Data, ID, C> {
        self.content = ForEach(_unbuilt: data, content: content)
    }
}

/// Whether an axis, a legend or other part of a chart is shown.
public struct Visibility: Hashable, Sendable {
    let shown: Bool?
    public static let automatic = Visibility(shown: nil)
    public static let visible = Visibility(shown: true)
    public static let hidden = Visibility(shown: false)
}

/// What the chart's modifiers set, read by the chart from its environment.
struct ChartOptions {
    var xAxisHidden = false
    var yAxisHidden = false
    var legendHidden = false
    var xDomain: (Double, Double)?
    var yDomain: (Double, Double)?
    var xCategories: [String]?
    var yCategories: [String]?
    var styles: [String: AnyShapeStyle] = [:]
}

enum ChartOptionsKey: EnvironmentKey {
    static var defaultValue: ChartOptions { ChartOptions() }
}

/// An axis's marks, as `chartXAxis { AxisMarks(...) }` gives them: whether the axis is shown.
public struct AxisMarks: AxisContent {
    public init() {}
    public init<Values>(preset: AxisMarkPreset = .automatic, position: AxisMarkPosition = .automatic, values: Values) {}
    public init(preset: AxisMarkPreset = .automatic, position: AxisMarkPosition = .automatic) {}
    public init<C: AxisContent>(preset: AxisMarkPreset = .automatic, position: AxisMarkPosition = .automatic, @AxisContentBuilder content: @escaping (AxisValue) -> C) {}
    public init<Values, C: AxisContent>(preset: AxisMarkPreset = .automatic, position: AxisMarkPosition = .automatic, values: Values, @AxisContentBuilder content: @escaping (AxisValue) -> C) {}
}

public protocol AxisContent {}

@resultBuilder
public enum AxisContentBuilder {
    public static func buildExpression<C: AxisContent>(_ content: C) -> C { content }
    public static func buildBlock() -> _AxisGroup { _AxisGroup() }
    public static func buildBlock<each C: AxisContent>(_ content: repeat each C) -> _AxisGroup { _AxisGroup() }
    public static func buildOptional<C: AxisContent>(_ content: C?) -> _AxisGroup { _AxisGroup() }
    public static func buildEither<C: AxisContent>(first: C) -> _AxisGroup { _AxisGroup() }
    public static func buildEither<C: AxisContent>(second: C) -> _AxisGroup { _AxisGroup() }
}

public struct _AxisGroup: AxisContent {}
public struct AxisGridLine: AxisContent { public init(centered: Bool? = nil, stroke: StrokeStyle? = nil) {} }
public struct AxisTick: AxisContent { public init(centered: Bool? = nil, length: CGFloat = 5, stroke: StrokeStyle? = nil) {} }
public struct AxisValueLabel: AxisContent {
    public init(centered: Bool? = nil, anchor: UnitPoint? = nil, multiLabelAlignment: Alignment? = nil, collisionResolution: AxisValueLabelCollisionResolution = .automatic, offsetsMarks: Bool? = nil, orientation: AxisValueLabelOrientation = .automatic, horizontalSpacing: CGFloat? = nil, verticalSpacing: CGFloat? = nil) {}
    public init<F: FormatStyle>(format: F, centered: Bool? = nil) {}
    public init<C: View>(centered: Bool? = nil, anchor: UnitPoint? = nil, @ViewBuilder content: () -> C) {}
}
public struct AxisValue: Sendable {
    public var index: Int { 0 }
    public var count: Int { 0 }
    public func `as`<P: Plottable>(_ type: P.Type) -> P? { nil }
}
public struct AxisMarkPreset: Sendable {
    public static let automatic = AxisMarkPreset()
    public static let aligned = AxisMarkPreset()
    public static let extended = AxisMarkPreset()
    public static let inset = AxisMarkPreset()
}
public struct AxisMarkPosition: Sendable {
    public static let automatic = AxisMarkPosition()
    public static let leading = AxisMarkPosition()
    public static let trailing = AxisMarkPosition()
    public static let top = AxisMarkPosition()
    public static let bottom = AxisMarkPosition()
}
public struct AxisValueLabelCollisionResolution: Sendable {
    public static let automatic = AxisValueLabelCollisionResolution()
    public static let greedy = AxisValueLabelCollisionResolution()
    public static let disabled = AxisValueLabelCollisionResolution()
}
public struct AxisValueLabelOrientation: Sendable {
    public static let automatic = AxisValueLabelOrientation()
    public static let horizontal = AxisValueLabelOrientation()
    public static let vertical = AxisValueLabelOrientation()
}

extension AxisContent {
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some AxisContent { self }
    public func font(_ font: Font?) -> some AxisContent { self }
}

/// The values an axis marks (`AxisMarks(values: .stride(by: .hour))`).
public struct AxisMarkValues: Sendable {
    public static let automatic = AxisMarkValues()
    public static func automatic(desiredCount: Int? = nil, roundLowerBound: Bool? = nil, roundUpperBound: Bool? = nil) -> AxisMarkValues { AxisMarkValues() }
    public static func stride(by component: Calendar.Component, count: Int = 1, roundLowerBound: Bool? = nil, roundUpperBound: Bool? = nil, calendar: Calendar? = nil) -> AxisMarkValues { AxisMarkValues() }
    public static func stride(by step: Double, roundLowerBound: Bool? = nil, roundUpperBound: Bool? = nil) -> AxisMarkValues { AxisMarkValues() }
}

/// A scale's range of values: numbers or dates (`0...100`, `start...end`), or categories.
public struct ScaleDomain {
    let range: (Double, Double)?
    let categories: [String]?
}

extension View {
    func chartOption(_ change: @escaping (inout ChartOptions) -> Void) -> some View {
        transformEnvironment(\.chartOptions, transform: change)
    }

    public func chartXAxis(_ visibility: Visibility) -> some View { chartOption { $0.xAxisHidden = visibility == .hidden } }
    public func chartYAxis(_ visibility: Visibility) -> some View { chartOption { $0.yAxisHidden = visibility == .hidden } }
    public func chartXAxis<C: AxisContent>(@AxisContentBuilder content: () -> C) -> some View { chartOption { _ in } }
    public func chartYAxis<C: AxisContent>(@AxisContentBuilder content: () -> C) -> some View { chartOption { _ in } }
    public func chartLegend(_ visibility: Visibility) -> some View { chartOption { $0.legendHidden = visibility == .hidden } }
    public func chartLegend(position: AnnotationPosition = .automatic, alignment: Alignment? = nil, spacing: CGFloat? = nil) -> some View { chartOption { _ in } }
    public func chartXAxisLabel(_ label: LocalizedStringKey, position: AnnotationPosition = .automatic, alignment: Alignment? = nil, spacing: CGFloat? = nil) -> some View { chartOption { _ in } }
    public func chartYAxisLabel(_ label: LocalizedStringKey, position: AnnotationPosition = .automatic, alignment: Alignment? = nil, spacing: CGFloat? = nil) -> some View { chartOption { _ in } }
    public func chartPlotStyle<C: View>(@ViewBuilder content: @escaping (ChartPlotContent) -> C) -> some View { chartOption { _ in } }
    public func chartBackground<C: View>(alignment: Alignment = .center, @ViewBuilder content: @escaping (ChartProxy) -> C) -> some View { chartOption { _ in } }
    public func chartOverlay<C: View>(alignment: Alignment = .center, @ViewBuilder content: @escaping (ChartProxy) -> C) -> some View { chartOption { _ in } }

    public func chartYScale<B: Plottable & Comparable>(domain: ClosedRange<B>, type: ScaleType? = nil) -> some View {
        let range = Self.range(domain)
        return chartOption { $0.yDomain = range }
    }
    public func chartXScale<B: Plottable & Comparable>(domain: ClosedRange<B>, type: ScaleType? = nil) -> some View {
        let range = Self.range(domain)
        return chartOption { $0.xDomain = range }
    }
    public func chartYScale<B: Plottable & Comparable>(domain: Range<B>, type: ScaleType? = nil) -> some View {
        let range = Self.range(domain.lowerBound...domain.upperBound)
        return chartOption { $0.yDomain = range }
    }
    public func chartXScale<B: Plottable & Comparable>(domain: Range<B>, type: ScaleType? = nil) -> some View {
        let range = Self.range(domain.lowerBound...domain.upperBound)
        return chartOption { $0.xDomain = range }
    }
    public func chartXScale<P: Plottable>(domain: [P], type: ScaleType? = nil) -> some View {
        let categories = domain.map { ChartValue($0.primitivePlottable).category }
        return chartOption { $0.xCategories = categories }
    }
    public func chartYScale<P: Plottable>(domain: [P], type: ScaleType? = nil) -> some View {
        let categories = domain.map { ChartValue($0.primitivePlottable).category }
        return chartOption { $0.yCategories = categories }
    }
    public func chartXScale(range: ClosedRange<CGFloat>) -> some View { chartOption { _ in } }
    public func chartYScale(range: ClosedRange<CGFloat>) -> some View { chartOption { _ in } }

    /// Colours for the values marks are coloured by (`foregroundStyle(by:)`).
    public func chartForegroundStyleScale<D: Plottable, S: ShapeStyle>(_ mapping: KeyValuePairs<D, S>) -> some View {
        let styles = Dictionary(mapping.map { (ChartValue($0.key.primitivePlottable).category, AnyShapeStyle($0.value)) }) { first, _ in first }
        return chartOption { $0.styles = styles }
    }
    public func chartForegroundStyleScale<D: Plottable, S: ShapeStyle>(domain: [D], range: [S]) -> some View {
        let styles = Dictionary(zip(domain, range).map { (ChartValue($0.0.primitivePlottable).category, AnyShapeStyle($0.1)) }) { first, _ in first }
        return chartOption { $0.styles = styles }
    }
    public func chartScrollableAxes(_ axes: Axis.Set) -> some View { chartOption { _ in } }
    public func chartXSelection<P: Plottable>(value: Binding<P?>) -> some View { chartOption { _ in } }

    static func range<B: Plottable>(_ domain: ClosedRange<B>) -> (Double, Double)? {
        guard let low = ChartValue(domain.lowerBound.primitivePlottable).position, let high = ChartValue(domain.upperBound.primitivePlottable).position,
            high > low
        else { return nil }
        return (low, high)
    }
}

extension EnvironmentValues {
    var chartOptions: ChartOptions {
        get { self[ChartOptionsKey.self] }
        set { self[ChartOptionsKey.self] = newValue }
    }
}

public struct ScaleType: Sendable {
    public static let linear = ScaleType()
    public static let log = ScaleType()
    public static let date = ScaleType()
    public static let category = ScaleType()
}

/// The plot area, as `chartPlotStyle` hands it (drawn as the chart draws it here).
public struct ChartPlotContent: View {
    public var body: some View { EmptyView() }
}

/// A chart's geometry for overlays (none is drawn here: the marks are).
public struct ChartProxy {
    public func position<P: Plottable>(forX value: P) -> CGFloat? { nil }
    public func position<P: Plottable>(forY value: P) -> CGFloat? { nil }
    public func value<P: Plottable>(atX position: CGFloat, as type: P.Type = P.self) -> P? { nil }
    public func value<P: Plottable>(atY position: CGFloat, as type: P.Type = P.self) -> P? { nil }
}
