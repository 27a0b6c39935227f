import Foundation
import WidgetWire

/// How `widgets watch` prints each change.
enum WatchFormat: String, CaseIterable, Sendable {
    case text, json, waybar
}

extension Command {
    static let watch = Command(
        "watch", summary: "Print each change of the running host's instances (of each ID only) as it happens.",
        arguments: ["[ID…]"], options: [Options.watchFormat.spec, Options.json.spec],
        discussion: """
            First what each instance shows now, then a line whenever that changes: an entry takes over, a timeline
            arrives, a reload starts, fails (the last good entry stays, "stale"), or is deferred by the budget (and until
            when); an instance is added, configured or removed. Each line has the time, the instance, what changed,
            what it now shows (as 'widgets run --log' prints it) and when it next changes. --json (or --format json)
            prints each event as one JSON object; --format waybar prints waybar's custom-module JSON for one instance
            ("text", "tooltip", "class": "stale", "failed" or "missing"). Ends when the host stops.
            """
    ) { $0.watch(ids: $0.positionals) }
}

extension Invocation {
    /// `widgets watch [ID…]`: subscribes to the running host's events and prints each.
    func watch(ids: [String]) -> ExitCode {
        let format: WatchFormat
        do {
            format = try value(Options.watchFormat) ?? (isSet(Options.json) ? .json : .text)
        } catch {
            return CLI.usage(error, output)
        }
        if format == .waybar && ids.count != 1 {
            return CLI.usage(UsageError(message: "--format waybar shows one instance: name its ID", command: "watch"), output)
        }
        var request = JSONObject([("request", .string("watch"))])
        if !ids.isEmpty { request["ids"] = .array(ids.map(JSONValue.string)) }
        let client: ControlClient
        let answer: JSONValue
        do {
            client = try ControlClient()
            answer = try client.send(.object(request))
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        for event in answer["current"]?.arrayValue ?? [] { print(event, format) }
        do {
            while let event = try client.nextEvent() { print(event, format) }
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        if format == .text { output.standardOutput("widgets: the host stopped") }
        return .success
    }

    private func print(_ event: JSONValue, _ format: WatchFormat) {
        switch format {
        case .json: output.standardOutput(event.jsonText)
        case .text: output.standardOutput(Self.watchLine(event))
        case .waybar: output.standardOutput(Self.waybarLine(event).jsonText)
        }
    }

    /// `12:00:05 clock-1 entry: 12:00 | Monday [next change 12:01:00]`.
    static func watchLine(_ event: JSONValue) -> String {
        let time = event["time"]?.stringValue.flatMap(Self.parseDate).map { timeFormatter.string(from: $0) } ?? "--:--:--"
        let id = event["id"]?.stringValue ?? "?"
        let name = event["event"]?.stringValue ?? "?"
        if name == "removed" { return "\(time) \(id) removed" }
        var line = "\(time) \(id) \(name)"
        if let text = event["text"]?.stringValue, !text.isEmpty { line += ": \(text)" }
        if event["stale"]?.boolValue == true, let date = event["entryDate"]?.stringValue.flatMap(Self.parseDate) {
            line += " [as of \(timeFormatter.string(from: date))]"
        }
        if let next = event["nextChange"]?.stringValue.flatMap(Self.parseDate) {
            line += " [next change \(timeFormatter.string(from: next))]"
        }
        return line
    }

    /// waybar's custom module (`return-type: json`): the text on one line, a tooltip, and a class for
    /// stale, failed or missing instances.
    static func waybarLine(_ event: JSONValue) -> JSONValue {
        let text = event["text"]?.stringValue ?? ""
        var classes: [JSONValue] = []
        if event["phase"]?.stringValue == "bundleMissing" { classes.append(.string("missing")) }
        if event["lastFailure"]?.stringValue != nil { classes.append(.string(event["stale"]?.boolValue == true ? "stale" : "failed")) }
        if event["event"]?.stringValue == "removed" { classes.append(.string("removed")) }
        let bar = text.split(separator: "[", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? text
        return .object(
            JSONObject([
                ("text", .string(bar)), ("tooltip", .string("\(event["kind"]?.stringValue ?? ""): \(text)")), ("class", .array(classes)),
            ]))
    }

    static func parseDate(_ text: String) -> Date? {
        ISO8601DateFormatter().date(from: text)
    }
}
