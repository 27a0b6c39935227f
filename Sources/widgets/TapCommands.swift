import Foundation
import WidgetHost
import WidgetWire

extension CommandContext {
    /// `widgets open URL`: the running host opens it with the bundle claiming its scheme; with no host
    /// running, this command loads the bundles and does it.
    func open(url: String) async throws(UsageError) -> ExitCode {
        if let client = try? ControlClient() {
            return answer {
                try client.send(.object(JSONObject([("request", .string("open")), ("url", .string(url))])))
            }
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
        func number(_ name: String) throws(UsageError) -> Int? {
            guard let text = arguments.values[name] else { return nil }
            guard let value = Int(text), value >= 1 else {
                throw UsageError(message: "--\(name) takes a whole number from 1, not '\(text)'", command: "tap")
            }
            return value
        }
        let link = try number("link")
        let button = try number("button")
        if link != nil && button != nil { throw UsageError(message: "give --link or --button, not both", command: "tap") }
        let target: TapTarget = link.map { .link($0) } ?? button.map { .control($0) } ?? .widget

        if let client = try? ControlClient() {
            var request = JSONObject([("request", .string("tap")), ("instance", .string(id))])
            if let link { request["link"] = .number(Double(link)) }
            if let button { request["button"] = .number(Double(button)) }
            return answer { try client.send(.object(request)) }
        }
        guard let instance = instanceOrReport(id: id) else { return .failure }
        let (registry, _) = try loadSearchPath()
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

    private func answer(_ send: () throws -> JSONValue) -> ExitCode {
        do {
            let answer = try send()
            if let url = answer["opened"]?.stringValue {
                report(.opened(url: url, bundle: answer["bundle"]?.stringValue ?? "?"), reloading: false)
            } else if let intent = answer["performed"]?.stringValue {
                report(.performed(intent: intent), reloading: answer["reloading"]?.boolValue == true)
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
