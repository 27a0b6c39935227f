import ActivityKit
import SwiftUI
import WidgetKit

// Xcode's widget-extension template's Live Activity, as it writes it: registered and drawn as any
// Live Activity is here.
struct DeliveryActivityAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        // Dynamic stateful properties about your activity go here!
        var emoji: String
    }

    // Fixed non-changing properties about your activity go here!
    var name: String
}

struct DeliveryActivityLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: DeliveryActivityAttributes.self) { context in
            // Lock screen/banner UI goes here
            VStack {
                Text("Hello \(context.state.emoji)")
            }
            .activityBackgroundTint(Color.cyan)
            .activitySystemActionForegroundColor(Color.black)

        } dynamicIsland: { context in
            DynamicIsland {
                // Expanded UI goes here.  Compose the expanded UI through
                // various regions, like leading/trailing/center/bottom
                DynamicIslandExpandedRegion(.leading) {
                    Text("Leading")
                }
                DynamicIslandExpandedRegion(.trailing) {
                    Text("Trailing")
                }
                DynamicIslandExpandedRegion(.bottom) {
                    Text("Bottom \(context.state.emoji)")
                    // more content
                }
            } compactLeading: {
                Text("L")
            } compactTrailing: {
                Text("T \(context.state.emoji)")
            } minimal: {
                Text(context.state.emoji)
            }
            .widgetURL(URL(string: "http://www.apple.com"))
            .keylineTint(Color.red)
        }
    }
}

extension DeliveryActivityAttributes {
    fileprivate static var preview: DeliveryActivityAttributes {
        DeliveryActivityAttributes(name: "World")
    }
}

extension DeliveryActivityAttributes.ContentState {
    fileprivate static var smiley: DeliveryActivityAttributes.ContentState {
        DeliveryActivityAttributes.ContentState(emoji: "😀")
     }

     fileprivate static var starEyes: DeliveryActivityAttributes.ContentState {
         DeliveryActivityAttributes.ContentState(emoji: "🤩")
     }
}

#Preview("Notification", as: .content, using: DeliveryActivityAttributes.preview) {
   DeliveryActivityLiveActivity()
} contentStates: {
    DeliveryActivityAttributes.ContentState.smiley
    DeliveryActivityAttributes.ContentState.starEyes
}
