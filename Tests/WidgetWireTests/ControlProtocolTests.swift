import Testing
import WidgetWire

/// The control protocol's messages: each encodes and decodes itself, and what a peer sends wrong
/// is refused by name.
@Suite struct ControlProtocolTests {
    static let requests: [ControlRequest] = [
        .reload(kind: nil, app: nil, foreground: false), .reload(kind: "com.mygame.game-status", app: nil, foreground: true),
        .reload(kind: nil, app: .init(identifier: "org.example.trips", groups: ["group.trips"]), foreground: false),
        .configurations, .sync, .home, .tap(instance: "3", target: .widget), .tap(instance: "3", target: .link(2)),
        .tap(instance: "3", target: .control(1)), .open(url: "mygame://player/ada"), .status(id: nil), .status(id: "7"),
        .text(id: "7", family: .accessoryInline), .watch(ids: nil), .watch(ids: ["1", "2"]), .entries(ids: nil), .entries(ids: ["3"]),
        .entries(ids: nil, activities: true, controls: true),
        .activityStart(type: "MatchAttributes", attributes: .object(JSONObject([("opponent", .string("Rovers"))])), content: Self.content),
        .activityUpdate(id: "A", content: .init(state: .object(JSONObject()), staleDate: 1_800_000_000, relevance: 2)),
        .activityEnd(id: "A", content: nil, dismissal: .default), .activityEnd(id: "A", content: Self.content, dismissal: .immediate),
        .activityEnd(id: "A", content: nil, dismissal: .after(1_800_000_600)), .activities(type: nil), .activities(type: "MatchAttributes"),
        .controls(kind: nil), .controls(kind: "k"), .pressControl(kind: "k", press: .press), .pressControl(kind: "k", press: .set(false)),
        .reloadControls(kind: nil),
    ]

    static let content = ControlRequest.ActivityContentValue(state: .object(JSONObject([("ours", .number(1))])))

    @Test func everyRequestReadsBackAsItWasWrittenWithItsVersion() throws {
        for request in Self.requests {
            #expect(request.json["v"] == .number(1), "\(request)")
            #expect(try ControlRequest(json: request.json) == request, "\(request.json.jsonText)")
            // As a line on the socket: through its text.
            #expect(try ControlRequest(json: JSONValue.parse(request.json.jsonText)) == request)
        }
        #expect(Set(Self.requests.map(\.name)).count == 17, "every kind of request")
    }

