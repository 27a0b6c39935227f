import FoundationEssentials
import WidgetHost
import WidgetSupport
import WidgetWire

extension Command {
    static let reload = Command(
        "reload", summary: "Ask the running host to reload the timelines of KIND's instances (of all, without KIND).",
        arguments: ["[KIND]"], options: [Options.foreground.spec],
        discussion: """
            What WidgetCenter.shared.reloadTimelines(ofKind:) and reloadAllTimelines() do from an app. Without KIND, the
            host also looks again at every bundle directory and the saved instances, as SIGHUP does.
            """
    ) { $0.reload(kind: $0.argument(0)) }

    static let configurations = Command(
        "configurations", summary: "List the running host's instances, as WidgetCenter's currentConfigurations() does.",
        options: [Options.json.spec]
    ) { $0.configurations() }

    static let status = Command(
        "status", summary: "What each instance of the running host shows and since when, and when and why it next changes.",
        arguments: ["[ID]"], options: [Options.json.spec],
        discussion: """
            For each instance (or ID's): the entry shown and since when, the next entry switch, the next reload and
            its reason (policy, budget, retry after a failure, an app's request), the reloads used in the last 24
            hours of the budget's 50, and the last failure. The dashboard's footer shows the same for its
            selected box.
            """
    ) { $0.status(id: $0.argument(0)) }

    static let home = Command(
        "home", summary: "Open the running host's home screen in a browser ('widgets run --web' serves it).",
        options: [Options.printOnly.spec, Options.appWindow.spec],
        discussion: """
            Asks the running host for the page's address, token included, and opens it with $WIDGETS_URL_OPENER, else
            xdg-open when there is one (else, or with --print, prints it). With --app, as a window of its own, as an
            app of the desktop (where 'widgets desktop' cannot show the widgets, as on GNOME): in Chromium, Chrome,
            Edge, Brave or Vivaldi (--app=URL; $WIDGETS_APP_BROWSER names another).
            """
    ) { $0.home() }
}

extension Invocation {
    /// `widgets reload [KIND]`: asks the running host to reload timelines.
    func reload(kind: String?) -> ExitCode {
        do {
            guard case .reloaded(let count, let held) = try ControlClient().send(.reload(kind: kind, app: nil, foreground: isSet(Options.foreground)))
            else { return .failure }
            output.standardOutput("reloading \(count) instance(s)" + (kind.map { " of \($0)" } ?? ""))
            let deferred = held.compactMap { item -> String? in
                guard let until = Self.parseDate(item.until) else { return nil }
                return "\(item.id) until \(Self.clockText(until))"
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

    /// `widgets status [ID]`: the running host's instances, each with what it shows and what is next.
    func status(id: String?) -> ExitCode {
        do {
            guard case .status(let list) = try ControlClient().send(.status(id: id)) else { return .failure }
            if json {
                output.standardOutput(JSONValue.array(list).jsonText)
                return .success
            }
            guard !list.isEmpty else {
                output.standardOutput("The host runs no instances. Add one with 'widgets add KIND'.")
                return .success
            }
            func time(_ member: String, of item: JSONValue) -> String? {
                item[member]?.stringValue.flatMap(Self.parseDate).map(Self.clockText)
            }
            var blocks: [String] = []
            for item in list {
                var lines = ["\(item["id"]?.stringValue ?? "?")  \(item["kind"]?.stringValue ?? "?") · \(item["family"]?.stringValue ?? "?")"]
                switch item["phase"]?.stringValue {
                case "showing":
                    let since = time("entryDate", of: item).map { " (since \($0))" } ?? ""
                    lines.append("  shows: \(item["text"]?.stringValue ?? "")\(since)")
                case "bundleMissing": lines.append("  bundle missing: its configuration is kept until the bundle is back")
                default: lines.append("  loading: no entry yet")
                }
                lines.append("  next entry: \(time("nextEntry", of: item) ?? "none (the timeline has no later entry)")")
                if let next = time("nextReload", of: item) {
                    let reason = item["reason"]?.stringValue.map { " (\($0))" } ?? ""
                    let deferred = item["deferredByBudget"]?.boolValue == true ? ", deferred by the budget" : ""
                    lines.append("  next reload: \(next)\(reason)\(deferred)")
                } else {
                    lines.append("  next reload: none due (policy never; an app's reload asks for one)")
                }
                let used = item["reloadsInWindow"]?.numberValue.map { Int($0) } ?? 0
                lines.append("  reloads in the last 24 h: \(used) of 50")
                if let failure = item["lastFailure"]?.stringValue {
                    let asOf = item["stale"]?.boolValue == true ? time("entryDate", of: item).map { "; showing the entry as of \($0)" } ?? "" : ""
                    lines.append("  last reload failed: \(failure)\(asOf)")
                }
                blocks.append(lines.joined(separator: "\n"))
            }
            output.standardOutput(blocks.joined(separator: "\n\n"))
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
            guard case .home(let given) = try ControlClient().send(.home) else { throw ControlError("the host gave no address") }
            url = given
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        if isSet(Options.appWindow), !isSet(Options.printOnly) {
            do throws(TapError) {
                let browser = try DesktopOpener.openAsApp(url)
                output.standardOutput("opened \(url) in a window of its own (\(browser))")
                return .success
            } catch {
                output.standardError("widgets: error: \(error); the home screen is at \(url)")
                return .failure
            }
        }
        // What opens URLs for the host's taps too ($WIDGETS_URL_OPENER, else xdg-open).
        let opener = DesktopOpener.program()
        guard !isSet(Options.printOnly), let opener else {
            output.standardOutput(url)
            return .success
        }
        let status: Int32
        do {
            status = try Subprocess(opener, [url], standardOutput: .inherit, standardError: .inherit).waitForExit()
        } catch {
            output.standardError("widgets: error: \(error); the home screen is at \(url)")
            return .failure
        }
        guard status == 0 else {
            output.standardError("widgets: error: \(opener) failed (status \(status)); the home screen is at \(url)")
            return .failure
        }
        output.standardOutput("opened \(url)")
        return .success
    }

    /// `widgets configurations`: the running host's instances, as `WidgetCenter` reports them.
    func configurations() -> ExitCode {
        do {
            guard case .configurations(let list) = try ControlClient().send(.configurations) else { return .failure }
            if json {
                output.standardOutput(JSONValue.array(list.map(\.json)).jsonText)
            } else if list.isEmpty {
                output.standardOutput("The host runs no instances.")
            } else {
                let rows = list.map { item in [item.id, item.kind, item.family.rawValue, Render.describe(item.configuration)] }
                output.standardOutput(Render.table(header: ["ID", "KIND", "FAMILY", "CONFIGURATION"], rows: rows))
            }
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }
}
