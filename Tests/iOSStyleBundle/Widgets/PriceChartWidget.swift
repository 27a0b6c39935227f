// A price chart widget as iOS code writes one with Swift Charts (iOS 16): an area under a smooth
// line, the axes hidden in the small size, a dashed rule at the average.
import Charts
import SwiftUI
import WidgetKit

struct PricePoint: Identifiable {
    let id: Int
    let hour: Date
    let price: Double
}

struct PriceChartEntry: TimelineEntry {
    let date: Date
    let points: [PricePoint]
}

struct PriceChartProvider: TimelineProvider {
    static func points(at date: Date) -> [PricePoint] {
        let prices = [61.2, 62.8, 62.1, 64.9, 66.0, 65.2, 67.4, 69.1]
        return prices.enumerated().map { PricePoint(id: $0.offset, hour: date.addingTimeInterval(Double($0.offset - 7) * 3600), price: $0.element) }
    }

    func placeholder(in context: Context) -> PriceChartEntry { PriceChartEntry(date: .now, points: Self.points(at: .now)) }
    func getSnapshot(in context: Context, completion: @escaping (PriceChartEntry) -> Void) { completion(placeholder(in: context)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<PriceChartEntry>) -> Void) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .after(.now.addingTimeInterval(3600))))
    }
}

struct PriceChartView: View {
    @Environment(\.widgetFamily) var family
    let entry: PriceChartEntry

    var average: Double { entry.points.map(\.price).reduce(0, +) / Double(entry.points.count) }

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text("ACME").font(.headline)
            Text(entry.points.last?.price ?? 0, format: .currency(code: "USD")).font(.caption).foregroundStyle(.secondary)
            Chart {
                ForEach(entry.points) { point in
                    AreaMark(x: .value("Hour", point.hour), y: .value("Price", point.price))
                        .foregroundStyle(.linearGradient(colors: [.green.opacity(0.4), .green.opacity(0.05)], startPoint: .top, endPoint: .bottom))
                        .interpolationMethod(.catmullRom)
                    LineMark(x: .value("Hour", point.hour), y: .value("Price", point.price))
                        .foregroundStyle(.green)
                        .interpolationMethod(.catmullRom)
                }
                RuleMark(y: .value("Average", average))
                    .lineStyle(StrokeStyle(lineWidth: 1, dash: [3, 3]))
                    .foregroundStyle(.secondary)
            }
            .chartYScale(domain: 60...70)
            .chartXAxis(family == .systemSmall ? .hidden : .automatic)
            .chartYAxis(family == .systemSmall ? .hidden : .automatic)
        }
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

struct PriceChartWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.example.price-chart", provider: PriceChartProvider()) { entry in
            PriceChartView(entry: entry)
        }
        .configurationDisplayName("Price Chart")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}
