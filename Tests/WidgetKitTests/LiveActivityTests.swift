import Foundation
import Testing

import WidgetWire
@testable import WidgetKit

/// A Live Activity's configuration registers it by its attributes type's name and draws its
/// presentations for a state; an app with no host running is told so.
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

    @Test func anActivityIsRegisteredByItsTypeAndDrawsEachPresentation() throws {
        let definitions = OrderActivity()._definitions()
        #expect(definitions.map(\.kind) == ["Order"])
        #expect(definitions.first?.configurationKind == .activity)
        let request = ProviderRequest(
            kind: .activity, family: .systemMedium, isPreview: false, displaySize: CGSize(width: 338, height: 158),
            configuration: #"{"id":"A","attributes":{"name":"Pizza"},"state":{"minutes":20},"isStale":false}"#)
        let answer = Answer()
        definitions[0].respond(request) { answer.set($0) }
        guard case .json(let json)? = answer.value else {
            Issue.record("no drawing: \(String(describing: answer.value))")
            return
        }
        let drawn = try WireActivityPresentations(json: json)
        #expect(drawn.lockScreen.json["text"] == .string("Pizza: 20 min"))
        #expect(drawn.compactLeading?.json["text"] == .string("🍕"))
        #expect(drawn.compactTrailing?.json["text"] == .string("20"))
        #expect(drawn.expanded.map(\.region) == ["leading", "bottom"])
        #expect(drawn.keylineTint != nil)

        // State the type cannot read is refused, naming the member.
        let bad = ProviderRequest(
            kind: .activity, family: .systemMedium, isPreview: false, displaySize: CGSize(width: 338, height: 158),
            configuration: #"{"attributes":{"name":"Pizza"},"state":{}}"#)
        definitions[0].respond(bad) { answer.set($0) }
        guard case .failure(let reason)? = answer.value else { return }
        #expect(reason == #"the activity's content state (ContentState) did not decode: no value for "minutes""#)
    }

    /// A provider's answer, as the SDK delivers it (on the calling thread here).
    final class Answer: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: ProviderAnswer?
        func set(_ answer: ProviderAnswer) { lock.withLock { stored = answer } }
        var value: ProviderAnswer? { lock.withLock { stored } }
    }

    /// With no host running, an app's request says so, and lists none.
    @Test func withNoHostAnActivityIsNotStartedAndTheAppIsToldWhy() {
        #expect(Activity<Order>.activities.isEmpty)
        #expect(!ActivityAuthorizationInfo().areActivitiesEnabled)
        do {
            _ = try Activity<Order>.request(
                attributes: Order(name: "Pizza"), content: ActivityContent(state: Order.ContentState(minutes: 20), staleDate: nil),
                pushType: .token, style: .transient)
            Issue.record("started")
        } catch {
            #expect(error.localizedDescription.hasPrefix("no widget host is running"), "\(error)")
        }
        #expect(Activity<Order>.pushToStartToken == nil)
    }
}

/// A Control registers by its kind and answers with its value provider's current value: a toggle
/// with its state, its labels and the intent a press performs.
@Suite struct ControlWidgetTests {
    struct Lamp: ControlValueProvider {
        var previewValue: Bool { false }
        func currentValue() async throws -> Bool { true }
    }

    struct SetLamp: SetValueIntent {
        static var title: LocalizedStringResource { "Lamp" }
        @Parameter(title: "On") var value: Bool
        init() {}
        func perform() async throws -> some IntentResult { .result() }
    }

    struct LampControl: ControlWidget {
        var body: some ControlWidgetConfiguration {
            StaticControlConfiguration(kind: "org.example.lamp", provider: Lamp()) { isOn in
                ControlWidgetToggle("Lamp", isOn: isOn, action: SetLamp()) { on in Text(on ? "On" : "Off") }
                    .tint(.yellow)
            }
            .displayName("Desk lamp")
        }
    }

    struct RoomIntent: ControlConfigurationIntent {
        static var title: LocalizedStringResource { "Room" }
        @Parameter(title: "Room", default: "Hall") var room: String
        init() {}
    }

    struct RoomLight: AppIntentControlValueProvider {
        func previewValue(configuration: RoomIntent) -> Bool { false }
        func currentValue(configuration: RoomIntent) async throws -> Bool { configuration.room == "Kitchen" }
    }

    struct RoomControl: ControlWidget {
        var body: some ControlWidgetConfiguration {
            AppIntentControlConfiguration(kind: "org.example.room", provider: RoomLight()) { isOn in
                ControlWidgetToggle("Light", isOn: isOn, action: SetLamp()) { on in Text(on ? "On" : "Off") }
            }
        }
    }

    /// A configured control runs with the configuration the host sends, else its intent's defaults.
    @Test func aConfiguredControlReadsItsConfiguration() throws {
        let definition = RoomControl().body._controlDefinition()
        let answer = LiveActivityTests.Answer()
        func isOn(_ configuration: String) throws -> Bool? {
            definition.respond(ProviderRequest(kind: .control, family: .systemSmall, isPreview: false, displaySize: .zero, configuration: configuration)) {
                answer.set($0)
            }
            guard case .json(let json)? = answer.value else { return nil }
            return try WireControl(json: json).isOn
        }
        #expect(try isOn("{}") == false, "the default room, the hall")
        #expect(try isOn(#"{"room":"Kitchen"}"#) == true)
    }

    @Test func aToggleIsRegisteredAndAnswersWithItsCurrentValue() throws {
        let definition = LampControl().body._controlDefinition()
        #expect(definition.kind == "org.example.lamp")
        #expect(definition.configurationKind == .control)
        #expect(definition.displayName == "Desk lamp")
        let answer = LiveActivityTests.Answer()
        let request = ProviderRequest(kind: .control, family: .systemSmall, isPreview: false, displaySize: CGSize(width: 158, height: 158), configuration: "{}")
        definition.respond(request) { answer.set($0) }
        guard case .json(let json)? = answer.value else {
            Issue.record("no control: \(String(describing: answer.value))")
            return
        }
        let control = try WireControl(json: json)
        #expect(control.template == .toggle)
        #expect(control.isOn, "the provider's current value, not its preview's")
        #expect(control.valueLabel?.json["text"] == .string("On"))
        #expect(control.label.json["text"] == .string("Lamp"))
        #expect(control.tint != nil)
        #expect(control.action["type"]?.stringValue?.hasSuffix("SetLamp") == true)
        // A placeholder, for a fresh process's press: at once, from the preview value.
        definition.respond(ProviderRequest(kind: .placeholder, family: .systemSmall, isPreview: true, displaySize: .zero, configuration: "{}")) { answer.set($0) }
        guard case .json(let preview)? = answer.value else { return }
        #expect(try WireControl(json: preview).isOn == false)
    }
}
