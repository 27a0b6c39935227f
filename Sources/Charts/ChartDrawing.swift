import Foundation

// How a chart is drawn: its marks as shapes in a plot (points placed by its scales, ChartScale.swift, in a unit
// square whose y runs up), the axes' values as texts beside it, grid lines behind, a legend below.

/// Swift Charts' colours for series, in order.
let seriesPalette: [Color] = [.blue, .green, .orange, .purple, .red, .cyan, .yellow, .brown, .pink, .indigo]

/// What the chart draws, made once from its marks and options.
struct ChartDrawing: View {
    let marks: [ChartMark]
    let options: ChartOptions
    /// The series in order of first appearance ("" for marks not coloured by a value): found once,
    /// as every mark's colour is looked up in it.
    let series: [String]
    @Environment(\.widgetFamily) private var family

    init(marks: [ChartMark], options: ChartOptions) {
        self.marks = marks
        self.options = options
        var seen: [String] = []
        for mark in marks where !seen.contains(mark.series ?? "") { seen.append(mark.series ?? "") }
        series = seen
    }

    /// The plot's width, near enough: the widget's less its margins and the y axis's values.
    var plotWidth: Double { Double(family.displaySize.width) - 32 - (options.yAxisHidden ? 0 : 28) }

    var body: some View {
        if marks.contains(where: { $0.kind == .sector }) {
            pie
        } else {
            plotted
        }
    }

    func style(of mark: ChartMark, index: Int? = nil) -> AnyShapeStyle {
        let base: AnyShapeStyle
        if let paint = mark.paint {
            base = paint
        } else if let name = mark.series, let given = options.styles[name] {
            base = given
        } else {
            let position = index ?? (series.firstIndex(of: mark.series ?? "") ?? 0)
            base = AnyShapeStyle(seriesPalette[position % seriesPalette.count])
        }
        return mark.opacity < 1 ? AnyShapeStyle(base.opacity(mark.opacity)) : base
    }

    // MARK: Pie

    @ViewBuilder var pie: some View {
        let sectors = marks.filter { $0.kind == .sector && ($0.angle ?? 0) > 0 }
        let total = sectors.reduce(0) { $0 + ($1.angle ?? 0) }
        let inner = sectors.first?.innerRatio ?? 0
        // Each sector from where the ones before it end.
        let ends = sectors.reduce(into: [0.0]) { $0.append($0.last! + ($1.angle ?? 0) / total) }
        let layers = sectors.enumerated().map { index, mark -> (PlotShape, AnyShapeStyle) in
            let (start, end) = (ends[index], ends[index + 1])
            let inset = min(mark.angularInset / 360, (end - start) / 4)
            return (PlotShape(figure: .sectors([(start + inset, end - inset)], inner: inner)), style(of: mark, index: index))
        }
        VStack(spacing: 6) {
            ZStack {
                ForEach(0..<layers.count, id: \.self) { index in
                    layers[index].0.fill(layers[index].1)
                }
            }
            .aspectRatio(1, contentMode: .fit)
            legend
        }
    }

    // MARK: Plot

    var xScale: ChartScale {
        let values = marks.flatMap { [$0.x, $0.xStart, $0.xEnd].compactMap { $0 } }
        // Bars along x (a category on y, or x alone) start at zero.
        let zero = marks.contains { $0.kind == .bar && ($0.y == nil || $0.y?.position == nil) }
        return ChartScale.make(
            values, domain: options.xDomain, categories: options.xCategories, zero: zero, unit: marks.lazy.compactMap(\.xUnit).first)
    }

    var yScale: ChartScale {
        var values = marks.flatMap { [$0.y, $0.yStart, $0.yEnd].compactMap { $0 } }
        // Stacked bars reach their sums.
        for total in stackTotals.values { values.append(.number(total)) }
        let horizontalBars = marks.contains { $0.kind == .bar && $0.y?.position == nil && $0.y != nil }
        return ChartScale.make(
            values, domain: options.yDomain, categories: options.yCategories, zero: !horizontalBars, unit: marks.lazy.compactMap(\.yUnit).first)
    }

    /// Each x's bars' sum, where bars of several series share an x (they stack, as Swift Charts stacks them).
    var stackTotals: [String: Double] { stackSums { _ in true } }

