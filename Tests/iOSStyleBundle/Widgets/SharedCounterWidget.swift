import SwiftUI
import WidgetKit

let appGroup = "group.org.example.ioswidgets"

struct CounterEntry: TimelineEntry {
    let date: Date
    let fromApp: Int
    let requests: Int
}

// Reads what the app wrote to the App Group's defaults, and counts its own requests there, as
// widgets that cache what a query found do (runtime bug 8).
struct SharedCounterProvider: TimelineProvider {
    func placeholder(in context: Context) -> CounterEntry { CounterEntry(date: Date(), fromApp: 0, requests: 0) }

    func getSnapshot(in context: Context, completion: @escaping (CounterEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<CounterEntry>) -> Void) {
        let defaults = UserDefaults(suiteName: appGroup)!
        let requests = defaults.integer(forKey: "widgetRequests") + 1
        defaults.set(requests, forKey: "widgetRequests")
        let entry = CounterEntry(date: Date(), fromApp: defaults.integer(forKey: "appCount"), requests: requests)
        completion(Timeline(entries: [entry], policy: .never))
    }
}

struct SharedCounterWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.example.shared-counter", provider: SharedCounterProvider()) { entry in
            VStack {
                Text("app \(entry.fromApp)")
                Text("requests \(entry.requests)")
            }
        }
        .configurationDisplayName("Shared Counter")
        .description("What the app wrote.")
    }
}
