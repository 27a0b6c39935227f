import FoundationEssentials
import WidgetHost
import WidgetWire

/// How `widgets watch` prints each change.
enum WatchFormat: String, CaseIterable, Sendable {
    case text, json, waybar, eww

    /// A bar's feed: one instance, one JSON object a line, kept up while the host comes and goes.
    var isBarFeed: Bool { self == .waybar || self == .eww }
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
            next changes. --json (or --format json) prints each event as one JSON object. Ends when the host stops.

            --format waybar prints waybar's custom-module JSON for one instance, a line each time it changes: "text"
            the widget drawn in accessoryInline (the host asks the provider for a snapshot in that family; where the
            widget has none, the first part of its own text, at most 40 characters), "tooltip" drawn in
            systemMedium, "alt" its kind, "percentage" its first gauge or progress value, "class" "stale", "failed"
            or "missing"; text and tooltip escaped for waybar's Pango markup. It keeps running when the host stops:
            a line of class "missing" says so, and it follows the host again when it is back. --format eww is the
            same, unescaped, for eww's deflisten.

            An ID may be a Live Activity's ('widgets activity list'): its events are "activity" (started, updated,
            stale, ended) and "activity-removed"; in a bar its "text" is the Dynamic Island's compact leading and
            trailing views, its tooltip the expanded island, its class "stale", "ended" or "removed". An ID may also be
            a Control's kind ('widgets control'): its text is its label and value, its class "on" or "off".
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
        if format.isBarFeed {
            guard ids.count == 1 else {
                return CLI.usage(UsageError(message: "--format \(format.rawValue) shows one instance: name its ID", command: "watch"), output)
            }
            return feedBar(id: ids[0], format: format)
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
        case .waybar, .eww: output.standardOutput(Self.barLine(event, markup: format == .waybar).jsonText)
        }
    }

    /// A bar's feed of one instance: a line each time what the bar shows changes (never the same
    /// line twice in a row). While the host is away (stopped, restarting, not yet started) a line of
    /// class "missing" says so, and the feed follows the host again once its socket is back. Ends
    /// only when the host refuses (no such instance), with the reason.
    private func feedBar(id: String, format: WatchFormat) -> ExitCode {
        let markup = format == .waybar
        var last: String?
        var lastText = ""
        func emit(_ line: JSONValue) {
            let text = line.jsonText
            guard text != last else { return }
            last = text
            output.standardOutput(text)
        }
        func show(_ event: JSONValue) {
            // The bar's text is the widget drawn in accessoryInline, its tooltip drawn in systemMedium,
            // asked of the host; a widget without an inline family gives its own text, shortened.
            var drawn: [WidgetFamily: String] = [:]
            if event["event"]?.stringValue != "removed", !Self.isActivityEvent(event), !Self.isControlEvent(event) {
                for family in [WidgetFamily.accessoryInline, .systemMedium] {
                    if case .text(let text, let drawnIn)? = try? ControlClient().send(.text(id: id, family: family)), drawnIn == family {
                        drawn[family] = text
                    }
                }
            }
            let line = Self.barLine(event, inline: drawn[.accessoryInline], medium: drawn[.systemMedium], markup: markup)
            lastText = line["text"]?.stringValue ?? ""
            emit(line)
        }
        var away: Date?
        while true {
            do {
                let client = try ControlClient()
                guard case .watching(let events) = try client.send(.watch(ids: [id])) else { return .failure }
                away = nil
                for event in events { show(event) }
                while let event = try client.nextEvent() { show(event) }
            } catch where error.isRefusal && error.description.hasPrefix("no instance") {
                // The instance is not hosted: said, and the feed ends (a bar shows its error).
                output.standardError("widgets: error: \(error)")
                return .failure
            } catch {
                // Not there, gone mid-way, stopping, or too many watchers for now: said once (a
                // line of class missing), then waited for.
            }
            let since = away ?? Date()
            away = since
            emit(Self.hostAwayLine(text: lastText, since: since))
            ControlSocket.waitForHost()
        }
    }

    /// `12:00:05 clock-1 entry: 12:00 | Monday [next reload 13:00:00, policy] [next change 12:01:00]`:
    /// what it shows, then what `widgets run --log` adds (a failure, the next reload), an "as of" for a
    /// stale entry, and when it next changes.
    static func watchLine(_ event: JSONValue) -> String {
        func time(_ member: String) -> String? { event[member]?.stringValue.flatMap(parseDate).map(clockText) }
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

    /// waybar's custom module (`return-type: json`), or eww's listener: what the instance shows (its
    /// inline drawing, else the first part of its own text), a tooltip naming its kind and any
    /// failure, `alt` its kind, `percentage` its first gauge or progress value, and a class for
    /// stale, failed or missing instances. `markup`: text escaped for waybar's Pango markup.
    static func barLine(_ event: JSONValue, inline: String? = nil, medium: String? = nil, markup: Bool = true) -> JSONValue {
        if isActivityEvent(event) { return activityBarLine(event, markup: markup) }
        if isControlEvent(event) { return controlBarLine(event, markup: markup) }
        let own = event["text"]?.stringValue ?? ""
        let text = inline ?? shortText(own)
        var classes: [JSONValue] = []
        if event["phase"]?.stringValue == "bundleMissing" { classes.append(.string("missing")) }
        if event["lastFailure"]?.stringValue != nil { classes.append(.string(event["stale"]?.boolValue == true ? "stale" : "failed")) }
        if event["event"]?.stringValue == "removed" { classes.append(.string("removed")) }
        let kind = event["kind"]?.stringValue ?? ""
        var tooltip = "\(kind): \(medium ?? own)"
        if let failure = event["lastFailure"]?.stringValue { tooltip += "\nlast reload failed: \(failure)" }
        var members: [(key: String, value: JSONValue)] = [
            ("text", .string(markup ? pango(text) : text)), ("tooltip", .string(markup ? pango(tooltip) : tooltip)), ("alt", .string(kind)),
            ("class", .array(classes)),
        ]
        if let value = event["value"]?.numberValue, value.isFinite { members.append(("percentage", .number((value * 100).rounded()))) }
        return .object(JSONObject(members))
    }

    /// Whether an event is a Live Activity's (`activity`, `current-activity`, `activity-removed`).
    static func isActivityEvent(_ event: JSONValue) -> Bool {
        event["event"]?.stringValue.map { $0.hasPrefix("activity") || $0 == "current-activity" } ?? false
    }

    /// Whether an event is a Control's (`control`, `current-control`).
    static func isControlEvent(_ event: JSONValue) -> Bool {
        event["event"]?.stringValue.map { $0 == "control" || $0 == "current-control" } ?? false
    }

    /// A Control in a bar: its label and value as text, its name as tooltip, `alt` its kind, a
    /// toggle's class "on" or "off" (waybar styles `#custom-NAME.on`), "failed" when it could not
    /// be asked.
    static func controlBarLine(_ event: JSONValue, markup: Bool) -> JSONValue {
        let text = event["text"]?.stringValue ?? ""
        let kind = event["kind"]?.stringValue ?? ""
        var tooltip = event["name"]?.stringValue ?? kind
        var classes: [JSONValue] = []
        if event["template"]?.stringValue == "toggle" { classes.append(.string(event["isOn"]?.boolValue == true ? "on" : "off")) }
        if event["disabled"]?.boolValue == true { classes.append(.string("disabled")) }
        if let failure = event["failure"]?.stringValue {
            classes.append(.string("failed"))
            tooltip += "\n\(failure)"
        }
        return .object(
            JSONObject([
                ("text", .string(markup ? pango(text) : text)), ("tooltip", .string(markup ? pango(tooltip) : tooltip)), ("alt", .string(kind)),
                ("class", .array(classes)),
            ]))
    }

    /// A Live Activity in a bar, as the Dynamic Island's compact presentation shows it: its compact
    /// leading and trailing views as text (else its minimal view, else its Lock Screen text, shortened),
    /// the expanded island as tooltip (else the Lock Screen text), `alt` its type, a class for a stale,
    /// ended or removed activity.
    static func activityBarLine(_ event: JSONValue, markup: Bool) -> JSONValue {
        func member(_ name: String) -> String? { event[name]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
        let lockScreen = member("text") ?? ""
        let text = member("compact") ?? member("minimal") ?? shortText(lockScreen)
        let type = member("type") ?? ""
        let tooltip = "\(type): \(member("expanded") ?? lockScreen)"
        var classes: [JSONValue] = []
        if event["stale"]?.boolValue == true { classes.append(.string("stale")) }
        if event["phase"]?.stringValue == "ended" { classes.append(.string("ended")) }
        if event["event"]?.stringValue == "activity-removed" { classes.append(.string("removed")) }
        return .object(
            JSONObject([
                ("text", .string(markup ? pango(text) : text)), ("tooltip", .string(markup ? pango(tooltip) : tooltip)), ("alt", .string(type)),
                ("class", .array(classes)),
            ]))
    }

    /// What a bar shows while the host is away: the last text, of class "missing", and since when.
    static func hostAwayLine(text: String, since: Date) -> JSONValue {
        .object(
            JSONObject([
                ("text", .string(text)), ("tooltip", .string("the widget host is not running (since \(clockText(since))); waiting for it")),
                ("alt", .string("")), ("class", .array([.string("missing")])),
            ]))
    }

    /// A bar's text from a widget's whole text: its first part (the text before " | "), at most 40
    /// characters.
    static func shortText(_ text: String) -> String {
        let first = text.components(separatedBy: " | ").first ?? text
        return first.count > 40 ? String(first.prefix(39)) + "…" : first
    }

    /// Text for Pango markup, as waybar reads a module's text and tooltip: &, <, > and quotes escaped.
    static func pango(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "'": escaped += "&#39;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func parseDate(_ text: String) -> Date? {
        ISODate.parse(text)
    }
}
