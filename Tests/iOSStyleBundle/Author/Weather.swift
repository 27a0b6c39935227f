// The widget of an author's package as the README describes one: a package depending on this
// repository by path (build.sh builds it as a target of the package it makes). Only `import WidgetKit`: Date and the rest must come with it, as on iOS.
import WidgetKit

struct WeatherEntry: TimelineEntry {
    let date: Date
    let temperature: Int
}

struct WeatherProvider: TimelineProvider {
    func placeholder(in context: Context) -> WeatherEntry { WeatherEntry(date: Date(), temperature: 20) }

    func getSnapshot(in context: Context, completion: @escaping (WeatherEntry) -> ()) {
        completion(WeatherEntry(date: Date(), temperature: 18))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<WeatherEntry>) -> ()) {
        // Answer from a Task, after returning, as async data loading does.
        Task {
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let entries = (0..<3).map { WeatherEntry(date: start.addingTimeInterval(Double($0) * 3600), temperature: 15 + $0) }
            completion(Timeline(entries: entries, policy: .atEnd))
        }
    }
}

struct WeatherWidget: Widget {
    let kind: String = "com.example.weather"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: WeatherProvider()) { entry in
            WeatherView(entry: entry)
        }
        .configurationDisplayName("Weather")
        .description("Temperature, hour by hour.")
        .contentMarginsDisabled()
    }
}
