import FoundationEssentials
import WidgetSupport
import WidgetWire

/// Formats a text node's self-updating date (`Text(date, style:)`, a date range, a timer) for the
/// moment it is drawn. Other text nodes keep their text.
///
/// English (en_US), as the SDK's fixed strings are; the time zone is the system's unless given
/// (tests give UTC).
public struct DateText: Sendable {
    /// The zone given; nil for the system's (`TZ`, else /etc/localtime).
    public var timeZone: TimeZone?

    public init(timeZone: TimeZone? = nil) {
        self.timeZone = timeZone
    }

    /// Whether the node's text changes as time passes (and so is redrawn every second).
    public static func isLive(_ node: ViewNode) -> Bool {
        if node.view == "progress" { return node["timerInterval"] != nil }
        guard node.view == "text" else { return false }
        if let parts = node["parts"]?.arrayValue { return parts.contains { isLive($0.objectValue.map { part in { part[$0] } }) } }
        return isLive { node[$0] }
    }

    /// Whether a date, a range or a timer, its attributes read by `attribute`, changes as time passes.
    private static func isLive(_ attribute: ((String) -> JSONValue?)?) -> Bool {
        guard let attribute else { return false }
        if attribute("timerInterval") != nil { return attribute("pauseTime") == nil }
        return ["relative", "offset", "timer"].contains(attribute("dateStyle")?.stringValue ?? "")
    }

    /// Whether anything in the tree is live.
    public static func containsLive(_ node: ViewNode) -> Bool {
        isLive(node) || node.children.contains(where: containsLive)
    }

    /// A live text node's parts, for a drawing that formats them itself as time passes (the web
    /// page ticks them each second without asking the host): an array of strings, each shown as
    /// it is, and objects, each a changing date: `{"relative": T}`, `{"offset": T}`, `{"timer": T}`
    /// (`T` seconds since 1970, shown as `relative`, `offset` and `timer` show them), or a timer
    /// `{"from": S, "to": E, "down": Bool, "hours": Bool}`. Nil when nothing in it changes.
    public func liveParts(of node: ViewNode, now: Date) -> JSONValue? {
        guard Self.isLive(node), node.view == "text" else { return nil }
        func part(_ attribute: (String) -> JSONValue?) -> JSONValue? {
            if let interval = attribute("timerInterval")?.arrayValue?.compactMap(\.numberValue), interval.count == 2,
                interval[0] <= interval[1], attribute("pauseTime") == nil
            {
                return .object(
                    JSONObject([
                        ("from", .number(interval[0])), ("to", .number(interval[1])),
                        ("down", .bool(attribute("countsDown")?.boolValue ?? true)), ("hours", .bool(attribute("showsHours")?.boolValue ?? true)),
                    ]))
            }
            if let date = attribute("date")?.numberValue, let style = attribute("dateStyle")?.stringValue,
                ["relative", "offset", "timer"].contains(style)
            {
                return .object(JSONObject([(style, .number(date))]))
            }
            return nil
        }
        if let parts = node["parts"]?.arrayValue {
            return .array(
                parts.map { value in
                    if let object = value.objectValue, let live = part({ object[$0] }) { return live }
                    return .string(DateText.text(ofPart: value, formatter: self, now: now))
                })
        }
        return part { node[$0] }.map { .array([$0]) }
    }

    private static func text(ofPart part: JSONValue, formatter: DateText, now: Date) -> String {
        if let literal = part.stringValue { return literal }
        guard let object = part.objectValue else { return "" }
        if let name = object["systemName"]?.stringValue { return SymbolGlyphs.glyph(name) }
        return formatter.formatted({ object[$0] }, now: now) ?? ""
    }

    /// The node's text at `now`. ICU puts a narrow no-break space before AM/PM, as iOS draws it;
    /// unless kept (a drawing in the font), a plain space, which every terminal font has.
    public func text(of node: ViewNode, now: Date, keepingNarrowSpaces: Bool = false) -> String {
        let fallback = node["text"]?.stringValue ?? ""
        guard node.attributes.members.count > 1 else { return fallback }  // plain text: nothing to format
        let text = formatted(node, now: now, fallback: fallback)
        return keepingNarrowSpaces || !text.unicodeScalars.contains("\u{202F}") ? text : text.replacing("\u{202F}", with: " ")
    }

