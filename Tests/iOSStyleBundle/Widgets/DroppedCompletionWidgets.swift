import Intents
import SwiftUI
import WidgetKit

// Providers that let go of their completion without calling it (runtime bug 5): the host must say
// so at once, not wait for the deadline.
struct DroppingProvider: TimelineProvider {
    func placeholder(in context: Context) -> SimpleEntry { SimpleEntry(date: Date(), message: "placeholder") }

    func getSnapshot(in context: Context, completion: @escaping (SimpleEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<SimpleEntry>) -> Void) {
        guard context.family == .systemLarge else { return }  // forgot the other families
        completion(Timeline(entries: [placeholder(in: context)], policy: .never))
    }
}

struct DroppedCompletionWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.example.dropped", provider: DroppingProvider()) { entry in
            Text(entry.message)
        }
        .configurationDisplayName("Dropped")
        .description("Forgets to answer.")
    }
}

// Xcode generates a SiriKit intent class from an intent definition file; written by hand here,
// as docs/PORTING.md shows.
class CityIntent: INIntent {
    @Parameter(title: "City")
    var city: String?
}

struct LegacyProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> SimpleEntry { SimpleEntry(date: Date(), message: "placeholder") }

    func getSnapshot(for configuration: CityIntent, in context: Context, completion: @escaping (SimpleEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(for configuration: CityIntent, in context: Context, completion: @escaping (Timeline<SimpleEntry>) -> Void) {
        guard let city = configuration.city else { return }  // no city: forgot to answer
        completion(Timeline(entries: [SimpleEntry(date: Date(), message: city)], policy: .never))
    }
}

struct LegacyDroppedWidget: Widget {
    var body: some WidgetConfiguration {
        IntentConfiguration(kind: "org.example.legacy-dropped", intent: CityIntent.self, provider: LegacyProvider()) { entry in
            Text(entry.message)
        }
        .configurationDisplayName("Legacy")
        .description("A SiriKit-style widget that forgets to answer.")
    }
}
