import Foundation
import Testing
import WidgetRendering
import WidgetWire

/// Self-updating dates, formatted for a fixed moment on an injected clock, in UTC.
@Suite struct DateTextTests {
    let dates = DateText(timeZone: TimeZone(identifier: "UTC")!)
    let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC

    func text(_ attributes: [(String, JSONValue)]) -> ViewNode {
        ViewNode("text", attributes: JSONObject([("text", .string("fallback"))] + attributes))
    }

    func styled(_ offset: TimeInterval, _ style: String) -> String {
        dates.text(of: text([("date", .number(now.timeIntervalSince1970 + offset)), ("dateStyle", .string(style))]), now: now)
    }

    @Test func everyDateStyle() {
        #expect(styled(0, "date") == "January 15, 2027")
        #expect(styled(3600 * 6 + 300, "time") == "2:05 PM")
        #expect(styled(2 * 3600 + 5 * 60 + 9, "relative") == "2 hr, 5 min")
        #expect(styled(-(47 * 60 + 12), "relative") == "47 min, 12 sec")
        #expect(styled(12, "relative") == "12 sec")
        #expect(styled(3 * 86_400 + 3600, "relative") == "3 days, 1 hr")
        #expect(styled(2 * 3600 + 59, "offset") == "+2 hours")
        #expect(styled(-300, "offset") == "-5 minutes")
        #expect(styled(1, "offset") == "+1 second")
        #expect(styled(2 * 3600 + 5 * 60 + 9, "timer") == "2:05:09")
        #expect(styled(-(5 * 60 + 9), "timer") == "5:09")
        #expect(styled(0, "nonsense") == "fallback")
    }

    @Test func rangesAndTimers() {
        let start = now.timeIntervalSince1970
        #expect(dates.text(of: text([("dateRange", .array([.number(start), .number(start + 5400)]))]), now: now) == "8:00 AM–9:30 AM")
        #expect(dates.text(of: text([("dateRange", .array([.number(start), .number(start + 86_400)]))]), now: now)
            == "Jan 15 at 8:00 AM – Jan 16 at 8:00 AM")
        let interval: [(String, JSONValue)] = [("timerInterval", .array([.number(start - 60), .number(start + 600)]))]
        #expect(dates.text(of: text(interval + [("countsDown", .bool(true))]), now: now) == "10:00")
        #expect(dates.text(of: text(interval + [("countsDown", .bool(false))]), now: now) == "1:00")
        #expect(dates.text(of: text(interval), now: now.addingTimeInterval(3600)) == "0:00", "a finished countdown stays at zero")
        #expect(dates.text(of: text(interval + [("pauseTime", .number(start + 300))]), now: now.addingTimeInterval(100)) == "5:00")
        let long: [(String, JSONValue)] = [("timerInterval", .array([.number(start), .number(start + 7509)])), ("showsHours", .bool(false))]
        #expect(dates.text(of: text(long), now: now) == "125:09")
    }

    @Test func whichTextsTick() {
        #expect(DateText.isLive(text([("date", .number(0)), ("dateStyle", .string("timer"))])))
        #expect(!DateText.isLive(text([("date", .number(0)), ("dateStyle", .string("date"))])))
        #expect(DateText.isLive(text([("timerInterval", .array([.number(0), .number(1)]))])))
        #expect(!DateText.isLive(text([("timerInterval", .array([.number(0), .number(1)])), ("pauseTime", .number(0))])))
        #expect(DateText.containsLive(ViewNode("vstack", children: [text([]), text([("date", .number(0)), ("dateStyle", .string("relative"))])])))
        #expect(!DateText.containsLive(ViewNode("vstack", children: [text([])])))
    }

    @Test func theLayoutDrawsDatesForTheMomentItIsGiven() {
        let timer = text([("date", .number(now.timeIntervalSince1970 + 65)), ("dateStyle", .string("timer"))])
        let renderer = TerminalRenderer(colorMode: .none, appearance: .dark)
        let first = renderer.render(timer, family: .accessoryInline, now: now, dates: dates)
        let later = renderer.render(timer, family: .accessoryInline, now: now.addingTimeInterval(5), dates: dates)
        #expect(first[1].contains("1:05"))
        #expect(later[1].contains("1:00"))
    }
}
