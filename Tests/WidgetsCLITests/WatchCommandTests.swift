import Foundation
import Testing
import WidgetTestSupport
import WidgetHost
import WidgetTimelines
import WidgetWire
@testable import WidgetsCommandLine

/// `widgets watch`: how it prints the host's events, and what it says without a host.
@Suite struct WatchCommandTests {
    static let stale: JSONValue = .object(
        JSONObject([
            ("event", .string("failed")), ("id", .string("price-1")), ("time", .string("2026-11-23T14:07:00Z")),
            ("kind", .string("org.widgets.crypto.price")), ("phase", .string("showing")), ("text", .string("BTC | $91,234")),
            ("entryDate", .string("2026-11-23T14:05:00Z")), ("nextChange", .string("2026-11-23T14:12:00Z")), ("lastFailure", .string("offline")),
            ("stale", .bool(true)),
        ]))

    @Test func aLineSaysWhatChangedWhatItShowsAsOfWhenAndWhenItNextChanges() {
        // Foundation's own formatter, in the test's process, says what the CLI (built without it) must write.
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        let at = { (text: String) in formatter.string(from: ISO8601DateFormatter().date(from: text)!) }
        #expect(
            Invocation.watchLine(Self.stale)
                == "\(at("2026-11-23T14:07:00Z")) price-1 failed: BTC | $91,234 [last reload failed: offline] [as of \(at("2026-11-23T14:05:00Z"))] [next change \(at("2026-11-23T14:12:00Z"))]"
        )
        let removed: JSONValue = .object(JSONObject([("event", .string("removed")), ("id", .string("price-1")), ("time", .string("2026-11-23T14:07:00Z"))]))
        #expect(Invocation.watchLine(removed) == "\(at("2026-11-23T14:07:00Z")) price-1 removed")
        let moved: JSONValue = .object(
            JSONObject([("event", .string("moved")), ("id", .string("price-1")), ("time", .string("2026-11-23T14:07:00Z")), ("position", .number(0))]))
        #expect(Invocation.watchLine(moved) == "\(at("2026-11-23T14:07:00Z")) price-1 moved to place 1")
    }

    @Test func theLogMarksTheLastGoodEntryAsOfItsDateWhenAReloadFailed() {
        let entry = WireEntry(date: 1_800_000_000, view: ViewNode("text", attributes: JSONObject([("text", .string("BTC $91,234"))])))
        let stale = InstanceStatus(phase: .showing, entry: entry, timelines: 1, lastFailure: "offline")
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        let asOf = formatter.string(from: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(Invocation.statusText(stale) == "BTC $91,234 [as of \(asOf)] [last reload failed: offline]")
        #expect(Invocation.statusText(InstanceStatus(phase: .showing, entry: entry, timelines: 1)) == "BTC $91,234")
    }

    @Test func waybarGetsTextATooltipAndAClassForAStaleInstance() {
        let line = Invocation.barLine(Self.stale)
        #expect(line["text"] == .string("BTC"), "without an inline drawing, the first part of its own text")
        #expect(line["tooltip"] == .string("org.widgets.crypto.price: BTC | $91,234\nlast reload failed: offline"))
        #expect(line["class"] == .array([.string("stale")]))
        #expect(line["alt"] == .string("org.widgets.crypto.price"))
        #expect(line["percentage"] == nil, "no gauge, no percentage")
        // With the widget drawn in accessoryInline and systemMedium by the host: those texts.
        let drawn = Invocation.barLine(Self.stale, inline: "BTC $91,234", medium: "Bitcoin | $91,234 | 14:05")
        #expect(drawn["text"] == .string("BTC $91,234"))
        #expect(drawn["tooltip"] == .string("org.widgets.crypto.price: Bitcoin | $91,234 | 14:05\nlast reload failed: offline"))
    }

    /// waybar reads text and tooltip as Pango markup: a status with & and < is escaped (eww's feed
    /// is not); a gauge's value is the percentage; a long text without an inline family is cut.
    @Test func barTextIsEscapedForPangoAndCarriesThePercentage() {
        let event: JSONValue = .object(
            JSONObject([
                ("event", .string("timeline")), ("id", .string("status-1")), ("kind", .string("com.mygame.game-status")),
                ("text", .string("Boss fight & <loot> | Health 55%")), ("value", .number(0.554)),
            ]))
        let waybar = Invocation.barLine(event)
        #expect(waybar["text"] == .string("Boss fight &amp; &lt;loot&gt;"))
        #expect(waybar["tooltip"] == .string("com.mygame.game-status: Boss fight &amp; &lt;loot&gt; | Health 55%"))
        #expect(waybar["percentage"] == .number(55))
        let eww = Invocation.barLine(event, markup: false)
        #expect(eww["text"] == .string("Boss fight & <loot>"))
        #expect(Invocation.shortText(String(repeating: "word ", count: 20)).count == 40)
        #expect(Invocation.shortText(String(repeating: "word ", count: 20)).hasSuffix("…"))
    }

    /// An event carries the first gauge's or progress view's fraction as `value`, in reading order.
    @Test func anEventCarriesItsFirstGaugeValue() {
        let gauge = ViewNode("gauge", attributes: JSONObject([("value", .number(30)), ("min", .number(0)), ("max", .number(120))]))
        let progress = ViewNode("progress", attributes: JSONObject([("value", .number(0.9))]))
        let view = ViewNode("vstack", children: [ViewNode("text", attributes: JSONObject([("text", .string("HP"))])), ViewNode("hstack", children: [gauge]), progress])
        let status = InstanceStatus(phase: .showing, entry: WireEntry(date: 0, view: view), timelines: 1)
        let event = EventHub.event("timeline", id: "a-1", kind: "k", family: .systemSmall, status: status, text: "HP", now: Date())
        #expect(event["value"] == .number(0.25))
        let plain = InstanceStatus(phase: .showing, entry: WireEntry(date: 0, view: ViewNode("text")), timelines: 1)
        #expect(EventHub.event("timeline", id: "a-1", kind: "k", family: .systemSmall, status: plain, text: "", now: Date())["value"] == .null)
    }

    @Test func withoutARunningHostWatchSaysHowToStartOne() async {
        let result = await widgets(["watch"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("widgets: error: no widget host is running"))
        #expect(result.standardError.contains("start one with 'widgets run'"))
        let waybar = await widgets(["watch", "--format", "waybar"])
        #expect(waybar.status == 2)
        #expect(waybar.standardError.hasPrefix("widgets: --format waybar shows one instance: name its ID\n"))
    }
}

/// The dashboard's keys, as a terminal in raw mode sends them.
@Suite struct DashboardKeysTests {
    @Test func qAndEscQuitArrowsScrollARowPagesAPageSideArrowsSelect() {
        #expect(Keyboard.key([UInt8(ascii: "q")]) == .quit)
        #expect(Keyboard.key([0x1B]) == .quit)
        #expect(Keyboard.key([0x1B, 0x5B, 0x41]) == .scroll(-1))
        #expect(Keyboard.key([0x1B, 0x5B, 0x42]) == .scroll(1))
        #expect(Keyboard.key([0x1B, 0x5B, 0x35, 0x7E]) == .page(-1))
        #expect(Keyboard.key([0x1B, 0x5B, 0x36, 0x7E]) == .page(1))
        #expect(Keyboard.key([0x1B, 0x5B, 0x43]) == .select(1), "→ selects the next box, and is not Esc")
        #expect(Keyboard.key([0x09]) == .select(1))
        #expect(Keyboard.key([0x1B, 0x5B, 0x44]) == .select(-1))
        #expect(Keyboard.key([0x1B, 0x5B, 0x5A]) == .select(-1), "Shift-Tab")
        #expect(Keyboard.key([UInt8(ascii: "x")]) == nil)
    }

    /// Keys arriving in one read are each a key: a quick double PgDn pages twice.
    @Test func keysInOneReadAreEachAKey() {
        #expect(Keyboard.keys([0x1B, 0x5B, 0x36, 0x7E, 0x1B, 0x5B, 0x36, 0x7E]) == [.page(1), .page(1)])
        #expect(Keyboard.keys([0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x43, UInt8(ascii: "q")]) == [.select(1), .select(1), .quit])
        #expect(Keyboard.keys([UInt8(ascii: "j"), UInt8(ascii: "j"), 0x1B]) == [.scroll(1), .scroll(1), .quit])
        #expect(Keyboard.keys([0x1B, 0x4F, 0x42, 0x1B, 0x1B, 0x5B, 0x41]) == [.scroll(1), .quit, .scroll(-1)])
        #expect(Keyboard.keys([0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x43, UInt8(ascii: "k")]) == [.scroll(-1)], "Ctrl-→ is no key, and does not swallow the next")
        #expect(Keyboard.keys(Array("é".utf8) + [UInt8(ascii: "q")]) == [.quit])
    }
}