    private func formatted(_ node: ViewNode, now: Date, fallback: String) -> String {
        // A text made of parts (`Text("Ends \(date, style: .relative)")`, a symbol in a text): each
        // literal as it is, each date or symbol formatted here.
        if let parts = node["parts"]?.arrayValue {
            return parts.map { Self.text(ofPart: $0, formatter: self, now: now) }.joined()
        }
        return formatted({ node[$0] }, now: now) ?? fallback
    }

    /// A date, a range or a timer, its attributes read by `attribute`; nil when it is none of these.
    private func formatted(_ attribute: (String) -> JSONValue?, now: Date) -> String? {
        if let date = attribute("date")?.numberValue, let style = attribute("dateStyle")?.stringValue {
            return format(Date(timeIntervalSince1970: date), style: style, now: now)
        }
        if let range = attribute("dateRange")?.arrayValue?.compactMap(\.numberValue), range.count == 2 {
            return formatRange(Date(timeIntervalSince1970: range[0]), Date(timeIntervalSince1970: range[1]))
        }
        if let interval = attribute("timerInterval")?.arrayValue?.compactMap(\.numberValue), interval.count == 2, interval[0] <= interval[1] {
            let reference = attribute("pauseTime")?.numberValue ?? now.timeIntervalSince1970
            let length = interval[1] - interval[0]
            let shown =
                attribute("countsDown")?.boolValue == false
                ? min(max(reference - interval[0], 0), length) : min(max(interval[1] - reference, 0), length)
            return Self.timer(shown, showsHours: attribute("showsHours")?.boolValue ?? true)
        }
        return nil
    }

    func format(_ date: Date, style: String, now: Date) -> String? {
        let difference = date.timeIntervalSince(now)
        switch style {
        case "date": return clock.text(date, "%B %-d, %Y")
        case "time": return time(date)
        case "relative": return Self.relative(abs(difference))
        case "offset": return Self.offset(difference)
        case "timer": return Self.timer(abs(difference), showsHours: true)
        default: return nil
        }
    }

    /// As en_US's ICU patterns write them: "November 27, 2026" (the long date style), "3:41 PM"
    /// (`jm`, a narrow no-break space before the period), "Nov 27 at 3:41 PM" (`MMMdjm`).
    func formatRange(_ start: Date, _ end: Date) -> String {
        if clock.isSameDay(start, end) { return "\(time(start))–\(time(end))" }
        return "\(clock.text(start, "%b %-d at ") + time(start)) – \(clock.text(end, "%b %-d at ") + time(end))"
    }

    private var clock: LocalTime { LocalTime(timeZone) }

    private func time(_ date: Date) -> String { clock.text(date, "%-I:%M\u{202F}%p") }

    /// "2 hr, 5 min", "47 min, 12 sec", "12 sec": the two largest units, as iOS shows `.relative`.
    static func relative(_ seconds: TimeInterval) -> String {
        let total = Int(min(seconds, 1e12).rounded(.down))
        let units = [(86_400, "day", "days"), (3600, "hr", "hr"), (60, "min", "min"), (1, "sec", "sec")]
        func named(_ count: Int, _ unit: (Int, String, String)) -> String { "\(count) \(count == 1 ? unit.1 : unit.2)" }
        for (index, unit) in units.enumerated() where total >= unit.0 {
            var text = named(total / unit.0, unit)
            if index + 1 < units.count {
                let next = units[index + 1]
                let second = total % unit.0 / next.0
                if second > 0 { text += ", " + named(second, next) }
            }
            return text
        }
        return "0 sec"
    }

    /// "+2 hours", "-5 minutes": the largest whole unit, signed.
    static func offset(_ seconds: TimeInterval) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = Int(min(abs(seconds), 1e12).rounded(.down))
        for (size, name) in [(86_400, "day"), (3600, "hour"), (60, "minute")] where magnitude >= size {
            let count = magnitude / size
            return "\(sign)\(count) \(name)\(count == 1 ? "" : "s")"
        }
        return "\(sign)\(magnitude) second\(magnitude == 1 ? "" : "s")"
    }

    /// "2:05:09", "5:09"; without hours, minutes run past 59 ("125:09").
    static func timer(_ seconds: TimeInterval, showsHours: Bool) -> String {
        let total = Int(min(max(seconds, 0), 1e12).rounded(.down))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if showsHours, total >= 3600 { return "\(total / 3600):\(two(total % 3600 / 60)):\(two(total % 60))" }
        return "\(total / 60):\(two(total % 60))"
    }
}
