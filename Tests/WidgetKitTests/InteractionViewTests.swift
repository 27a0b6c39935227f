import Foundation
import Testing
import WidgetWire

@testable import WidgetKit

struct LikeIntent: AppIntent {
    static var title: LocalizedStringResource { "Like" }
    @Parameter(title: "Item") var item: String
    @Parameter(title: "Times", default: 1) var times: Int
    init() {}
    init(item: String) { self.item = item }
    func perform() async throws -> some IntentResult {
        LikeIntent.performed.append("\(item)×\(times)")
        return .result()
    }
    nonisolated(unsafe) static var performed: [String] = []
}

struct LinkedRows: View {
    @Environment(\.widgetFamily) var family
    var body: some View {
        VStack {
            ForEach(["a", "b"], id: \.self) { name in
                if family == .systemSmall {
                    Text(name)
                } else {
                    Link(name, destination: URL(string: "app://item/\(name)")!)
                }
            }
        }
        .widgetURL(URL(string: "app://list"))
    }
}

/// Deep links and intent controls recorded in the view tree.
@Suite struct InteractionViewTests {
    func resolve(_ view: some View, family: WidgetFamily) -> ViewNode {
        var environment = EnvironmentValues()
        environment.widgetFamily = family
        return ViewResolver.root(of: view, in: environment)
    }

    @Test func linksAndWidgetURLAreRecordedAndForEachSeesTheEnvironment() {
        let medium = resolve(LinkedRows(), family: .systemMedium)
        #expect(medium.modifier("widgetURL") == .string("app://list"))
        #expect(medium.children.map(\.view) == ["link", "link"])
        #expect(medium.children.map { $0["url"] } == [.string("app://item/a"), .string("app://item/b")])
        #expect(medium.children[0].children[0]["text"] == .string("a"))
        // The ForEach closure runs with the family of the view that built it.
        #expect(resolve(LinkedRows(), family: .systemSmall).children.map(\.view) == ["text", "text"])
        #expect(resolve(Text("x").widgetURL(nil), family: .systemSmall).modifier("widgetURL") == .null)
    }

    @Test func buttonsAndTogglesRecordTheirIntentWithItsParameters() async throws {
        let button = resolve(Button("Like", intent: LikeIntent(item: "tea")), family: .systemMedium)
        #expect(button.view == "button")
        #expect(button["intent"] == (try JSONValue.parse(#"{"type":"WidgetKitTests.LikeIntent","parameters":{"item":"tea","times":1}}"#)))
        #expect(button.children[0]["text"] == .string("Like"))
        let toggle = resolve(Toggle("On", isOn: true, intent: LikeIntent(item: "cake")), family: .systemMedium)
        #expect(toggle.view == "toggle")
        #expect(toggle["isOn"] == .bool(true))
        // The recorded type performs on a fresh instance filled from the recorded parameters.
        let perform = try #require(IntentTypes.performer("WidgetKitTests.LikeIntent"))
        try await perform(#"{"item":"jam","times":3}"#)
        #expect(LikeIntent.performed.last == "jam×3")
        await #expect(throws: IntentFailure.self) { try await perform(#"{"times":"many"}"#) }
        #expect(IntentTypes.performer("Nobody.Intent") == nil)
    }
}

struct PickCoinIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource { "Pick Coin" }
    @Parameter(title: "Coin", default: "BTC") var coin: String
    @Parameter(title: "Decimals", default: 2) var decimals: Int
}

/// What WidgetCenter reports, turned back into the widget's intent.
@Suite struct WidgetInfoTests {
    @Test func aPlacedWidgetsConfigurationBecomesItsIntent() async throws {
        let info = try #require(WidgetInfo(json: try JSONValue.parse(
            #"{"id":"price-1","kind":"org.example.price","family":"systemMedium","configuration":{"coin":"ETH"}}"#)))
        #expect(info.family == .systemMedium)
        #expect(info.description == "org.example.price (systemMedium) price-1")
        let intent = try #require(await info.widgetConfigurationIntent(of: PickCoinIntent.self))
        #expect(intent.coin == "ETH")
        #expect(intent.decimals == 2, "a parameter the configuration leaves out gets its default")
        let wrong = try #require(WidgetInfo(json: try JSONValue.parse(
            #"{"id":"x-1","kind":"k","family":"systemSmall","configuration":{"decimals":"many"}}"#)))
        #expect(await wrong.widgetConfigurationIntent(of: PickCoinIntent.self) == nil)
        #expect(WidgetInfo(json: try JSONValue.parse(#"{"id":"x","kind":"k","family":"huge"}"#)) == nil)
    }

    @Test func withNoHostRunningWidgetCenterSaysSo() async {
        let center = WidgetCenter(socketPath: NSTemporaryDirectory() + "no-such-host-\(UUID().uuidString).sock")
        guard case .failure(let error) = center.reloadTimelines(ofKind: "k") else {
            Issue.record("a reload with no host must fail")
            return
        }
        #expect(error.description.hasPrefix("no widget host is running (nothing listens on "))
        await #expect(throws: WidgetCenter.Error.self) { try await center.currentConfigurations() }
    }
}
