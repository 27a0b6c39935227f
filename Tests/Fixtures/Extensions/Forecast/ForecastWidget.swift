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
        completion(Timeline(entries: [ForecastEntry(date: Date(), sunnyDays: 1, temperature: ForecastModel().currentTemperature())], policy: .never))
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
        }
        .foregroundStyle(.brand)
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
