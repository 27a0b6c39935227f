// Swift Charts as widget code uses it: `Chart` of `LineMark`, `AreaMark`, `BarMark`, `PointMark`,
// `RuleMark`, `RectangleMark` and `SectorMark`, values as `.value(label, value)`, the marks'
// modifiers and the chart's axes and scales, with Apple's names and signatures. Drawn with the SDK's
// own shapes and texts (Chart.swift), so every surface draws a chart as it draws any view.
@_exported import SwiftUI

// MARK: - Values

/// A value a chart can place: a number, a date or a category.
public protocol PrimitivePlottableProtocol {}

extension Int: PrimitivePlottableProtocol {}
extension Int8: PrimitivePlottableProtocol {}
extension Int16: PrimitivePlottableProtocol {}
extension Int32: PrimitivePlottableProtocol {}
extension Int64: PrimitivePlottableProtocol {}
extension UInt: PrimitivePlottableProtocol {}
extension UInt8: PrimitivePlottableProtocol {}
extension UInt16: PrimitivePlottableProtocol {}
extension UInt32: PrimitivePlottableProtocol {}
extension UInt64: PrimitivePlottableProtocol {}
extension Double: PrimitivePlottableProtocol {}
extension Float: PrimitivePlottableProtocol {}
extension CGFloat: PrimitivePlottableProtocol {}
extension Decimal: PrimitivePlottableProtocol {}
extension String: PrimitivePlottableProtocol {}
extension Date: PrimitivePlottableProtocol {}

/// A type whose values a chart plots through a primitive one (an enum through its raw value).
public protocol Plottable {
    associatedtype PrimitivePlottable: PrimitivePlottableProtocol
    var primitivePlottable: PrimitivePlottable { get }
    init?(primitivePlottable: PrimitivePlottable)
}

extension Plottable where Self: PrimitivePlottableProtocol, PrimitivePlottable == Self {
    public var primitivePlottable: Self { self }
    public init?(primitivePlottable: Self) { self = primitivePlottable }
}

extension Plottable where Self: RawRepresentable, RawValue: PrimitivePlottableProtocol, PrimitivePlottable == RawValue {
    public var primitivePlottable: RawValue { rawValue }
    public init?(primitivePlottable: RawValue) { self.init(rawValue: primitivePlottable) }
}

extension Int: Plottable {}
extension Int8: Plottable {}
extension Int16: Plottable {}
extension Int32: Plottable {}
extension Int64: Plottable {}
extension UInt: Plottable {}
extension UInt8: Plottable {}
extension UInt16: Plottable {}
extension UInt32: Plottable {}
extension UInt64: Plottable {}
extension Double: Plottable {}
extension Float: Plottable {}
extension CGFloat: Plottable {}
extension Decimal: Plottable {}
extension String: Plottable {}
extension Date: Plottable {}

/// A value as a chart places it.
enum ChartValue: Hashable {
    case number(Double)
    case date(Date)
    case category(String)

    /// A value; a number that is not finite is none (a mark with it is not drawn), never a category.
    init(_ primitive: some PrimitivePlottableProtocol) {
        switch primitive {
        case let date as Date: self = .date(date)
        case let text as String: self = .category(text)
        case let value as Decimal: self = .number(NSDecimalNumber(decimal: value).doubleValue)
        case let value as any BinaryInteger: self = .number(Double(value))
        case let value as any BinaryFloatingPoint: self = .number(Double(value))
        default: self = .category("\(primitive)")
        }
    }

    /// Where a number or date lies on a continuous axis.
    var position: Double? {
        switch self {
        case .number(let value): value.isFinite ? value : nil
        case .date(let date): date.timeIntervalSince1970
        case .category: nil
        }
    }

    var category: String {
        switch self {
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .date(let date): date.formatted(date: .abbreviated, time: .omitted)
        case .category(let text): text
        }
    }
}

/// A value with the label that names it (read aloud on iOS; not drawn): `.value("Price", 12.5)`.
public struct PlottableValue<Value: Plottable> {
    let value: ChartValue
    /// For a date with a unit (`.value("Day", date, unit: .day)`): bars span the unit.
    var unit: Calendar.Component?

    public static func value(_ label: LocalizedStringKey, _ value: Value) -> PlottableValue<Value> {
        PlottableValue(value: ChartValue(value.primitivePlottable))
    }

    @_disfavoredOverload
    public static func value<S: StringProtocol>(_ label: S, _ value: Value) -> PlottableValue<Value> {
        PlottableValue(value: ChartValue(value.primitivePlottable))
    }

