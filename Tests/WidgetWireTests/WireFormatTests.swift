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

    /// Short decimals take a fast path; it must round exactly as the general conversion does.
    @Test func shortNumbersReadExactlyAsTheGeneralConversionReadsThem() throws {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        var texts = [
            "0.5", "-0.0", "0.1", "123.456", "999999999999999.9", "-0.000000000000001", "1.000000000000000",
            "0", "-0", "42", "-17", "999999999999999", "-999999999999999",
        ]
        for _ in 0..<20_000 {
            let count = Int(next() % 15) + 1
            var digits = String(next() % 1_000_000_000_000_000).prefix(count)
            if digits.count > 1, digits.hasPrefix("0") { digits = "1" + digits.dropFirst() }
            let point = Int(next() % UInt64(digits.count))
            let whole = point == 0 ? "0" : String(digits.prefix(point))
            let fraction = String(digits.dropFirst(point))
            let sign = next() % 2 == 0 ? "-" : ""
            texts.append(sign + whole + "." + (fraction.isEmpty ? "0" : fraction))
            texts.append(sign + digits)
        }
        for text in texts {
            guard case .number(let read) = try JSONValue.parse(text) else {
                Issue.record("\(text) did not read as a number")
                continue
            }
            #expect(read.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }

    /// Strings are scanned eight bytes at a time: a quote, a backslash, a control character or a
    /// non-ASCII byte must be found wherever it falls in or across those words.
    @Test func findsEverySpecialByteWhereverItFallsInAString() throws {
        // Filled with bytes just beside the special ones (space beside the control characters, '!'
        // and '#' beside the quote, '[' and ']' beside the backslash), where a wrong mask would flag them.
        let filler = Array(" !#[]~az")
        func fill(_ count: Int, from start: Int) -> String { String((0..<count).map { filler[($0 + start) % filler.count] }) }
        for length in 0..<20 {
            for offset in 0...length {
                let before = fill(offset, from: 0)
                let after = fill(length - offset, from: 3)
                #expect(try JSONValue.parse("\"\(before)\(after)\"") == .string(before + after))
                #expect(try JSONValue.parse("\"\(before)\\n\(after)\"") == .string(before + "\n" + after))
                #expect(try JSONValue.parse("\"\(before)é\(after)\"") == .string(before + "é" + after))
                #expect(throws: JSONSyntaxError(offset: 1 + offset, reason: "control character in a string")) {
                    try JSONValue.parse("\"\(before)\u{1F}\(after)\"")
                }
                // Reported at the string's start.
                #expect(throws: JSONSyntaxError(offset: 1, reason: "string is not valid UTF-8")) {
                    try JSONValue.parse([0x22] + Array(before.utf8) + [0xFF] + Array(after.utf8) + [0x22])
                }
                #expect(throws: JSONSyntaxError(offset: 1 + length, reason: "unterminated string")) {
                    try JSONValue.parse("\"\(before)\(after)")
                }
            }
        }
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
        // What a fault quotes of the input is shown on one line.
        (#"{"entries":[],"policy":{"kind":"at\u001bEnd\n"}}"#, "policy.kind: unknown policy \"at End \" (atEnd, after or never)"),
        // Dates beyond the years 1 to 9999, which no calendar shows.
        (#"{"entries":[{"date":1e308,"view":{"view":"text"}}]}"#, "entries[0].date: date 1e+308 is outside the years 1 to 9999 (-62135596800 to 253402300799 seconds since 1970)"),
        (#"{"entries":[{"date":-1e308,"view":{"view":"text"}}]}"#, "entries[0].date: date -1e+308 is outside the years 1 to 9999 (-62135596800 to 253402300799 seconds since 1970)"),
        (#"{"entries":[{"date":253402300800,"view":{"view":"text"}}]}"#, "entries[0].date: date 253402300800.0 is outside the years 1 to 9999 (-62135596800 to 253402300799 seconds since 1970)"),
        (#"{"entries":[],"policy":{"kind":"after","date":1e300}}"#, "policy.date: date 1e+300 is outside the years 1 to 9999 (-62135596800 to 253402300799 seconds since 1970)"),
        (#"{"entries":[{"date":1,"view":{"view":"text","date":-1e308,"dateStyle":"time"}}]}"#, "entries[0].view.date: date -1e+308 is outside the years 1 to 9999 (-62135596800 to 253402300799 seconds since 1970)"),
        (#"{"entries":[{"date":1,"view":{"view":"text","timerInterval":[0,1e308]}}]}"#, "entries[0].view.timerInterval: date 1e+308 is outside the years 1 to 9999 (-62135596800 to 253402300799 seconds since 1970)"),
    ])
    func structuralFaultsNameTheirPath(json: String, message: String) {
        fault(of: json, is: message)
    }

    private func decode(_ json: String) throws(WireFormatError) -> WireTimeline {
        let bytes = Array(json.utf8)
        let result: Result<WireTimeline, WireFormatError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(WireFormatError) { return .success(try WireTimeline(bytes: buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private func fault(of json: String, is message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try decode(json)
            Issue.record("\(json) must be rejected", sourceLocation: sourceLocation)
        } catch {
            #expect(error.description == message, sourceLocation: sourceLocation)
        }
    }

    @Test func theFirstAndLastSecondsOfTheYears1To9999AreDates() throws {
        let timeline = try decode(#"{"entries":[{"date":-62135596800,"view":{"view":"text"}},{"date":253402300799,"view":{"view":"text"}}]}"#)
        #expect(timeline.entries.map(\.date) == [WireDate.earliest, WireDate.latest])
    }

    @Test func escapedMemberNamesAreTheNamesTheySpell() throws {
        let timeline = try decode(#"{"\u0065ntries":[{"d\u0061te":1,"view":{"v\u0069ew":"text","t\u0065xt":"hi"}}],"p\u006flicy":{"kind":"never"}}"#)
        #expect(timeline == WireTimeline(entries: [WireEntry(date: 1, view: ViewNode("text", attributes: JSONObject([("text", .string("hi"))])))], policy: .never))
        fault(of: #"{"entries":[],"entr\u0069es":[]}"#, is: #"invalid JSON at byte 29: duplicate member "entries""#)
    }

    /// A relevance or a policy means the same whatever the order of its members, its spacing, its
    /// escapes or the members it adds.
    @Test(arguments: [
        (#"{"score":0.5,"duration":60}"#, WireRelevance(score: 0.5, duration: 60)),
        (#"{"duration":60,"score":0.5}"#, WireRelevance(score: 0.5, duration: 60)),
        (#"{ "score" : -2 }"#, WireRelevance(score: -2, duration: 0)),
        (#"{"score":1,"note":"kept out"}"#, WireRelevance(score: 1, duration: 0)),
        (#"{"sc\u006fre":3,"duration":1}"#, WireRelevance(score: 3, duration: 1)),
        (#"null"#, nil),
    ] as [(String, WireRelevance?)])
    func relevanceMeansTheSameInEveryShape(json: String, relevance: WireRelevance?) throws {
        let timeline = try decode(#"{"entries":[{"date":1,"relevance":"# + json + #","view":{"view":"text"}}]}"#)
        #expect(timeline.entries.first?.relevance == relevance)
    }

    @Test(arguments: [
        (#"{"kind":"atEnd"}"#, WireReloadPolicy.atEnd),
        (#"{"kind":"never","date":5}"#, .never),
        (#"{"date":5,"kind":"after"}"#, .after(5)),
        (#"{"kind":"\u0061fter","date":7.5}"#, .after(7.5)),
        (#"{"kind":"after","date":5,"why":"no reason"}"#, .after(5)),
        (#"{ "kind" : "after" , "date" : 5 }"#, .after(5)),
        (#"null"#, nil),
    ] as [(String, WireReloadPolicy?)])
    func policyMeansTheSameInEveryShape(json: String, policy: WireReloadPolicy?) throws {
        #expect(try decode(#"{"entries":[],"policy":"# + json + "}").policy == policy)
    }

    @Test(arguments: [
        (#"{"entries":[{"date":1,"relevance":{"score":"high"},"view":{"view":"text"}}]}"#, #"entries[0].relevance: missing numeric "score""#),
        (#"{"entries":[{"date":1,"relevance":{},"view":{"view":"text"}}]}"#, #"entries[0].relevance: missing numeric "score""#),
        (#"{"entries":[{"date":1,"relevance":{"score":1,"score":2},"view":{"view":"text"}}]}"#, #"invalid JSON at byte 53: duplicate member "score""#),
        (#"{"entries":[{"date":1,"relevance":{"score":1,"duration":-5},"view":{"view":"text"}}]}"#, "entries[0].relevance.duration: negative duration -5.0"),
        (#"{"entries":[],"policy":{"kind":"soon"}}"#, #"policy.kind: unknown policy "soon" (atEnd, after or never)"#),
        (#"{"entries":[],"policy":{"kind":"after","date":"tomorrow"}}"#, #"policy: "after" without a numeric "date""#),
        (#"{"entries":[],"policy":{}}"#, #"policy: missing "kind" (atEnd, after or never)"#),
        (#"{"entries":[],"policy":{"kind":"never","kind":"atEnd"}}"#, #"invalid JSON at byte 46: duplicate member "kind""#),
        (#"{"entries":[],"policy":{"kind":"never""#, "invalid JSON at byte 38: unexpected end of input in an object"),
    ])
    func relevanceAndPolicyFaultsNameTheirPathOrOffset(json: String, message: String) {
        fault(of: json, is: message)
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

@Suite struct ParameterSchemaTests {
    func schema(_ json: String) throws -> ParameterSchema { try ParameterSchema(json: try JSONValue.parse(json)) }

    /// Why a schema is refused; nil when it is not.
    func refusal(_ json: String) -> String? {
        do {
            _ = try schema(json)
            return nil
        } catch let error as WireFormatError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    @Test func aNumbersRangeTravelsAndIsChecked() throws {
        let steps = try schema(#"{"name":"steps","type":"integer","default":8000,"range":[1000,50000]}"#)
        #expect(steps.range == 1000...50000)
        #expect(try schema(steps.json.jsonText) == steps)
        #expect(ParameterSchema.rangeText(0.5...2) == "from 0.5 to 2")
        #expect(refusal(#"{"name":"n","type":"string","range":[1,2]}"#) == "range: only a number parameter has a range; this one is string")
        #expect(refusal(#"{"name":"n","type":"integer","range":[5,1]}"#) == "range: [5,1] is not [least, greatest]")
        #expect(refusal(#"{"name":"n","type":"integer","range":[1,5],"default":9}"#) == "default: 9 is out of range: from 1 to 5")
    }

    @Test func aListsDefaultIsAListOfValuesOfItsTypeAndItsCountIsChecked() throws {
        let cities = try schema(#"{"name":"cities","type":"entity","list":true,"maxCount":3,"default":["Oslo","Lima"]}"#)
        #expect(cities.isList && cities.maximumCount == 3 && cities.defaultValue == .array([.string("Oslo"), .string("Lima")]))
        #expect(try schema(cities.json.jsonText) == cities)
        #expect(!cities.element.isList && cities.element.maximumCount == nil)
        #expect(refusal(#"{"name":"n","type":"integer","list":true,"default":[1,"two"]}"#) == #"default: [1,"two"] is not a list of which each is a value of type integer"#)
        #expect(refusal(#"{"name":"n","type":"integer","list":true,"maxCount":1,"default":[1,2]}"#) == "default: 2 values, more than the 1 it holds")
        #expect(refusal(#"{"name":"n","type":"integer","maxCount":2}"#) == "maxCount: only a list has a count")
    }
}
