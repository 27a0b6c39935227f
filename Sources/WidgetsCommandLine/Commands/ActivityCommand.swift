import FoundationEssentials
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetWire

extension Command {
    static let activity = Command(
        "activity", summary: "Start, update, end and list Live Activities in the running host, as an app's ActivityKit does.",
        arguments: ["ACTION", "[TYPE|ID]"],
        options: [
            Options.activityAttributes.spec, Options.activityState.spec, Options.staleIn.spec, Options.relevance.spec, Options.dismissal.spec,
            Options.json.spec,
        ],
        discussion: """
            Actions: 'start TYPE --attributes JSON --state JSON' starts an activity of TYPE (its ActivityAttributes type's
            name) and prints its id; 'update ID --state JSON' gives it new content; 'end ID [--state JSON] [--dismissal
            POLICY]' ends it; 'list [TYPE]' lists those the host keeps, with their Lock Screen text (--json: every field).
            The attributes and state are JSON as Swift's JSONEncoder writes the types (a Date is seconds since 2001-01-01).
            The host draws each state with the bundle's ActivityConfiguration before it keeps it, so a state the bundle
            cannot read is refused, naming the field.
            """
    ) { try await $0.activity() }
}

extension Options {
    static let activityAttributes = Option<JSONValue>("attributes", value: "JSON", help: "the activity's attributes, a JSON object", parse: jsonObject("attributes"))
    static let activityState = Option<JSONValue>("state", value: "JSON", help: "the activity's content state, a JSON object", parse: jsonObject("state"))
    static let staleIn = Option<Double>("stale-in", value: "SECONDS", help: "the content turns stale this many seconds from now (its staleDate)") { text in
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else { return .failure(UsageText("--stale-in takes a number of seconds from 0, not '\(text)'")) }
        return .success(seconds)
    }
    static let relevance = Option<Double>("relevance", value: "SCORE", help: "the content's relevanceScore (higher shows first)") { text in
        guard let score = Double(text), score.isFinite else { return .failure(UsageText("--relevance takes a number, not '\(text)'")) }
        return .success(score)
    }
    static let dismissal = Option<String>(
        "dismissal", value: "POLICY", help: "when an ended activity leaves: default (up to 4 hours), immediate, or a number of seconds after the end"
    ) { text in
        guard text == "default" || text == "immediate" || Double(text).map({ $0.isFinite && $0 >= 0 }) == true else {
            return .failure(UsageText("--dismissal takes default, immediate or a number of seconds, not '\(text)'"))
        }
        return .success(text)
    }

    static func jsonObject(_ name: String) -> @Sendable (String) -> Result<JSONValue, UsageText> {
        { text in
            do {
                let value = try JSONValue.parse(Array(text.utf8))
                guard case .object = value else { return .failure(UsageText("--\(name) takes a JSON object ({...}), not '\(text)'")) }
                return .success(value)
            } catch {
                return .failure(UsageText("--\(name) is not JSON: \(error)"))
            }
        }
    }
}

extension Invocation {
    /// `widgets activity start|update|end|list`: through the running host, which keeps activities.
    func activity() async throws(UsageError) -> ExitCode {
        let action = positionals[0]
        let target = argument(1)
        let now = Date().timeIntervalSince1970
        func content(required: Bool) throws(UsageError) -> ControlRequest.ActivityContentValue? {
            guard let state = try value(Options.activityState) else {
                if required { throw usageError("'widgets activity \(action)' needs --state JSON: the activity's content state") }
                return nil
            }
            return ControlRequest.ActivityContentValue(
                state: state, staleDate: try value(Options.staleIn).map { now + $0 }, relevance: try value(Options.relevance) ?? 0)
        }
        let request: ControlRequest
        switch action {
        case "start":
            guard let type = target else { throw usageError("'widgets activity start' needs the activity's TYPE (its attributes type's name)") }
            guard let attributes = try value(Options.activityAttributes) else {
                throw usageError("'widgets activity start' needs --attributes JSON: the activity's attributes")
            }
            request = .activityStart(type: type, attributes: attributes, content: try content(required: true)!)
        case "update":
            guard let id = target else { throw usageError("'widgets activity update' needs the activity's ID") }
            request = .activityUpdate(id: id, content: try content(required: true)!)
        case "end":
            guard let id = target else { throw usageError("'widgets activity end' needs the activity's ID") }
            let dismissal: ActivityDismissal =
                switch try value(Options.dismissal) {
                case nil, "default": .default
                case "immediate": .immediate
                case let seconds?: .after(now + (Double(seconds) ?? 0))
                }
            request = .activityEnd(id: id, content: try content(required: false), dismissal: dismissal)
        case "list":
            request = .activities(type: target)
        default:
            throw usageError("unknown action '\(action)'\(Suggestion.hint(for: action, among: ["start", "update", "end", "list"])); actions: start, update, end, list")
        }
        let answer: ControlAnswer
        do {
            answer = try ControlClient().send(request)
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        switch answer {
        case .refused(let reason):
            output.standardError("widgets: error: \(reason)")
            return .failure
        case .activity(let record):
            if isSet(Options.json) {
                output.standardOutput(record.json.jsonText)
            } else if action == "start" {
                output.standardOutput(record.id)
            } else {
                output.standardOutput("\(record.id): \(record.phase.rawValue)\(record.phase == .ended && record.dismissAt != nil ? ", leaves at \(Date(timeIntervalSince1970: record.dismissAt!))" : "")")
            }
        case .activities(let records):
            if isSet(Options.json) {
                output.standardOutput(JSONValue.array(records.map(\.json)).jsonText)
            } else if records.isEmpty {
                output.standardOutput(target.map { "no activities of type \($0)" } ?? "no activities")
            } else {
                let rows = records.map { record in
                    [record.id, record.type, record.phase.rawValue, record.presentations.map { PlainTextRenderer.lines($0.lockScreen).joined(separator: " | ") } ?? (record.failure ?? "")]
                }
                output.standardOutput(Render.table(header: ["ID", "TYPE", "PHASE", "LOCK SCREEN"], rows: rows))
            }
        default:
            output.standardError("widgets: error: the host answered something else than an activity")
            return .failure
        }
        return .success
    }
}
