import Testing
@testable import WidgetWire

@Suite struct JSONTests {
    @Test func parsesEveryKindOfValueAndKeepsMemberOrder() throws {
        let value = try JSONValue.parse(#" {"z": [1, -2.5, 1e3, true, false, null], "a": {"s": "x\"\\\/\n\u00e9\ud83d\ude00"}} "#)
        #expect(value.objectValue?.members.map(\.key) == ["z", "a"])
        #expect(value["z"] == .array([.number(1), .number(-2.5), .number(1000), .bool(true), .bool(false), .null]))
        #expect(value["a"]?["s"] == .string("x\"\\/\né😀"))
    }

    @Test func writerRoundTripsAndEscapes() throws {
        let value = JSONValue.object(JSONObject([("text", .string("a\"b\\c\n\u{1}é")), ("n", .number(12)), ("f", .number(0.25))]))
        #expect(value.jsonText == #"{"text":"a\"b\\c\n\u0001é","n":12,"f":0.25}"#)
        #expect(try JSONValue.parse(value.jsonText) == value)
    }

    @Test(arguments: [
        (0.0, "0"), (-1, "-1"), (1_234_567_890_123, "1234567890123"), (-987_654_321, "-987654321"), (0.5, "0.5"),
        (-2.5, "-2.5"), (1e15, "1000000000000000.0"), (Double.infinity, "null"), (Double.nan, "null"),
    ])
    func writesNumbersAsJSON(number: Double, text: String) {
        var writer = JSONWriter()
        writer.write(number)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
    }

    @Test(arguments: [
        ("", "invalid JSON at byte 0: unexpected end of input"),
        ("{\"a\":1,}", "invalid JSON at byte 7: expected a member name"),
        ("[1 2]", "invalid JSON at byte 3: expected ',' or ']'"),
        ("01", "invalid JSON at byte 0: leading zero in a number"),
        ("\"\u{01}\"", "invalid JSON at byte 1: control character in a string"),
        ("{\"a\":1,\"a\":2}", "invalid JSON at byte 10: duplicate member \"a\""),
        ("true false", "invalid JSON at byte 5: trailing content after the document"),
        ("\"\\ud800\"", "invalid JSON at byte 7: unpaired surrogate"),
        ("1e999", "invalid JSON at byte 0: number out of range"),
    ])
    func rejectsMalformedInputWithItsPosition(input: String, message: String) {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(input) }
        #expect(error?.description == message)
    }

    @Test func rejectsNestingDeeperThanTheLimitInsteadOfOverflowingTheStack() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError(offset: JSONValue.maximumDepth, reason: "nested deeper than 256 levels")) {
            try JSONValue.parse(deep)
        }
    }

    @Test func rejectsInvalidUTF8InStrings() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse([0x22, 0xFF, 0x22]) }
    }
}

@Suite struct WireTimelineTests {
    @Test func timelineRoundTripsThroughItsEncoding() throws {
        let timeline = WireTimeline(
            entries: [
                WireEntry(date: 1000, relevance: WireRelevance(score: 0.5, duration: 60), view: ViewNode("text", attributes: JSONObject([("text", .string("hi"))]))),
                WireEntry(date: 1060.5, view: ViewNode("vstack", children: [ViewNode("spacer")], modifiers: [ViewModifierNode("bold", .bool(true))])),
            ],
            policy: .after(2000))
        let bytes = timeline.encoded()
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"entries":[{"date":1000,"relevance":{"score":0.5,"duration":60},"view":{"view":"text","text":"hi"}},{"date":1060.5,"view":{"view":"vstack","children":[{"view":"spacer"}],"modifiers":[{"bold":true}]}}],"policy":{"kind":"after","date":2000}}"#
        )
        let decoded = try bytes.withUnsafeBufferPointer { buffer throws(WireFormatError) in try WireTimeline(bytes: buffer) }
        #expect(decoded == timeline)
    }

    @Test(arguments: [
        (#"[]"#, "result is not a JSON object"),
        (#"{}"#, "missing \"entries\""),
        (#"{"entries":{}}"#, "entries: not an array"),
        (#"{"entries":[{"view":{"view":"text"}}]}"#, "entries[0]: missing \"date\""),
        (#"{"entries":[{"date":"today","view":{"view":"text"}}]}"#, "entries[0].date: not a number"),
        (#"{"entries":[{"date":1}]}"#, "entries[0]: missing \"view\""),
        (#"{"entries":[{"date":1,"view":{"text":"x"}}]}"#, "entries[0].view: missing \"view\" type"),
        (#"{"entries":[{"date":1,"view":{"view":"vstack","children":[{"view":""}]}}]}"#, "entries[0].view.children[0]: missing \"view\" type"),
        (#"{"entries":[{"date":1,"view":{"view":"text","modifiers":[{"a":1,"b":2}]}}]}"#, "entries[0].view.modifiers[0]: not a one-member object"),
        (#"{"entries":[{"date":1,"relevance":{"score":1,"duration":-1},"view":{"view":"text"}}]}"#, "entries[0].relevance.duration: negative duration -1.0"),
        (#"{"entries":[],"policy":{"kind":"after"}}"#, "policy: \"after\" without a numeric \"date\""),
    ])
    func structuralFaultsNameTheirPath(json: String, message: String) {
        do {
            _ = try WireTimeline(json: try JSONValue.parse(json))
            Issue.record("\(json) must be rejected")
        } catch let error as WireFormatError {
            #expect(error.description == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@Suite struct DirectEncodingTests {
    @Test func encodedBytesEqualTheValuesJSONText() {
        let node = ViewNode(
            "hstack", attributes: JSONObject([("spacing", .number(4)), ("alignment", .string("top"))]),
            children: [ViewNode("text", attributes: JSONObject([("text", .string("é \"q\""))]), modifiers: [ViewModifierNode("font", .string("title"))]), ViewNode("spacer")],
            modifiers: [ViewModifierNode("padding", .object(JSONObject([("top", .number(1.5))]))), ViewModifierNode("bold", .bool(false))])
        for policy in [WireReloadPolicy.atEnd, .never, .after(99.25), nil] {
            let timeline = WireTimeline(
                entries: [WireEntry(date: 1, view: node), WireEntry(date: 2.5, relevance: WireRelevance(score: -1, duration: 0), view: ViewNode("divider"))],
                policy: policy)
            #expect(String(decoding: timeline.encoded(), as: UTF8.self) == timeline.json.jsonText)
        }
        #expect(String(decoding: WireTimeline(entries: [], policy: nil).encoded(), as: UTF8.self) == #"{"entries":[]}"#)
    }
}
