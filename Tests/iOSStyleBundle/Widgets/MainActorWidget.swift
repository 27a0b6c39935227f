import SwiftUI
import WidgetKit

struct SimpleEntry: TimelineEntry {
    let date: Date
    let message: String
}

// Completes from a main-actor task, as code that updates UI state first does (runtime bug 1).
struct MainActorProvider: TimelineProvider {
    func placeholder(in context: Context) -> SimpleEntry { SimpleEntry(date: Date(), message: "…") }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (SimpleEntry) -> Void) {
        Task { @MainActor in
            completion(SimpleEntry(date: Date(), message: "main actor snapshot"))
        }
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<SimpleEntry>) -> Void) {
        Task { @MainActor in
            completion(Timeline(entries: [SimpleEntry(date: Date(), message: "main actor timeline")], policy: .never))
        }
    }
}

struct MainActorWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.example.main-actor", provider: MainActorProvider()) { entry in
            Text(entry.message)
                .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
        }
        .configurationDisplayName("Main Actor")
        .description("Answers from the main actor.")
        // Drawn to the widget's edge (runtime bug 4: the modifier is honoured).
        .contentMarginsDisabled()
    }
}
