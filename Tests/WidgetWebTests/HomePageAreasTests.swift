import Foundation
import Testing
import WidgetHost
import WidgetTestSupport
import WidgetWire

/// The page's areas apart from the widgets: its Controls and its Live Activities.
extension HomeScreenTests {
    /// The page's Controls and Live Activities: the controls in its first picture, a press through
    /// it, an activity drawn when it starts and gone when it is dismissed, each as an event.
    @Test func controlsArePressedAndLiveActivitiesShownThroughThePage() async throws {
        let web = try await WebHome()
        defer { web.stop() }
        #expect(await web.waitForTimelines())
        let (stream, hello) = try await web.events()
        defer { stream.hangUp() }
        let controls = try #require(hello["controls"]?.arrayValue)
        #expect(controls.map { $0["kind"] } == [.string("com.mygame.pause"), .string("com.mygame.heal-unipony")])
        #expect(controls.first?["template"] == .string("toggle"))
        #expect(controls.first?["isOn"] == .bool(false))
        #expect(hello["activities"] == .array([]))
        func next(_ name: String, where holds: @escaping @Sendable (JSONValue) -> Bool = { _ in true }) async throws -> JSONValue? {
            try await offThePool {
                while let event = stream.event() {
                    let data = try JSONValue.parse(event.data)
                    if event.name == name, holds(data) { return data }
                }
                return nil
            }
        }

        let press = try await web.request("POST", "/controls/press", body: #"{"kind":"com.mygame.pause"}"#)
        #expect(press.status == 200, "\(press.body)")
        let pressed = try await next("control") { $0["isOn"] == .bool(true) }
        #expect(pressed?["kind"] == .string("com.mygame.pause"))
        #expect(pressed?["isOn"] == .bool(true))
        #expect(pressed?["text"]?.stringValue?.hasSuffix("Paused") == true, "\(String(describing: pressed))")
        let unknown = try await web.request("POST", "/controls/press", body: #"{"kind":"com.mygame.nothing"}"#)
        #expect(unknown.status == 422)
        #expect(try JSONValue.parse(unknown.body)["error"]?.stringValue?.hasPrefix(#"control "com.mygame.nothing": no bundle loaded has this Control"#) == true, "\(unknown.body)")
        let badSet = try await web.request("POST", "/controls/press", body: #"{"kind":"com.mygame.pause","set":"yes"}"#)
        #expect(badSet.status == 400)

        let attributes = JSONValue.object(JSONObject([("opponent", .string("Rovers"))]))
        let state = JSONValue.object(JSONObject([("ours", .number(1)), ("theirs", .number(0)), ("period", .number(1))]))
        guard case .activity(let record) = await blocking({ web.daemon.answer(.activityStart(type: "MatchAttributes", attributes: attributes, content: .init(state: state))) }) else {
            Issue.record("not started")
            return
        }
        let shown = try await next("activity")
        #expect(shown?["id"] == .string(record.id))
        #expect(shown?["light"]?.stringValue?.contains("Rovers") == true)
        #expect(shown?["compact"]?.stringValue?.hasSuffix("1–0") == true, "\(String(describing: shown?["compact"]))")
        _ = await blocking { web.daemon.answer(.activityEnd(id: record.id, content: nil, dismissal: .immediate)) }
        let removed = try await next("activity-removed")
        #expect(removed?["id"] == .string(record.id))
    }
}
