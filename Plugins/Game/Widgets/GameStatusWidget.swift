import Foundation
import GameData
import WidgetKit

// The game-status widget from WidgetKit's "Creating a widget extension", reading the status the
// game app writes into the shared container instead of a server.

struct GameStatusEntry: TimelineEntry {
    let date: Date
    let gameStatus: String
    let party: [GameState.Character]
}

struct GameStatusProvider: TimelineProvider {
    func placeholder(in context: Context) -> GameStatusEntry {
        GameStatusEntry(date: Date(), gameStatus: "—", party: GameState.sample.characters)
    }

    func getSnapshot(in context: Context, completion: @escaping (GameStatusEntry) -> Void) {
        let entry: GameStatusEntry
        if context.isPreview, (try? GameStore.load()) == nil {
            entry = GameStatusEntry(date: Date(), gameStatus: GameState.sample.status, party: GameState.sample.characters)
        } else {
            entry = currentEntry()
        }
        completion(entry)
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<GameStatusEntry>) -> Void) {
        // Create a timeline entry for "now", and ask again in 15 minutes.
        let date = Date()
        let entry = currentEntry(at: date)
        let nextUpdateDate = Calendar.current.date(byAdding: .minute, value: 15, to: date)!
        completion(Timeline(entries: [entry], policy: .after(nextUpdateDate)))
    }

    private func currentEntry(at date: Date = Date()) -> GameStatusEntry {
        do {
            let state = try GameStore.load()
            return GameStatusEntry(date: date, gameStatus: state.status, party: state.characters)
        } catch {
            return GameStatusEntry(date: date, gameStatus: "\(error)", party: [])
        }
    }
}

struct GameStatusView: View {
    @Environment(\.widgetFamily) var family
    let entry: GameStatusEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text("Game Status").font(.headline).foregroundColor(.orange)
            Text(entry.gameStatus).font(.body)
            if family != .systemSmall {
                Spacer()
                ForEach(entry.party, id: \.name) { character in
                    HStack {
                        Text(character.name).bold()
                        Spacer()
                        Text("♥ \(character.health)").foregroundColor(character.health < 50 ? .red : .green)
                    }
                }
            }
        }
    }
}

struct GameStatusWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "com.mygame.game-status", provider: GameStatusProvider()) { entry in
            GameStatusView(entry: entry)
        }
        .configurationDisplayName("Game Status")
        .description("Shows an overview of your game status")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}
