import Foundation
import GameData
import WidgetKit

struct LeaderboardWidget: Widget {
    // A nested entry type, as many iOS widgets declare theirs.
    struct Entry: TimelineEntry {
        let date: Date
        let scores: [GameState.Score]
        var relevance: TimelineEntryRelevance? {
            // The board matters more when the race at the top is close.
            guard scores.count >= 2 else { return nil }
            let gap = scores[0].points - scores[1].points
            return TimelineEntryRelevance(score: gap < 500 ? 1 : 0.2)
        }
    }

    struct Provider: TimelineProvider {
        func placeholder(in context: Context) -> Entry {
            Entry(date: Date(), scores: GameState.sample.leaderboard)
        }

        func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
            completion(Entry(date: Date(), scores: (try? GameStore.load().leaderboard) ?? GameState.sample.leaderboard))
        }

        func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
            // Scores change only when the app writes them, and the app asks for a reload then.
            let scores = (try? GameStore.load().leaderboard) ?? []
            completion(Timeline(entries: [Entry(date: Date(), scores: scores)], policy: .never))
        }
    }

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "com.mygame.leaderboard", provider: Provider()) { entry in
            LeaderboardView(entry: entry)
        }
        .configurationDisplayName("Leaderboard")
        .description("The top players of your game")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge, .accessoryRectangular])
    }
}

struct LeaderboardView: View {
    @Environment(\.widgetFamily) var family
    let entry: LeaderboardWidget.Entry

    var rows: Int {
        switch family {
        case .systemLarge: 10
        case .systemMedium: 5
        default: 3
        }
    }

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            if family != .accessoryRectangular {
                Text("Leaderboard").font(.headline)
            }
            if entry.scores.isEmpty {
                Text("No scores yet").foregroundColor(.secondary)
            } else {
                ForEach(Array(entry.scores.prefix(rows).enumerated()), id: \.offset) { index, score in
                    // Each row opens the player in the game; a small widget is one tap target (its
                    // widgetURL), where iOS ignores links.
                    if family == .systemSmall {
                        ScoreRow(rank: index + 1, score: score)
                    } else {
                        Link(destination: GameLinks.player(score.player)) { ScoreRow(rank: index + 1, score: score) }
                    }
                }
            }
        }
        .widgetURL(family == .systemSmall ? GameLinks.status : nil)
    }
}

struct ScoreRow: View {
    let rank: Int
    let score: GameState.Score

    var body: some View {
        HStack {
            Text("\(rank). \(score.player)")
            Spacer()
            Text("\(score.points)").bold()
        }
        .font(.caption)
    }
}
