import Charts
import Foundation
import Testing
import WidgetRendering
import WidgetWire

@testable import WidgetKit

/// Swift Charts as widget code writes it, drawn: marks become shapes in the plot, the axes' values
/// texts beside it, a legend below when marks are coloured by a value.
@Suite struct ChartsTests {
    struct Price: Identifiable {
        let id: Int
        let value: Double
    }

    struct Sale {
        let month: String
        let store: String
        let amount: Int
    }

    func resolve(_ view: some View) -> ViewNode {
        var environment = EnvironmentValues()
        environment.widgetFamily = .systemMedium
        return ViewResolver.root(of: view, in: environment)
    }

    func all(_ node: ViewNode) -> [ViewNode] { [node] + node.children.flatMap(all) }
    func texts(_ node: ViewNode) -> [String] { all(node).compactMap { $0.view == "text" ? $0["text"]?.stringValue : nil } }
    func paths(_ node: ViewNode) -> [ViewNode] { all(node).filter { $0.view == "shape" && $0["shape"] == .string("path") } }

    static let prices = (0..<6).map { Price(id: $0, value: [3, 7, 4, 9, 6, 8][$0]) }

    @Test func aLineChartIsALineThroughItsPointsWithTheAxesValues() throws {
        let chart = resolve(
            Chart(Self.prices) { price in
                LineMark(x: .value("Day", price.id), y: .value("Price", price.value))
                    .interpolationMethod(.catmullRom)
            })
        let shapes = paths(chart)
        // The grid and the line.
        #expect(shapes.count == 2, "\(shapes.map(\.json.jsonText))")
        let line = try #require(shapes.last)
        #expect(line["stroke"]?["lineWidth"] == .number(2) && line["stroke"]?["paint"] == .string("blue"), "\(line.json.jsonText)")
        #expect(line["path"]?.arrayValue?.filter { $0.arrayValue?.first == .string("C") }.count == 5, "a curve between each two of six points")
        // Below, x's values (0 to 6 in steps of 2); at the trailing edge y's, top down (Swift Charts'
        // scale includes zero: 0 to 10 in steps of 5).
        #expect(texts(chart) == ["0", "2", "4", "6", "10", "5", "0"], "\(texts(chart))")
    }

    @Test func barsOfSeveralSeriesStackAndAreNamedInALegend() throws {
        let sales = [Sale(month: "Jan", store: "A", amount: 4), Sale(month: "Jan", store: "B", amount: 2), Sale(month: "Feb", store: "A", amount: 5),
                     Sale(month: "Feb", store: "B", amount: 1)]
        let chart = resolve(
            Chart(sales, id: \.month) { sale in
                BarMark(x: .value("Month", sale.month), y: .value("Amount", sale.amount))
                    .foregroundStyle(by: .value("Store", sale.store))
            })
        let bars = paths(chart).dropFirst()
        #expect(bars.count == 2, "one shape per series")
        // B's Jan bar (2) stands on A's (4): its bottom where A's top is.
        func points(_ shape: ViewNode) -> [Double] { shape["path"]?.arrayValue?.flatMap { $0.arrayValue?.compactMap(\.numberValue) ?? [] } ?? [] }
        let aTops = Set(points(bars[bars.startIndex]).enumerated().filter { $0.offset % 2 == 1 }.map { ($0.element * 10).rounded() })
        let bBottoms = Set(points(bars[bars.startIndex + 1]).enumerated().filter { $0.offset % 2 == 1 }.map { ($0.element * 10).rounded() })
        #expect(!aTops.intersection(bBottoms).isEmpty, "stacked: \(aTops) \(bBottoms)")
        #expect(bars.map { $0["fill"] } == [.string("blue"), .string("green")])
        // Each series' two bars; the second series' stand on the first's (4 + 2 = 6 reaches the top tick, 6).
        #expect(bars.allSatisfy { $0["path"]?.arrayValue?.filter { $0.arrayValue?.first == .string("M") }.count == 2 })
        #expect(texts(chart) == ["Jan", "Feb", "6", "4", "2", "0", "A", "B"], "\(texts(chart))")
    }

