import Foundation
import WidgetHost
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
            what it now shows, its last failure and next reload (as 'widgets run --log' prints them) and when it
            next changes. --json (or --format json) prints each event as one JSON object; --format waybar prints
            waybar's custom-module JSON for one instance: "text" the widget drawn in accessoryInline and "tooltip"
            drawn in systemMedium (the host asks the provider for a snapshot in that family; the instance's own
            text where the widget has no such family), "class" "stale", "failed" or "missing". Ends when the host
            stops.
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
        let client: ControlClient
        let current: [JSONValue]
        do {
            client = try ControlClient()
            guard case .watching(let events) = try client.send(.watch(ids: ids.isEmpty ? nil : ids)) else { return .failure }
            current = events
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        for event in current { show(event, format) }
        do {
            while let event = try client.nextEvent() { show(event, format) }
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        if format == .text { output.standardOutput("widgets: the host stopped") }
        return .success
    }

    private func show(_ event: JSONValue, _ format: WatchFormat) {
        switch format {
        case .json: output.standardOutput(event.jsonText)
        case .text: output.standardOutput(Self.watchLine(event))
        case .waybar:
            // The bar's text is the widget drawn in accessoryInline, its tooltip drawn in systemMedium
            // (each the instance's own when the widget has no such family), asked of the host.
            var drawn: [WidgetFamily: String] = [:]
            if event["event"]?.stringValue != "removed", let id = event["id"]?.stringValue {
                for family in [WidgetFamily.accessoryInline, .systemMedium] {
                    if case .text(let text, _)? = try? ControlClient().send(.text(id: id, family: family)) { drawn[family] = text }
                }
            }
            output.standardOutput(Self.waybarLine(event, inline: drawn[.accessoryInline], medium: drawn[.systemMedium]).jsonText)
        }
    }

    /// `12:00:05 clock-1 entry: 12:00 | Monday [next reload 13:00:00, policy] [next change 12:01:00]`:
    /// what it shows, then what `widgets run --log` adds (a failure, the next reload), an "as of" for a
    /// stale entry, and when it next changes.
    static func watchLine(_ event: JSONValue) -> String {
        func time(_ member: String) -> String? { event[member]?.stringValue.flatMap(parseDate).map { timeFormatter.string(from: $0) } }
        let id = event["id"]?.stringValue ?? "?"
        var line = "\(time("time") ?? "--:--:--") \(id) \(event["event"]?.stringValue ?? "?")"
        if event["event"]?.stringValue == "removed" { return line }
        if event["event"]?.stringValue == "moved", let position = event["position"]?.numberValue.flatMap({ Int(exactly: $0) }) {
            return line + " to place \(position + 1)"
        }
        if let text = event["text"]?.stringValue, !text.isEmpty { line += ": \(text)" }
        if let failure = event["lastFailure"]?.stringValue { line += " [last reload failed: \(failure)]" }
        if event["stale"]?.boolValue == true, let asOf = time("entryDate") { line += " [as of \(asOf)]" }
        if let next = time("nextReload"), let reason = event["reason"]?.stringValue {
            line += " [next reload \(next), \(reason)\(event["deferredByBudget"]?.boolValue == true ? ", deferred by the budget" : "")]"
        }
        if let next = time("nextChange") { line += " [next change \(next)]" }
        return line
    }

    /// waybar's custom module (`return-type: json`): what the instance shows, a tooltip naming its
    /// kind and any failure, and a class for stale, failed or missing instances.
    static func waybarLine(_ event: JSONValue, inline: String? = nil, medium: String? = nil) -> JSONValue {
        let text = inline ?? event["text"]?.stringValue ?? ""
        var classes: [JSONValue] = []
        if event["phase"]?.stringValue == "bundleMissing" { classes.append(.string("missing")) }
        if event["lastFailure"]?.stringValue != nil { classes.append(.string(event["stale"]?.boolValue == true ? "stale" : "failed")) }
        if event["event"]?.stringValue == "removed" { classes.append(.string("removed")) }
        var tooltip = "\(event["kind"]?.stringValue ?? ""): \(medium ?? event["text"]?.stringValue ?? "")"
        if let failure = event["lastFailure"]?.stringValue { tooltip += "\nlast reload failed: \(failure)" }
        return .object(JSONObject([("text", .string(text)), ("tooltip", .string(tooltip)), ("class", .array(classes))]))
    }

    static func parseDate(_ text: String) -> Date? {
        ISO8601DateFormatter().date(from: text)
    }
}
