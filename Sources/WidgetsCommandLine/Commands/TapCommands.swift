import FoundationEssentials
import WidgetHost
import WidgetWire

extension Command {
    static let open = Command(
        "open", summary: "Open a deep link with the bundle that claims its scheme (its onOpenURL).", arguments: ["URL"],
        options: [Options.plugins.spec, Options.isolation.spec],
        discussion: "Through the running host when there is one; a URL no bundle claims is an error naming the schemes claimed."
    ) { try await $0.open(url: $0.positionals[0]) }

    static let tap = Command(
        "tap", summary: "Tap an instance: its widgetURL, its Nth Link, or its Nth Button(intent:)/Toggle.", arguments: ["ID"],
        options: [Options.plugins.spec, Options.link.spec, Options.button.spec, Options.stateDirectory.spec, Options.isolation.spec],
        discussion: """
            Without --link or --button, a tap on the widget itself opens its widgetURL (with several, the first in
            reading order). URLs go to the instance's own bundle. Through the running host, which taps the entry it
            shows and reloads the instance after an intent; with none running, the entry its timeline shows now.
            """
    ) { try await $0.tap(id: $0.positionals[0]) }
}

extension Invocation {
    /// `widgets open URL`: the running host opens it with the bundle claiming its scheme; with no host
    /// running, this command loads the bundles and does it.
    func open(url: String) async throws(UsageError) -> ExitCode {
        if let client = try? ControlClient() {
            return answer { () throws(ControlError) in try client.send(.open(url: url)) }
        }
        let (registry, _) = try loadSearchPath()
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        do {
            report(try await registry.open(url: url), reloading: false)
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }

    /// `widgets tap ID [--link N | --button N]`: a tap on what the instance shows now. Through the
    /// running host (which reloads the instance after an intent); with none running, on the entry its
    /// provider's timeline shows now.
    func tap(id: String) async throws(UsageError) -> ExitCode {
        let link = try value(Options.link)
        let button = try value(Options.button)
        if link != nil && button != nil { throw usageError("give --link or --button, not both") }
        let target: TapTarget = link.map { .link($0) } ?? button.map { .control($0) } ?? .widget

        if let client = try? ControlClient() {
            let asked: ControlRequest.TapTarget = link.map { .link($0) } ?? button.map { .control($0) } ?? .widget
            return answer { () throws(ControlError) in try client.send(.tap(instance: id, target: asked)) }
        }
        guard let instance = instanceOrReport(id: id) else { return .failure }
        let (registry, _) = try loadSearchPath(for: instance.kind)
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        do {
            let timeline = try await registry.request(.timeline, kind: instance.kind, family: instance.family, configuration: instance.configurationText)
            report(try await registry.tap(instance, entry: timeline.entry(at: Date()), target: target), reloading: false)
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }

    private func answer(_ send: () throws(ControlError) -> ControlAnswer) -> ExitCode {
        do {
            switch try send() {
            case .opened(let url, let bundle): report(.opened(url: url, bundle: bundle), reloading: false)
            case .performed(let intent): report(.performed(intent: intent), reloading: true)
            default: break
            }
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }

    private func report(_ outcome: TapOutcome, reloading: Bool) {
        switch outcome {
        case .opened(let url, let bundle):
            output.standardOutput("opened \(url) with \(bundle)")
        case .performed(let intent):
            output.standardOutput(
                "performed \(intent)"
                    + (reloading ? "; the widget reloads" : "; no widget host is running, so the widget shows it at its next reload"))
        }
    }
}
