import FoundationEssentials
import WidgetABI
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// A provider's answer: its entries, their dates and the reload policy.
extension Render {
    /// A request's answer as text, written a few hundred lines at a time as it is made (each part
    /// ends with a newline).
    static func writeResultText(_ result: ProviderResult, _ write: (String) -> Void) {
        var header = "\(result.kind) · \(result.family) · \(result.requestKind.rawValue)"
        if result.requestKind == .timeline {
            header += " · \(result.entries.count) entr\(result.entries.count == 1 ? "y" : "ies")"
        }
        if let policy = result.policy { header += " · reload \(policyText(policy))" }
        var lines = [header]
        for (index, entry) in result.entries.enumerated() {
            var line = "─ entry \(index + 1) · \(dateText(entry.date))"
            if let relevance = entry.relevance {
                line += " · relevance \(number(relevance.score))"
                if relevance.duration > 0 { line += " for \(number(relevance.duration)) s" }
            }
            lines.append(line)
            let body = PlainTextRenderer.lines(entry.view, now: shownAt(entry))
            lines += body.isEmpty ? ["  (empty)"] : body.map { "  " + $0 }
            if lines.count >= 512 {
                write(lines.joined(separator: "\n") + "\n")
                lines = []
            }
        }
        if !lines.isEmpty { write(lines.joined(separator: "\n") + "\n") }
    }

    /// When an entry is on screen from: its date, or now for an entry whose date has passed. Its
    /// self-updating texts (`.timer`, `.relative`) read as of then.
    static func shownAt(_ entry: WireEntry) -> Date {
        max(Date(timeIntervalSince1970: entry.date), Date())
    }

    /// A request's answer as JSON, written in parts of about 64 KiB as it is made: a timeline of
    /// thousands of entries is never held as one value and one text besides the answer itself.
    /// The text is that of one JSON object, ending with a newline.
    static func writeResultJSON(_ result: ProviderResult, _ write: (String) -> Void) {
        let head = JSONValue.object(
            JSONObject([
                ("kind", .string(result.kind)), ("family", .string(result.family.rawValue)), ("request", .string(result.requestKind.rawValue)),
            ])
        ).jsonText
        var part = head.dropLast() + ",\"entries\":["
        for (index, entry) in result.entries.enumerated() {
            if index > 0 { part += "," }
            part += entryJSON(entry).jsonText
            if part.utf8.count >= 64 << 10 {
                write(String(part))
                part = ""
            }
        }
        var tail = JSONObject()
        if let policy = result.policy {
            var fields = JSONObject()
            switch policy {
            case .atEnd: fields["kind"] = .string("atEnd")
            case .never: fields["kind"] = .string("never")
            case .after(let date):
                fields["kind"] = .string("after")
                fields["date"] = .string(isoDate(date))
                fields["timestamp"] = .number(date)
            }
            tail["policy"] = .object(fields)
        }
        tail["notes"] = .array(result.notes.map(JSONValue.string))
        write(String(part) + "]," + JSONValue.object(tail).jsonText.dropFirst() + "\n")
    }

    static func entryJSON(_ entry: WireEntry) -> JSONValue {
        var fields = JSONObject([("date", .string(isoDate(entry.date))), ("timestamp", .number(entry.date))])
        fields["relevance"] =
            entry.relevance.map {
                .object(JSONObject([("score", .number($0.score)), ("duration", .number($0.duration))]))
            } ?? .null
        fields["text"] = .string(PlainTextRenderer.text(entry.view, now: shownAt(entry)))
        fields["view"] = entry.view.json
        return .object(fields)
    }

    static func policyText(_ policy: WireReloadPolicy) -> String {
        switch policy {
        case .atEnd: "atEnd"
        case .never: "never"
        case .after(let date): "after \(dateText(date))"
        }
    }

    /// Local time, to the second, with the offset: what a person compares with their clock.
    static func dateText(_ seconds: Double) -> String {
        let date = Date(timeIntervalSince1970: seconds)
        let clock = LocalTime()
        return clock.text(date, "%Y-%m-%d %H:%M:%S ") + clock.offsetText(date)
    }

    static func isoDate(_ seconds: Double) -> String {
        ISODate.text(Date(timeIntervalSince1970: seconds))
    }

    static func number(_ value: Double) -> String {
        JSONValue.number(value).displayText
    }
}
