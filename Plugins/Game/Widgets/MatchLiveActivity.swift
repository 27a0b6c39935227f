import ActivityKit
import GameData
import SwiftUI
import WidgetKit

/// The match in play, as Xcode's template writes a Live Activity: the Lock Screen's banner and the
/// Dynamic Island's presentations.
struct MatchLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: MatchAttributes.self) { context in
            HStack {
                VStack(alignment: .leading) {
                    Text("vs \(context.attributes.opponent)").font(.headline)
                    Text(context.isStale ? "Waiting for the score" : "Period \(context.state.period)")
                        .font(.caption).foregroundStyle(.secondary)
                }
                Spacer()
                Text("\(context.state.ours) – \(context.state.theirs)").font(.title).bold()
            }
            .padding()
            .activityBackgroundTint(Color.indigo.opacity(0.2))
            .activitySystemActionForegroundColor(.indigo)
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) { Text("Us \(context.state.ours)") }
                DynamicIslandExpandedRegion(.trailing) { Text("\(context.attributes.opponent) \(context.state.theirs)") }
                DynamicIslandExpandedRegion(.bottom) { Text("Period \(context.state.period)") }
            } compactLeading: {
                Image(systemName: "sportscourt")
            } compactTrailing: {
                Text("\(context.state.ours)–\(context.state.theirs)")
            } minimal: {
                Text("\(context.state.ours)")
            }
            .widgetURL(URL(string: "mygame://status"))
            .keylineTint(.indigo)
        }
    }
}
