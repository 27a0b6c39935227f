import Foundation
import WidgetHost
import WidgetWire

extension Command {
    static let reload = Command(
        "reload", summary: "Ask the running host to reload the timelines of KIND's instances (of all, without KIND).",
        arguments: ["[KIND]"], options: [Options.foreground.spec],
        discussion: "What WidgetCenter.shared.reloadTimelines(ofKind:) and reloadAllTimelines() do from an app."
    ) { $0.reload(kind: $0.argument(0)) }

    static let configurations = Command(
        "configurations", summary: "List the running host's instances, as WidgetCenter's currentConfigurations() does.",
        options: [Options.json.spec]
    ) { $0.configurations() }
}

extension Invocation {
    /// `widgets reload [KIND]`: asks the running host to reload timelines.
    func reload(kind: String?) -> ExitCode {
        var request = JSONObject([("request", .string("reload"))])
        if let kind { request["kind"] = .string(kind) }
        if isSet(Options.foreground) { request["foreground"] = .bool(true) }
        do {
            let answer = try ControlClient().send(.object(request))
            let count = answer["reloaded"]?.numberValue.flatMap { Int(exactly: $0) } ?? 0
            output.standardOutput("reloading \(count) instance(s)" + (kind.map { " of \($0)" } ?? ""))
            let deferred = (answer["deferred"]?.arrayValue ?? []).compactMap { item -> String? in
                guard let id = item["id"]?.stringValue, let until = item["until"]?.stringValue.flatMap(Self.parseDate) else { return nil }
                return "\(id) until \(Self.timeFormatter.string(from: until))"
            }
            if !deferred.isEmpty {
                output.standardOutput("deferred by the reload budget (at most 50 a day, 5 minutes apart): \(deferred.joined(separator: ", "))")
            }
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }

    /// `widgets configurations`: the running host's instances, as `WidgetCenter` reports them.
    func configurations() -> ExitCode {
        do {
            let answer = try ControlClient().send(.object(JSONObject([("request", .string("configurations"))])))
            let list = answer["configurations"]?.arrayValue ?? []
            if json {
                output.standardOutput(JSONValue.array(list).jsonText)
            } else if list.isEmpty {
                output.standardOutput("The host runs no instances.")
            } else {
                let rows = list.map { item in
                    [
                        item["id"]?.stringValue ?? "", item["kind"]?.stringValue ?? "", item["family"]?.stringValue ?? "",
                        Render.describe(item["configuration"]?.objectValue ?? JSONObject()),
                    ]
                }
                output.standardOutput(Render.table(header: ["ID", "KIND", "FAMILY", "CONFIGURATION"], rows: rows))
            }
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }
}
