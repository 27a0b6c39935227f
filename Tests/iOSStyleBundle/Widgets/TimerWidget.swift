import SwiftUI
import WidgetKit

struct CountdownEntry: TimelineEntry {
    let date: Date
    let end: Date
    var relevance: TimelineEntryRelevance? { TimelineEntryRelevance(score: 0.99) }
}

// Entries an hour apart, each with a timer to the same end (runtime bug 7), and symbols the
// host must draw.
struct TimerProvider: TimelineProvider {
    static let start = Date(timeIntervalSince1970: 4_000_000_000)

    func placeholder(in context: Context) -> CountdownEntry { CountdownEntry(date: Self.start, end: Self.start.addingTimeInterval(3 * 3600)) }

    func getSnapshot(in context: Context, completion: @escaping (CountdownEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<CountdownEntry>) -> Void) {
        let end = Self.start.addingTimeInterval(3 * 3600)
        let entries = (0..<3).map { CountdownEntry(date: Self.start.addingTimeInterval(Double($0) * 3600), end: end) }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

struct TimerWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.example.timer", provider: TimerProvider()) { entry in
            VStack {
                Text(entry.end, style: .timer)
                HStack {
                    Image(systemName: "play.fill")
                    Image(systemName: "pause.fill")
                    Image(systemName: "photo")
                    Image(systemName: "arrow.circlepath")
                    Image(systemName: "largecircle.fill.circle")
                }
            }
        }
        .configurationDisplayName("Timer")
        .description("Time left.")
    }
}