    /// Each x's sum of the bars of the series `counts` takes (by their series' place in `series`).
    func stackSums(_ counts: (Int) -> Bool) -> [String: Double] {
        var sums: [String: Double] = [:]
        for mark in marks where mark.kind == .bar && mark.yStart == nil && counts(series.firstIndex(of: mark.series ?? "") ?? 0) {
            guard let x = mark.x, let y = mark.y?.position else { continue }
            sums[x.category, default: 0] += y
        }
        return sums
    }

    @ViewBuilder var plotted: some View {
        let (x, y) = (xScale, yScale)
        let layers = layers(x, y)
        let showsX = !options.xAxisHidden
        let showsY = !options.yAxisHidden
        VStack(alignment: .leading, spacing: 6) {
            HStack(alignment: .top, spacing: 4) {
                VStack(spacing: 4) {
                    ZStack {
                        if showsY || showsX { grid(x, y, showsX: showsX, showsY: showsY) }
                        ForEach(0..<layers.count, id: \.self) { index in
                            layers[index]
                        }
                    }
                    if showsX { xLabels(x) }
                }
                if showsY {
                    yLabels(y)
                        .fixedSize(horizontal: true, vertical: false)
                        .padding(.bottom, showsX ? 17 : 0)
                }
            }
            legend
        }
    }