    @Test func hiddenAxesAndAScaleOfTheAuthorsOwn() {
        let bare = resolve(
            Chart(Self.prices) { LineMark(x: .value("Day", $0.id), y: .value("Price", $0.value)) }
                .chartXAxis(.hidden).chartYAxis(.hidden))
        #expect(texts(bare).isEmpty && paths(bare).count == 1, "the line alone")
        let scaled = resolve(
            Chart(Self.prices) { LineMark(x: .value("Day", $0.id), y: .value("Price", $0.value)) }
                .chartYScale(domain: 2...10))
        #expect(texts(scaled).suffix(3) == ["10", "6", "2"], "\(texts(scaled))")
    }

    @Test func sectorsMakeAPieOrADonut() {
        let donut = resolve(
            Chart {
                SectorMark(angle: .value("Done", 3), innerRadius: .ratio(0.6)).foregroundStyle(.green)
                SectorMark(angle: .value("Left", 1), innerRadius: .ratio(0.6)).foregroundStyle(.gray)
            })
        let sectors = paths(donut)
        #expect(sectors.map { $0["fill"] } == [.string("green"), .string("gray")])
        #expect(texts(donut).isEmpty)
        // A donut's sectors have an inner arc too: more to their outlines than a pie's.
        let pie = resolve(
            Chart {
                SectorMark(angle: .value("Done", 3)).foregroundStyle(.green)
                SectorMark(angle: .value("Left", 1)).foregroundStyle(.gray)
            })
        let commands = { (node: ViewNode) in node["path"]?.arrayValue?.count ?? 0 }
        #expect(zip(sectors, paths(pie)).allSatisfy { commands($0) > commands($1) }, "\(sectors.map(commands)) against \(paths(pie).map(commands))")
    }

    @Test func aChartIsDrawnInSVG() {
        var environment = EnvironmentValues()
        environment.widgetFamily = .systemMedium
        let node = ViewResolver.root(
            of: Chart(Self.prices) { price in
                AreaMark(x: .value("Day", price.id), y: .value("Price", price.value)).foregroundStyle(.blue.opacity(0.3))
                LineMark(x: .value("Day", price.id), y: .value("Price", price.value))
                PointMark(x: .value("Day", price.id), y: .value("Price", price.value))
                RuleMark(y: .value("Goal", 6)).foregroundStyle(.red).lineStyle(StrokeStyle(lineWidth: 1, dash: [3, 3]))
            }, in: environment)
        let svg = SVGRenderer(appearance: .light).render(node, family: .systemMedium)
        #expect(svg.components(separatedBy: "<path").count > 5, "\(svg)")
        #expect(svg.contains(">10</text>"), "\(svg)")
        #expect(svg.contains(#"stroke-dasharray="3 3""#), "the rule's dashes: \(svg)")
    }

    /// What a chart's data may hold, drawn without a crash or a wrong axis: huge values, numbers
    /// that are not finite (left out), a grid of categories (a heat map), one value along x alone.
    @Test func unusualDataIsDrawnAsWellAsItCanBe() {
        let huge = resolve(Chart { BarMark(x: .value("K", "a"), y: .value("V", 1e30)) })
        #expect(texts(huge).contains { $0.contains("e+") || $0.contains("B") }, "\(texts(huge))")
        let notFinite = resolve(
            Chart {
                LineMark(x: .value("X", 1), y: .value("Y", 2.0))
                LineMark(x: .value("X", 2), y: .value("Y", Double.nan))
                LineMark(x: .value("X", 3), y: .value("Y", 4.0))
            })
        #expect(!texts(notFinite).contains("nan"), "not a category axis: \(texts(notFinite))")
        let heat = resolve(
            Chart {
                RectangleMark(x: .value("Day", "Mon"), y: .value("Hour", "AM")).foregroundStyle(.red)
                RectangleMark(x: .value("Day", "Tue"), y: .value("Hour", "PM")).foregroundStyle(.red)
            })
        let cells = paths(heat).last?["path"]?.arrayValue?.filter { $0.arrayValue?.first == .string("M") }.count
        #expect(cells == 2, "two cells of the grid")
        let single = resolve(Chart { BarMark(x: .value("Steps", 6500)) }.chartYAxis(.hidden))
        // Drawn last, over the axis' grid, in the first series' colour (a grid's path is not filled).
        #expect(paths(single).last?["fill"] == .string("blue"), "one bar: \(paths(single).map { $0["fill"] })")
        #expect(paths(single).last?["path"]?.arrayValue?.isEmpty == false)
    }
}