    public static func value(_ label: Text, _ value: Value) -> PlottableValue<Value> {
        PlottableValue(value: ChartValue(value.primitivePlottable))
    }
}

extension PlottableValue where Value == Date {
    public static func value(_ label: LocalizedStringKey, _ value: Date, unit: Calendar.Component, calendar: Calendar = .current) -> PlottableValue<Date> {
        var plotted = PlottableValue(value: .date(value))
        plotted.unit = unit
        return plotted
    }

    @_disfavoredOverload
    public static func value<S: StringProtocol>(_ label: S, _ value: Date, unit: Calendar.Component, calendar: Calendar = .current) -> PlottableValue<Date> {
        var plotted = PlottableValue(value: .date(value))
        plotted.unit = unit
        return plotted
    }
}

// MARK: - Marks

/// One mark as the chart draws it.
struct ChartMark {
    enum Kind { case line, area, bar, point, rule, rectangle, sector }
    var kind: Kind
    var x: ChartValue?
    var y: ChartValue?
    /// A range's ends: a bar or area from `yStart` to `yEnd`, a rule or rectangle along x.
    var xStart: ChartValue?
    var xEnd: ChartValue?
    var yStart: ChartValue?
    var yEnd: ChartValue?
    var xUnit: Calendar.Component?
    var yUnit: Calendar.Component?
    /// A sector's value, and its inner radius as a fraction of the outer.
    var angle: Double?
    var innerRatio = 0.0
    var angularInset = 0.0
    // Modifiers.
    var paint: AnyShapeStyle?
    var series: String?
    var lineWidth: Double?
    var dash: [Double] = []
    var interpolation: InterpolationMethod = .linear
    var symbolSize: Double?
    var showsSymbol = false
    var cornerRadius = 0.0
    var opacity = 1.0
    var width: Double?
    var height: Double?
}

/// Chart content: marks, `ForEach` of marks, and groups of them.
public protocol ChartContent {
    associatedtype Body: ChartContent
    @ChartContentBuilder var body: Body { get }
    /// The marks, in the environment the chart is built in.
    func _marks() -> [ChartMarkList]
}

/// Marks as the chart collects them (opaque outside this module).
public struct ChartMarkList {
    var marks: [ChartMark]
}

extension ChartContent {
    public func _marks() -> [ChartMarkList] { body._marks() }
}

extension Never: ChartContent {
    public func _marks() -> [ChartMarkList] { [] }
}

/// A mark built into Charts: it is its marks, and has no body.
public protocol _PrimitiveChartContent: ChartContent where Body == Never {}

extension _PrimitiveChartContent {
    public var body: Never { fatalError("\(Self.self) is a primitive mark and has no body") }
}

@resultBuilder
public enum ChartContentBuilder {
    public static func buildExpression<C: ChartContent>(_ content: C) -> C { content }
    public static func buildBlock() -> _ChartGroup { _ChartGroup(parts: []) }
    public static func buildBlock<C: ChartContent>(_ content: C) -> C { content }
    public static func buildBlock<each C: ChartContent>(_ content: repeat each C) -> _ChartGroup {
        var parts: [() -> [ChartMarkList]] = []
        for element in repeat each content { parts.append { element._marks() } }
        return _ChartGroup(parts: parts)
    }
    public static func buildOptional<C: ChartContent>(_ content: C?) -> _ChartGroup {
        _ChartGroup(parts: content.map { content in [{ content._marks() }] } ?? [])
    }
    public static func buildEither<T: ChartContent, F: ChartContent>(first: T) -> _ChartEither<T, F> { _ChartEither(first: first, second: nil) }
    public static func buildEither<T: ChartContent, F: ChartContent>(second: F) -> _ChartEither<T, F> { _ChartEither(first: nil, second: second) }
    public static func buildArray<C: ChartContent>(_ contents: [C]) -> _ChartGroup { _ChartGroup(parts: contents.map { content in { content._marks() } }) }
    public static func buildLimitedAvailability<C: ChartContent>(_ content: C) -> C { content }
}

public struct _ChartGroup: _PrimitiveChartContent {
    let parts: [() -> [ChartMarkList]]
    public func _marks() -> [ChartMarkList] { parts.flatMap { $0() } }
}

public struct _ChartEither<First: ChartContent, Second: ChartContent>: _PrimitiveChartContent {
    let first: First?
    let second: Second?
    public func _marks() -> [ChartMarkList] { first?._marks() ?? second?._marks() ?? [] }
}