    /// Grid lines: at each y tick across, and at each x tick (or between bands) down.
    func grid(_ x: ChartScale, _ y: ChartScale, showsX: Bool, showsY: Bool) -> some View {
        var segments: [(CGPoint, CGPoint)] = []
        if showsY, y.categories == nil {
            for tick in y.ticks { segments.append((CGPoint(x: 0, y: y.fraction(of: tick)), CGPoint(x: 1, y: y.fraction(of: tick)))) }
        }
        if showsX, x.categories == nil {
            for tick in x.ticks { segments.append((CGPoint(x: x.fraction(of: tick), y: 0), CGPoint(x: x.fraction(of: tick), y: 1))) }
        } else if showsX {
            segments.append((CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0)))
        }
        return PlotShape(figure: .segments(segments)).stroke(Color.gray.opacity(0.35), lineWidth: 0.5)
    }

    /// The y axis's values at its trailing edge, each at its grid line (the top one below it, the
    /// others above), or a category's centred in its band.
    @ViewBuilder func yLabels(_ y: ChartScale) -> some View {
        if let categories = y.categories {
            VStack(alignment: .leading, spacing: 0) {
                ForEach(Array(categories.reversed().enumerated()), id: \.offset) { _, name in
                    Text(name).frame(maxHeight: .infinity)
                }
            }
            .font(.caption2)
            .foregroundStyle(.secondary)
        } else {
            let labels = y.ticks.reversed().map(y.label)
            VStack(alignment: .leading, spacing: 0) {
                ForEach(Array(labels.dropLast().enumerated()), id: \.offset) { index, label in
                    if index == labels.count - 2 {
                        ZStack(alignment: .topLeading) {
                            Text(label).frame(maxHeight: .infinity, alignment: .top)
                            Text(labels[labels.count - 1]).frame(maxHeight: .infinity, alignment: .bottom)
                        }
                    } else {
                        Text(label).frame(maxHeight: .infinity, alignment: .top)
                    }
                }
            }
            .font(.caption2)
            .foregroundStyle(.secondary)
        }
    }

    /// The x axis's values below the plot: each category centred in its band, else the first
    /// value at the start, the middle one centred, the last at the end.
    @ViewBuilder func xLabels(_ x: ChartScale) -> some View {
        if let categories = x.categories {
            HStack(spacing: 0) {
                ForEach(Array(categories.enumerated()), id: \.offset) { _, name in
                    Text(name).lineLimit(1).frame(maxWidth: .infinity)
                }
            }
            .font(.caption2)
            .foregroundStyle(.secondary)
        } else {
            let labels = x.ticks.map(x.label)
            HStack(spacing: 0) {
                ForEach(Array(labels.enumerated()), id: \.offset) { index, label in
                    if index > 0 { Spacer(minLength: 4) }
                    Text(label).lineLimit(1)
                }
            }
            .font(.caption2)
            .foregroundStyle(.secondary)
        }
    }

    @ViewBuilder var legend: some View {
        let names = series.filter { !$0.isEmpty }
        if !options.legendHidden, !names.isEmpty {
            HStack(spacing: 8) {
                ForEach(Array(names.enumerated()), id: \.offset) { index, name in
                    HStack(spacing: 3) {
                        Circle().fill(style(of: marks.first { $0.series == name } ?? ChartMark(kind: .point), index: series.firstIndex(of: name)))
                            .frame(width: 7, height: 7)
                        Text(name).lineLimit(1)
                    }
                }
            }
            .font(.caption2)
            .foregroundStyle(.secondary)
        }
    }

    /// The marks as shapes, areas under bars under lines under rules under points.
    func layers(_ x: ChartScale, _ y: ChartScale) -> [AnyView] {
        var layers: [(order: Int, view: AnyView)] = []
        let baseline = y.categories == nil ? min(max(y.fraction(of: 0), 0), 1) : 0
        for name in series {
            let own = marks.filter { ($0.series ?? "") == name }
            for kind in [ChartMark.Kind.area, .line] {
                let chosen = own.filter { $0.kind == kind }
                guard let first = chosen.first else { continue }
                let points = chosen.compactMap { mark -> (CGPoint, CGPoint?)? in
                    guard let fx = x.fraction(mark.x), let fy = y.fraction(mark.y) else { return nil }
                    let bottom = y.fraction(mark.yStart).map { CGPoint(x: fx, y: $0) }
                    return (CGPoint(x: fx, y: fy), bottom)
                }.sorted { $0.0.x < $1.0.x }
                guard !points.isEmpty else { continue }
                let paint = style(of: first)
                if kind == .line {
                    let shape = PlotShape(figure: .line(points.map(\.0), first.interpolation))
                    let line = StrokeStyle(lineWidth: CGFloat(first.lineWidth ?? 2), dash: first.dash.map { CGFloat($0) })
                    layers.append((2, AnyView(shape.stroke(paint, style: line))))
                    if first.showsSymbol || first.symbolSize != nil {
                        layers.append((4, AnyView(PlotShape(figure: .dots(points.map(\.0), radius: dotRadius(first))).fill(paint))))
                    }
                } else {
                    let bottom = points.map { $0.1 ?? CGPoint(x: $0.0.x, y: baseline) }
                    layers.append((0, AnyView(PlotShape(figure: .area(top: points.map(\.0), bottom: bottom, first.interpolation)).fill(paint))))
                }
            }
            let bars = own.filter { $0.kind == .bar || $0.kind == .rectangle }
            if let first = bars.first {
                layers.append((1, AnyView(PlotShape(figure: .rects(rects(bars, x, y, baseline: baseline), cornerRadius: first.cornerRadius)).fill(style(of: first)))))
            }
            let points = own.filter { $0.kind == .point }
            if let first = points.first {
                let placed = points.compactMap { mark -> CGPoint? in
                    guard let fx = x.fraction(mark.x), let fy = y.fraction(mark.y) else { return nil }
                    return CGPoint(x: fx, y: fy)
                }
                layers.append((4, AnyView(PlotShape(figure: .dots(placed, radius: dotRadius(first))).fill(style(of: first)))))
            }
            for rule in own where rule.kind == .rule {
                var segment: (CGPoint, CGPoint)?
                if let fy = y.fraction(rule.y) {
                    segment = (CGPoint(x: x.fraction(rule.xStart) ?? 0, y: fy), CGPoint(x: x.fraction(rule.xEnd) ?? 1, y: fy))
                } else if let fx = x.fraction(rule.x) {
                    segment = (CGPoint(x: fx, y: y.fraction(rule.yStart) ?? 0), CGPoint(x: fx, y: y.fraction(rule.yEnd) ?? 1))
                }
                guard let segment else { continue }
                let line = StrokeStyle(lineWidth: CGFloat(rule.lineWidth ?? 1), dash: rule.dash.map { CGFloat($0) })
                layers.append((3, AnyView(PlotShape(figure: .segments([segment])).stroke(style(of: rule), style: line))))
            }
        }
        return layers.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element.view)
    }

    /// A point's radius: Swift Charts' symbol size is an area in square points (30 by default).
    func dotRadius(_ mark: ChartMark) -> Double { ((mark.symbolSize ?? 30) / .pi).squareRoot() }

    /// Bars as rectangles in the unit square: in their band (or a share of the plot), from the
    /// baseline or the stack below them, across (a category on y) or up.
    func rects(_ bars: [ChartMark], _ x: ChartScale, _ y: ChartScale, baseline: Double) -> [CGRect] {
        // What the series before this one stacked at each x.
        let place = series.firstIndex(of: bars.first?.series ?? "") ?? 0
        let stacked = stackSums { $0 < place }
        let count = Set(marks.filter { $0.kind == .bar }.compactMap { $0.x?.category }).count
        return bars.compactMap { mark in
            if mark.kind == .rectangle, x.categories != nil || y.categories != nil, let fx = x.fraction(mark.x), let fy = y.fraction(mark.y) {
                // A cell of a grid (a heat map): its band on each axis, or its given size.
                let width = x.categories != nil ? x.band(count: count) : (mark.width.map { $0 / max(40, plotWidth) } ?? 0.05)
                let height = y.categories != nil ? y.band(count: 1) : 0.1
                return CGRect(x: fx - width / 2, y: fy - height / 2, width: width, height: height)
            }
            if mark.y == nil, let end = x.fraction(mark.x) {
                // One value along x alone (`BarMark(x:)`): a bar across the plot's middle.
                let start = min(max(x.fraction(of: 0), 0), 1)
                return CGRect(x: min(start, end), y: 0.2, width: abs(end - start), height: 0.6)
            }
            if y.categories != nil, x.categories == nil {
                // A horizontal bar: a category on y, a value along x.
                guard let fy = y.fraction(mark.y) else { return nil }
                let thickness = y.band(count: count) * 0.6
                let start = x.fraction(mark.xStart) ?? min(max(x.fraction(of: 0), 0), 1)
                let end = x.fraction(mark.xEnd ?? mark.x) ?? start
                return CGRect(x: min(start, end), y: fy - thickness / 2, width: abs(end - start), height: thickness)
            }
            let width = x.band(count: count) * (x.categories == nil ? 0.8 : 0.6)
            let fx: Double
            if let xStart = x.fraction(mark.xStart), let xEnd = x.fraction(mark.xEnd) {
                return CGRect(
                    x: min(xStart, xEnd), y: y.fraction(mark.yStart) ?? baseline, width: abs(xEnd - xStart),
                    height: (y.fraction(mark.yEnd ?? mark.y) ?? baseline) - (y.fraction(mark.yStart) ?? baseline))
            } else if let unitStart = x.fraction(mark.x), mark.xUnit != nil, x.categories == nil,
                let position = mark.x?.position, let unit = mark.xUnit,
                let next = Calendar.current.date(byAdding: unit, value: 1, to: Date(timeIntervalSince1970: position))
            {
                // A date's bar spans its unit, less a gap.
                let span = x.fraction(of: next.timeIntervalSince1970) - unitStart
                return barRect(x: unitStart + span * 0.1, width: span * 0.8, mark, y, baseline: baseline, stacked: stacked)
            } else if let center = x.fraction(mark.x) {
                fx = center
            } else {
                return nil
            }
            // A fixed width in points, against the plot's width: the widget's less its margins and
            // the y axis's values (the plot's own width is the host's to find).
            let given = mark.width.map { $0 / max(40, plotWidth) }
            let barWidth = given ?? width
            return barRect(x: fx - barWidth / 2, width: barWidth, mark, y, baseline: baseline, stacked: stacked)
        }
    }

    func barRect(x: Double, width: Double, _ mark: ChartMark, _ y: ChartScale, baseline: Double, stacked: [String: Double]) -> CGRect? {
        if let start = y.fraction(mark.yStart), let end = y.fraction(mark.yEnd ?? mark.y) {
            return CGRect(x: x, y: min(start, end), width: width, height: abs(end - start))
        }
        guard let value = mark.y?.position else { return nil }
        let below = stacked[mark.x?.category ?? ""] ?? 0
        let bottom = below == 0 ? baseline : y.fraction(of: below)
        let top = y.fraction(of: below + value)
        return CGRect(x: x, y: min(bottom, top), width: width, height: abs(top - bottom))
    }
}
