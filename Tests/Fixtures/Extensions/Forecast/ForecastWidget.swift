// A widget extension's folder as Xcode keeps it, built by `widgets build` in the tests
// (Tests/WidgetsCLITests/ExtensionBuildTests.swift): its resources are what it reads.
import SwiftUI
import WidgetKit

struct ForecastEntry: TimelineEntry {
    let date: Date
    let sunnyDays: Int
    let temperature: Int
}

struct ForecastProvider: TimelineProvider {
    func placeholder(in context: Context) -> ForecastEntry {
        ForecastEntry(date: Date(), sunnyDays: 1, temperature: 20)
    }

    func getSnapshot(in context: Context, completion: @escaping (ForecastEntry) -> ()) {
        completion(ForecastEntry(date: Date(), sunnyDays: 3, temperature: 21))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<ForecastEntry>) -> ()) {
        Counter.count("timelines")
        completion(Timeline(entries: [ForecastEntry(date: Date(), sunnyDays: 1, temperature: ForecastModel().currentTemperature())], policy: .never))
    }
}

/// Counts in the app group's container: what the tests read of the widget's life.
enum Counter {
    static let group = "group.org.example.forecast"

    static func url(_ name: String) -> URL? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)?.appendingPathComponent(name)
    }

    static func value(_ name: String) -> Int {
        url(name).flatMap { try? String(contentsOf: $0, encoding: .utf8) }.flatMap { Int($0) } ?? 0
    }

    static func count(_ name: String) {
        guard let url = url(name) else { return }
        try? String(value(name) + 1).write(to: url, atomically: true, encoding: .utf8)
    }
}

struct ForecastView: View {
    var entry: ForecastEntry
    private var city: String { Bundle.main.object(forInfoDictionaryKey: "ForecastCity") as? String ?? "nowhere" }

    var body: some View {
        VStack(alignment: .leading) {
            Text("forecast.title").foregroundColor(Color("Brand"))
            Text("\(entry.sunnyDays) sunny days")
            Text("In \(city): \(entry.temperature)°")
            Image("Sun")
            Text(Bundle.main.bundleIdentifier ?? "no identifier")
            Text(verbatim: "data: " + (Bundle.main.url(forResource: "cities", withExtension: "json") != nil ? "found" : "missing"))
            Text(verbatim: "groups: " + groups)
            Rectangle().fill(Color(.brand)).frame(height: 4)
            Text(verbatim: "timelines: \(Counter.value("timelines"))")
            Link("Details", destination: URL(string: "https://example.org/forecast")!)
        }
        .foregroundStyle(.brand)
        .widgetURL(URL(string: "forecast://city/lisbon"))
        // The app's handler, in views it shares with its widget: here it notes what it was given.
        .onOpenURL { url in
            if let file = Counter.url("opened") { try? url.absoluteString.write(to: file, atomically: true, encoding: .utf8) }
        }
    }

    private var groups: String {
        ["group.org.example.forecast", "group.org.example.other"].map { group in
            FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) != nil ? "yes" : "no"
        }.joined(separator: " ")
    }
}

@main
struct ForecastWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "fixture.forecast", provider: ForecastProvider()) { entry in
            ForecastView(entry: entry)
        }
        .configurationDisplayName("Forecast")
        .description("Forecast for your city")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

// Previews as Xcode 12 wrote them, before #Preview.
struct ForecastWidget_Previews: PreviewProvider {
    static var previews: some View {
        Group {
            ForecastView(entry: ForecastEntry(date: Date(), sunnyDays: 5, temperature: 30))
                .previewContext(WidgetPreviewContext(family: .systemSmall))
                .previewDisplayName("Heat wave")
            ForecastView(entry: ForecastEntry(date: Date(), sunnyDays: 0, temperature: -4))
                .previewContext(WidgetPreviewContext(family: .systemMedium))
        }
    }
}