extension ForEach: ChartContent where Content: ChartContent {
    public typealias Body = Never
    public var body: Never { fatalError("ForEach is primitive chart content") }

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ChartContentBuilder content: @escaping (Data.Element) -> Content) {
        self.init(_unbuilt: data, content: content)
    }

    public func _marks() -> [ChartMarkList] { data.flatMap { content($0)._marks() } }
}

extension ForEach where Content: ChartContent, Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @ChartContentBuilder content: @escaping (Data.Element) -> Content) {
        self.init(_unbuilt: data, content: content)
    }
}

extension ForEach where Content: ChartContent, Data == Range<Int>, ID == Int {
    public init(_ data: Range<Int>, @ChartContentBuilder content: @escaping (Int) -> Content) {
        self.init(_unbuilt: data, content: content)
    }
}

func plotted<X: Plottable, Y: Plottable>(_ kind: ChartMark.Kind, _ x: PlottableValue<X>?, _ y: PlottableValue<Y>?) -> ChartMark {
    var mark = ChartMark(kind: kind)
    if let x {
        mark.x = x.value
        mark.xUnit = x.unit
    }
    if let y {
        mark.y = y.value
        mark.yUnit = y.unit
    }
    return mark
}

public struct LineMark: _PrimitiveChartContent {
    var mark: ChartMark
    public func _marks() -> [ChartMarkList] { [ChartMarkList(marks: [mark])] }
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, y: PlottableValue<Y>) { mark = plotted(.line, x, y) }
    public init<X: Plottable, Y: Plottable, S: Plottable>(x: PlottableValue<X>, y: PlottableValue<Y>, series: PlottableValue<S>) {
        mark = plotted(.line, x, y)
        mark.series = series.value.category
    }
}

public struct AreaMark: _PrimitiveChartContent {
    var mark: ChartMark
    public func _marks() -> [ChartMarkList] { [ChartMarkList(marks: [mark])] }
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, y: PlottableValue<Y>, stacking: MarkStackingMethod = .standard) { mark = plotted(.area, x, y) }
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, yStart: PlottableValue<Y>, yEnd: PlottableValue<Y>) {
        mark = plotted(.area, x, yEnd)
        mark.yStart = yStart.value
        mark.yEnd = yEnd.value
    }
    public init<X: Plottable, Y: Plottable, S: Plottable>(x: PlottableValue<X>, y: PlottableValue<Y>, series: PlottableValue<S>, stacking: MarkStackingMethod = .standard) {
        mark = plotted(.area, x, y)
        mark.series = series.value.category
    }
}

public struct BarMark: _PrimitiveChartContent {
    var mark: ChartMark
    public func _marks() -> [ChartMarkList] { [ChartMarkList(marks: [mark])] }
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, y: PlottableValue<Y>, width: MarkDimension = .automatic, height: MarkDimension = .automatic, stacking: MarkStackingMethod = .standard) {
        mark = plotted(.bar, x, y)
        mark.width = width.points
    }
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, yStart: PlottableValue<Y>, yEnd: PlottableValue<Y>, width: MarkDimension = .automatic) {
        mark = plotted(.bar, x, yEnd)
        mark.yStart = yStart.value
        mark.yEnd = yEnd.value
        mark.width = width.points
    }
    public init<X: Plottable, Y: Plottable>(xStart: PlottableValue<X>, xEnd: PlottableValue<X>, y: PlottableValue<Y>, height: MarkDimension = .automatic) {
        mark = plotted(.bar, xEnd, y)
        mark.xStart = xStart.value
        mark.xEnd = xEnd.value
    }
    /// One value along one axis: a bar the chart's length (`BarMark(x: .value("Steps", n))`).
    public init<X: Plottable>(x: PlottableValue<X>, height: MarkDimension = .automatic, stacking: MarkStackingMethod = .standard) {
        mark = plotted(.bar, x, Optional<PlottableValue<Int>>.none)
    }
    public init<Y: Plottable>(y: PlottableValue<Y>, width: MarkDimension = .automatic, stacking: MarkStackingMethod = .standard) {
        mark = plotted(.bar, Optional<PlottableValue<Int>>.none, y)
    }
}

public struct PointMark: _PrimitiveChartContent {
    var mark: ChartMark
    public func _marks() -> [ChartMarkList] { [ChartMarkList(marks: [mark])] }
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, y: PlottableValue<Y>) { mark = plotted(.point, x, y) }
}

