import ActivityKit
import SwiftUI
import WidgetKit

// A Live Activity in the shape Xcode's widget-extension template gives one (its own content): the
// attributes beside the configuration, a Lock Screen view with a background tint, and the island.
struct KettleAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var degrees: Int
    }

    var kitchen: String
}

struct KettleLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: KettleAttributes.self) { context in
            VStack {
                Text("\(context.attributes.kitchen) kettle at \(context.state.degrees)°")
            }
            .activityBackgroundTint(Color.orange)
            .activitySystemActionForegroundColor(Color.black)
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) {
                    Text("Kettle")
                }
                DynamicIslandExpandedRegion(.trailing) {
                    Text("\(context.state.degrees)°")
                }
                DynamicIslandExpandedRegion(.bottom) {
                    Text(context.attributes.kitchen)
                }
            } compactLeading: {
                Text("K")
            } compactTrailing: {
                Text("\(context.state.degrees)°")
            } minimal: {
                Text("\(context.state.degrees)")
            }
            .widgetURL(URL(string: "kettle://now"))
            .keylineTint(Color.orange)
        }
    }
}

extension KettleAttributes {
    fileprivate static var preview: KettleAttributes {
        KettleAttributes(kitchen: "Home")
    }
}

extension KettleAttributes.ContentState {
    fileprivate static var cold: KettleAttributes.ContentState { KettleAttributes.ContentState(degrees: 20) }
    fileprivate static var boiling: KettleAttributes.ContentState { KettleAttributes.ContentState(degrees: 100) }
}

#Preview("Notification", as: .content, using: KettleAttributes.preview) {
    KettleLiveActivity()
} contentStates: {
    KettleAttributes.ContentState.cold
    KettleAttributes.ContentState.boiling
}
