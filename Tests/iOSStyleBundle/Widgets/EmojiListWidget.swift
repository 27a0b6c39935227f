import SwiftUI
import WidgetKit

struct Animal: Identifiable {
    let id: String
    let emoji: String
    let note: String
}

struct EmojiEntry: TimelineEntry {
    let date: Date
    let animals: [Animal]
}

struct EmojiProvider: TimelineProvider {
    static let animals = [
        Animal(id: "whale", emoji: "🐳", note: "blows"),
        Animal(id: "unicorn", emoji: "🦄", note: "gallops"),
        Animal(id: "owl", emoji: "🦉", note: "hoots"),
    ]

    func placeholder(in context: Context) -> EmojiEntry { EmojiEntry(date: Date(), animals: Self.animals) }

    func getSnapshot(in context: Context, completion: @escaping (EmojiEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<EmojiEntry>) -> Void) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .never))
    }
}

// Emoji beside words in plain text (runtime bug 2), and titles pulled up by a negative padding
// (runtime bug 3): each title must stay on its own row, not over the subtitle above it.
struct EmojiListView: View {
    var entry: EmojiEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            HStack {
                Text("🐳")
                Text("whale")
            }
            HStack {
                VStack(alignment: .leading) {
                    Text("🐳")
                    Text("🐳🐳 ab")
                }
                Text("whale")
            }
            ForEach(entry.animals) { animal in
                VStack(alignment: .leading) {
                    Text("\(animal.emoji) \(animal.id)").padding(.top, -3)
                    Text(animal.note).font(.caption)
                }
            }
        }
    }
}

struct EmojiListWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.example.emoji", provider: EmojiProvider()) { entry in
            EmojiListView(entry: entry)
        }
        .configurationDisplayName("Animals")
        .description("Animals and what they do.")
        .supportedFamilies([.systemMedium, .systemLarge])
    }
}
