import OSLog
import SwiftUI
import WidgetKit

private let logger = Logger(subsystem: "org.example.ioswidgets", category: "Weather")

struct WeatherEntry: TimelineEntry {
    let date: Date
    let city: String
    let temperature: Double
    let condition: String
}

// Completes on the main queue, as providers that hop back after a fetch do (runtime bug 1). The
// completions are `@Sendable`, as Swift 6 mode needs of a completion called from another queue (on
// Xcode too).
struct WeatherProvider: TimelineProvider {
    func placeholder(in context: Context) -> WeatherEntry {
        WeatherEntry(date: .now, city: "Lisbon", temperature: 21, condition: "sun.max.fill")
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (WeatherEntry) -> Void) {
        DispatchQueue.main.async {
            completion(placeholder(in: context))
        }
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<WeatherEntry>) -> Void) {
        logger.info("building the timeline")
        DispatchQueue.main.async {
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let entries = (0..<3).map { hour in
                WeatherEntry(
                    date: start.addingTimeInterval(Double(hour) * 3600), city: "Lisbon", temperature: 19 + Double(hour),
                    condition: "cloud.sun.fill")
            }
            completion(Timeline(entries: entries, policy: .atEnd))
        }
    }
}

struct WeatherWidgetEntryView: View {
    var entry: WeatherProvider.Entry
    @Environment(\.widgetFamily) private var family

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Label(entry.city, systemImage: "location.fill")
                .font(.caption)
                .fixedSize()
            Text("\(entry.temperature, specifier: "%.0f")°")
                .font(.system(size: 44, weight: .semibold))
                .minimumScaleFactor(0.5)
                .lineLimit(1)
            Spacer()
            HStack {
                Image(systemName: entry.condition)
                    .resizable()
                    .aspectRatio(contentMode: .fit)
                    .frame(width: 20, height: 20)
                Text(entry.date, style: .time)
                    .foregroundStyle(.secondary)
                    .layoutPriority(1)
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .overlay(alignment: .topTrailing) {
            Circle()
                .fill(Color.orange.opacity(0.8))
                .frame(width: 10, height: 10)
        }
        .containerBackground(for: .widget) {
            LinearGradient(colors: [.blue.opacity(0.3), .teal.opacity(0.2)], startPoint: .top, endPoint: .bottom)
        }
    }
}

struct WeatherWidget: Widget {
    let kind: String = "org.example.weather"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: WeatherProvider()) { entry in
            WeatherWidgetEntryView(entry: entry)
        }
        .configurationDisplayName(Text("Weather"))
        .description(Text("The temperature where you are."))
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

#Preview(as: .systemSmall) {
    WeatherWidget()
} timeline: {
    WeatherEntry(date: .now, city: "Porto", temperature: 17, condition: "cloud.rain.fill")
    WeatherEntry(date: .now, city: "Faro", temperature: 26, condition: "sun.max.fill")
}

// A view's preview with state, as Xcode 16 writes it.
#Preview("Forecast line") {
    @Previewable @State var city = "Porto"
    Text(city).font(.headline)
}