public struct RuleMark: _PrimitiveChartContent {
    var mark: ChartMark
    public func _marks() -> [ChartMarkList] { [ChartMarkList(marks: [mark])] }
    public init<Y: Plottable>(y: PlottableValue<Y>) { mark = plotted(.rule, Optional<PlottableValue<Int>>.none, y) }
    public init<X: Plottable>(x: PlottableValue<X>) { mark = plotted(.rule, x, Optional<PlottableValue<Int>>.none) }
    public init<X: Plottable, Y: Plottable>(xStart: PlottableValue<X>, xEnd: PlottableValue<X>, y: PlottableValue<Y>) {
        mark = plotted(.rule, Optional<PlottableValue<Int>>.none, y)
        mark.xStart = xStart.value
        mark.xEnd = xEnd.value
    }
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, yStart: PlottableValue<Y>, yEnd: PlottableValue<Y>) {
        mark = plotted(.rule, x, Optional<PlottableValue<Int>>.none)
        mark.yStart = yStart.value
        mark.yEnd = yEnd.value
    }
}

public struct RectangleMark: _PrimitiveChartContent {
    var mark: ChartMark
    public func _marks() -> [ChartMarkList] { [ChartMarkList(marks: [mark])] }
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, y: PlottableValue<Y>, width: MarkDimension = .automatic, height: MarkDimension = .automatic) {
        mark = plotted(.rectangle, x, y)
        mark.width = width.points
        mark.height = height.points
    }
    public init<X: Plottable, Y: Plottable>(xStart: PlottableValue<X>, xEnd: PlottableValue<X>, yStart: PlottableValue<Y>, yEnd: PlottableValue<Y>) {
        mark = plotted(.rectangle, xEnd, yEnd)
        (mark.xStart, mark.xEnd, mark.yStart, mark.yEnd) = (xStart.value, xEnd.value, yStart.value, yEnd.value)
    }
}

/// A slice of a pie or a donut (iOS 17).
public struct SectorMark: _PrimitiveChartContent {
    var mark: ChartMark
    public func _marks() -> [ChartMarkList] { [ChartMarkList(marks: [mark])] }
    public init<V: Plottable>(angle: PlottableValue<V>, innerRadius: MarkDimension = .automatic, outerRadius: MarkDimension = .automatic, angularInset: CGFloat? = nil) {
        mark = ChartMark(kind: .sector)
        mark.angle = angle.value.position ?? 0
        mark.innerRatio = innerRadius.ratio ?? 0
        mark.angularInset = Double(angularInset ?? 0)
    }
}

/// A mark's size: automatic, in points, or a fraction of what it may take.
public struct MarkDimension: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, Sendable {
    let points: Double?
    let ratio: Double?
    public static let automatic = MarkDimension(points: nil, ratio: nil)
    public static func fixed(_ value: CGFloat) -> MarkDimension { MarkDimension(points: Double(value), ratio: nil) }
    public static func ratio(_ value: CGFloat) -> MarkDimension { MarkDimension(points: nil, ratio: Double(value)) }
    public static func inset(_ value: CGFloat) -> MarkDimension { .automatic }
    init(points: Double?, ratio: Double?) {
        self.points = points
        self.ratio = ratio
    }
    public init(integerLiteral value: Int) { self.init(points: Double(value), ratio: nil) }
    public init(floatLiteral value: Double) { self.init(points: value, ratio: nil) }
}

public struct MarkStackingMethod: Sendable, Equatable {
    let name: String
    public static let standard = MarkStackingMethod(name: "standard")
    public static let normalized = MarkStackingMethod(name: "normalized")
    public static let center = MarkStackingMethod(name: "center")
    public static let unstacked = MarkStackingMethod(name: "unstacked")
}

/// How a line or area passes through its points.
public struct InterpolationMethod: Sendable, Equatable {
    let name: String
    public static let linear = InterpolationMethod(name: "linear")
    public static let monotone = InterpolationMethod(name: "monotone")
    public static let catmullRom = InterpolationMethod(name: "catmullRom")
    public static let cardinal = InterpolationMethod(name: "cardinal")
    public static let stepStart = InterpolationMethod(name: "stepStart")
    public static let stepCenter = InterpolationMethod(name: "stepCenter")
    public static let stepEnd = InterpolationMethod(name: "stepEnd")
    public static func catmullRom(alpha: Double) -> InterpolationMethod { .catmullRom }
    public static func cardinal(tension: Double) -> InterpolationMethod { .cardinal }
}

