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

    static let home = Command(
        "home", summary: "Open the running host's home screen in a browser ('widgets run --web' serves it).",
        options: [Options.printOnly.spec],
        discussion: """
            Asks the running host for the page's address, token included, and opens it with xdg-open when there is
            one (else, or with --print, prints it). For a window of its own: chromium --app="$(widgets home --print)".
            """
    ) { $0.home() }
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

    /// `widgets home`: the home screen's address, from the running host, opened or printed.
    func home() -> ExitCode {
        let url: String
        do {
            let answer = try ControlClient().send(.object(JSONObject([("request", .string("home"))])))
            guard let given = answer["url"]?.stringValue else { throw ControlError("the host gave no address") }
            url = given
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        let opener = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/xdg-open" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard !isSet(Options.printOnly), let opener else {
            output.standardOutput(url)
            return .success
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            output.standardError("widgets: error: cannot run \(opener): \(error.localizedDescription); the home screen is at \(url)")
            return .failure
        }
        guard process.terminationStatus == 0 else {
            output.standardError("widgets: error: \(opener) failed (status \(process.terminationStatus)); the home screen is at \(url)")
            return .failure
        }
        output.standardOutput("opened \(url)")
        return .success
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