    @Test func everyAnswerReadsBackAsTheAnswerToItsRequest() throws {
        let pairs: [(ControlRequest, ControlAnswer)] = [
            (.reload(kind: nil, app: nil, foreground: false), .reloaded(count: 2, deferred: [.init(id: "4", until: "2026-11-27T10:00:00Z")])),
            (.configurations, .configurations([.init(id: "1", kind: "k", family: .systemSmall, configuration: JSONObject([("city", .string("Oslo"))]))])),
            (.sync, .synced(changed: 3)), (.tap(instance: "1", target: .link(1)), .opened(url: "x://y", by: "a.so")),
            (.tap(instance: "1", target: .control(1)), .performed(intent: "Heal")), (.open(url: "x://y"), .opened(url: "x://y", by: "xdg-open")),
            (.status(id: nil), .status([.object(JSONObject([("id", .string("1"))]))])), (.text(id: "1", family: .systemMedium), .text("12:00", family: .systemMedium)),
            (.home, .home(url: "http://127.0.0.1:1/#token=t")), (.watch(ids: nil), .watching(current: [])),
            (.entries(ids: nil), .entries([.object(JSONObject([("id", .string("1")), ("view", .null)]))])),
            (.activityStart(type: "T", attributes: .object(JSONObject()), content: Self.content), .activity(Self.record)),
            (.activities(type: nil), .activities([Self.record])),
            (.pressControl(kind: "k", press: .press), .controls([Self.control])), (.controls(kind: nil), .controls([Self.control, ControlEntry(kind: "j", name: "J", control: nil, failure: "gone")])),
        ]
        for (request, answer) in pairs {
            #expect(try ControlAnswer(json: answer.json, answering: request) == answer, "\(answer.json.jsonText)")
            #expect(answer.json["ok"] == .bool(true))
        }
        let refused = ControlAnswer.refused("no instance \"9\" is hosted")
        #expect(refused.json.jsonText == #"{"ok":false,"error":"no instance \"9\" is hosted"}"#)
        #expect(try ControlAnswer(json: refused.json, answering: .sync) == refused)
        // An answer that is not one to the request is named.
        #expect(throws: ControlProtocolError("the answer to sync has no valid \"changed\"")) {
            try ControlAnswer(json: ControlAnswer.home(url: "u").json, answering: .sync)
        }
    }

    static let record = ActivityRecord(
        id: "A", type: "T", attributes: .object(JSONObject()), state: .object(JSONObject([("ours", .number(1))])), staleDate: nil, relevance: 0,
        phase: .ended, started: 1, updated: 2, ended: 2, dismissAt: 3,
        presentations: WireActivityPresentations(
            lockScreen: ViewNode("text", attributes: JSONObject([("text", .string("1 – 0"))])), compactTrailing: ViewNode("text", attributes: JSONObject([("text", .string("1–0"))])),
            expanded: [("bottom", ViewNode("text", attributes: JSONObject([("text", .string("Period 1"))])))], widgetURL: "x://y"))
    static let control = ControlEntry(
        kind: "k", name: "K",
        control: WireControl(
            template: .toggle, label: ViewNode("text", attributes: JSONObject([("text", .string("Pause"))])), isOn: true,
            action: .object(JSONObject([("type", .string("M.Pause")), ("parameters", .object(JSONObject()))])), tint: .string("orange")))

    /// A toggle's press sets `value` to its new state; a button's is its action as recorded.
    @Test func aToggleIsPressedWithItsNewValue() {
        #expect(Self.control.control?.pressed().jsonText == #"{"type":"M.Pause","parameters":{"value":false}}"#)
        #expect(Self.control.control?.pressed(turning: true).jsonText == #"{"type":"M.Pause","parameters":{"value":true}}"#)
        var button = Self.control.control!
        button.template = .button
        #expect(button.pressed().jsonText == #"{"type":"M.Pause","parameters":{}}"#)
    }

    /// A request without a version is of version 1, as clients before versions sent; a newer one is
    /// refused naming both; each member of the wrong type is named.
    @Test func versionsAndMalformedRequestsAreRefusedByName() throws {
        func refusal(_ text: String) -> String? {
            do {
                _ = try ControlRequest(json: JSONValue.parse(text))
                return nil
            } catch {
                return (error as? ControlProtocolError)?.description
            }
        }
        #expect(try ControlRequest(json: JSONValue.parse(#"{"request":"sync"}"#)) == .sync)
        #expect(
            refusal(#"{"request":"sync","v":2}"#)
                == "the request is of control protocol version 2; this host speaks version 1 (a newer widgets sent it: run the host of the same version)")
        #expect(refusal(#"{"request":"sync","v":"one"}"#) == "\"v\" must be the protocol version, a whole number from 1")
        #expect(refusal(#"["sync"]"#) == "malformed request: expected an object with a \"request\" member")
        #expect(refusal(#"{"request":"dance"}"#) == "unknown request \"dance\" (reload, configurations, sync, tap, open, status, text, home, watch, entries, activity-start, activity-update, activity-end, activities, controls, control-press, reload-controls)")
        #expect(refusal(#"{"request":"reload","kind":""}"#) == "\"kind\" must be a non-empty string")
        #expect(refusal(#"{"request":"reload","kind":3}"#) == "\"kind\" must be a string")
        #expect(refusal(#"{"request":"tap","instance":"1","link":1,"button":2}"#) == "give at most one of \"link\" and \"button\", a whole number from 1")
        #expect(refusal(#"{"request":"tap","instance":"1","link":1e300}"#) == "give at most one of \"link\" and \"button\", a whole number from 1")
        #expect(refusal(#"{"request":"tap"}"#) == "\"instance\" must be a string")
        #expect(refusal(#"{"request":"open"}"#) == "\"url\" must be a string")
        #expect(refusal(#"{"request":"text","id":"1","family":"huge"}"#)?.hasPrefix("\"family\" must be one of systemSmall") == true)
        #expect(refusal(#"{"request":"watch","ids":[1]}"#) == "\"ids\" must be an array of instance ids")
    }
}