/// A point mark's symbol (drawn as a dot).
public struct BasicChartSymbolShape: Sendable {
    public static let circle = BasicChartSymbolShape()
    public static let square = BasicChartSymbolShape()
    public static let triangle = BasicChartSymbolShape()
    public static let diamond = BasicChartSymbolShape()
    public static let pentagon = BasicChartSymbolShape()
    public static let plus = BasicChartSymbolShape()
    public static let cross = BasicChartSymbolShape()
    public static let asterisk = BasicChartSymbolShape()
}

// MARK: - Mark modifiers

/// Content with its marks changed by a modifier.
public struct _ModifiedMarks<Content: ChartContent>: _PrimitiveChartContent {
    let content: Content
    let change: (inout ChartMark) -> Void
    public func _marks() -> [ChartMarkList] {
        content._marks().map { list in ChartMarkList(marks: list.marks.map { mark in
            var mark = mark
            change(&mark)
            return mark
        }) }
    }
}

extension ChartContent {
    func changed(_ change: @escaping (inout ChartMark) -> Void) -> _ModifiedMarks<Self> { _ModifiedMarks(content: self, change: change) }

    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some ChartContent {
        let paint = AnyShapeStyle(style)
        return changed { $0.paint = paint }
    }

    /// Marks coloured by a value: each value a series of its own, in the chart's palette.
    public func foregroundStyle<D: Plottable>(by value: PlottableValue<D>) -> some ChartContent {
        let series = value.value.category
        return changed { $0.series = series }
    }

    public func position<P: Plottable>(by value: PlottableValue<P>, axis: Axis? = nil, span: MarkDimension = .automatic) -> some ChartContent {
        let series = value.value.category
        return changed { $0.series = $0.series ?? series }
    }

    public func interpolationMethod(_ method: InterpolationMethod) -> some ChartContent { changed { $0.interpolation = method } }

    public func lineStyle(_ style: StrokeStyle) -> some ChartContent {
        let (width, dash) = (Double(style.lineWidth), style.dash.map(Double.init))
        return changed {
            $0.lineWidth = width
            $0.dash = dash
        }
    }

    public func symbol(_ symbol: BasicChartSymbolShape) -> some ChartContent { changed { $0.showsSymbol = true } }
    public func symbol<S: ShapeStyle>(_ symbol: BasicChartSymbolShape, strokeStyle: S) -> some ChartContent { changed { $0.showsSymbol = true } }
    public func symbol<V: View>(@ViewBuilder symbol: () -> V) -> some ChartContent { changed { $0.showsSymbol = true } }
    public func symbolSize(_ size: CGFloat) -> some ChartContent {
        let size = Double(size)
        return changed { $0.symbolSize = size }
    }
    public func symbolSize(_ size: CGSize) -> some ChartContent {
        let area = Double(size.width * size.height)
        return changed { $0.symbolSize = area }
    }
    public func symbolSize<D: Plottable>(by value: PlottableValue<D>) -> some ChartContent { self }
    public func cornerRadius(_ radius: CGFloat, style: RoundedCornerStyle = .continuous) -> some ChartContent {
        let radius = Double(radius)
        return changed { $0.cornerRadius = radius }
    }
    public func opacity(_ opacity: Double) -> some ChartContent { changed { $0.opacity *= opacity } }

    // What a drawing does not show, returned as it is: labels read aloud, annotations (drawn by the author's view
    // in a chart on iOS), and the rest of the accessibility of a mark.
    public func annotation<C: View>(position: AnnotationPosition = .automatic, alignment: Alignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> C) -> some ChartContent { self }
    public func accessibilityLabel(_ label: Text) -> some ChartContent { self }
    public func accessibilityLabel(_ label: LocalizedStringKey) -> some ChartContent { self }
    public func accessibilityValue(_ value: Text) -> some ChartContent { self }
    public func accessibilityValue(_ value: LocalizedStringKey) -> some ChartContent { self }
    public func accessibilityHidden(_ hidden: Bool) -> some ChartContent { self }
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some ChartContent { self }
    public func zIndex(_ value: Double) -> some ChartContent { self }
    public func alignsMarkStylesWithPlotArea(_ aligns: Bool = true) -> some ChartContent { self }
}

public struct AnnotationPosition: Sendable {
    public static let automatic = AnnotationPosition()
    public static let top = AnnotationPosition()
    public static let bottom = AnnotationPosition()
    public static let leading = AnnotationPosition()
    public static let trailing = AnnotationPosition()
    public static let overlay = AnnotationPosition()
    public static let topLeading = AnnotationPosition()
    public static let topTrailing = AnnotationPosition()
    public static let bottomLeading = AnnotationPosition()
    public static let bottomTrailing = AnnotationPosition()
}
