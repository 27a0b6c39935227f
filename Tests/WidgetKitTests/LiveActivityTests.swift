import Foundation
import Testing

@testable import WidgetKit

/// A Live Activity compiles and is accepted: its configuration declares no widget (the bundle's
/// others are registered), and an app asking to start one is told this host shows none.
@Suite struct LiveActivityTests {
    struct Order: ActivityAttributes {
        struct ContentState: Codable, Hashable { var minutes: Int }
        var name: String
    }

    struct OrderActivity: Widget {
        var body: some WidgetConfiguration {
            ActivityConfiguration(for: Order.self) { context in
                Text("\(context.attributes.name): \(context.state.minutes) min")
            } dynamicIsland: { context in
                DynamicIsland {
                    DynamicIslandExpandedRegion(.leading) { Text(context.attributes.name) }
                    DynamicIslandExpandedRegion(.bottom) { Text("\(context.state.minutes)") }
                } compactLeading: {
                    Text("🍕")
                } compactTrailing: {
                    Text("\(context.state.minutes)")
                } minimal: {
                    Text("🍕")
                }
                .keylineTint(.orange)
            }
            .supplementalActivityFamilies([.small])
        }
    }

    @Test func anActivityDeclaresNoWidgetAndIsNotStarted() async {
        #expect(OrderActivity()._definitions().isEmpty)
        #expect(Activity<Order>.activities.isEmpty)
        #expect(!ActivityAuthorizationInfo().areActivitiesEnabled)
        #expect(throws: ActivityAuthorizationError.unsupported) {
            _ = try Activity<Order>.request(
                attributes: Order(name: "Pizza"), content: ActivityContent(state: Order.ContentState(minutes: 20), staleDate: nil))
        }
        #expect(ActivityAuthorizationError.unsupported.errorDescription?.contains("not shown by this widget host") == true)
        #expect(throws: ActivityAuthorizationError.unsupported) {
            _ = try Activity<Order>.request(
                attributes: Order(name: "Pizza"), content: ActivityContent(state: Activity<Order>.ContentState(minutes: 5), staleDate: nil),
                pushType: .token, style: .transient)
        }
        #expect(Activity<Order>.pushToStartToken == nil)
    }
}
