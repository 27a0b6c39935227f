import Foundation
import WidgetHost
import WidgetWire

extension CommandContext {
    /// `widgets run`: hosts every saved instance until SIGINT or SIGTERM, printing a line whenever
    /// what an instance shows changes, and answering the control socket.
    func runHost() async throws(UsageError) -> ExitCode {
        let (registry, searchPath) = try loadSearchPath()
        defer { registry.shutDownWorkers() }
        reportProblems(registry, as: "warning")
        let budget: ReloadBudget = arguments.flags.contains("development") ? .development : .standard
        let output = self.output
        let daemon = WidgetDaemon(registry: registry, store: store, budget: budget) { id, status in
            output.standardOutput(Self.statusLine(id, status))
        }
        let socketPath = ControlSocket.path()
        do {
            try daemon.start(socketPath: socketPath) { line in output.standardError("widgets: \(line)") }
            let watched = searchPath.filter { !registry.missingDirectories.contains($0) }
            try daemon.watch(directories: watched) { line in output.standardOutput("widgets: \(line)") }
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        output.standardOutput(
            "widgets: hosting \(daemon.engine.instances.count) instance(s) of \(registry.widgets.count) widget(s) from "
                + "\(searchPath.joined(separator: ", ")); control socket \(socketPath)"
                + (budget == .development ? "; development mode: no reload budget" : ""))
        let signal = await Self.waitForTermination()
        daemon.stop()
        output.standardOutput("widgets: stopped (\(signal))")
        return .success
    }

    /// Waits (without a thread) until SIGINT or SIGTERM; returns its name.
    static func waitForTermination() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            TerminationSignals.shared.notify { continuation.resume(returning: $0) }
        }
    }

    /// `12:00:05 game-status-1: Level 4 | 80 HP` — what an instance now shows, on one line.
    static func statusLine(_ id: String, _ status: InstanceStatus) -> String {
        let time = Self.timeFormatter.string(from: Date())
        var text: String
        switch status.phase {
        case .bundleMissing: text = "bundle missing (its configuration is kept)"
        case .loading: text = status.reloading ? "loading" : "waiting for its first entry"
        case .showing: text = status.entry.map { PlainTextRenderer.lines($0.view).joined(separator: " | ") } ?? ""
        }
        if let failure = status.lastFailure { text += " [last reload failed: \(failure)]" }
        if let next = status.nextReload, let reason = status.nextReloadReason {
            text += " [next reload \(Self.timeFormatter.string(from: next)), \(reason.rawValue)\(status.deferredByBudget ? ", deferred by the budget" : "")]"
        }
        return "\(time) \(id): \(text)"
    }

    static let timeFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()

    /// `widgets reload [KIND]`: asks the running host to reload timelines.
    func reload(kind: String?) -> ExitCode {
        var request = JSONObject([("request", .string("reload"))])
        if let kind { request["kind"] = .string(kind) }
        if arguments.flags.contains("foreground") { request["foreground"] = .bool(true) }
        do {
            let answer = try ControlClient().send(.object(request))
            let count = answer["reloaded"]?.numberValue.flatMap { Int(exactly: $0) } ?? 0
            output.standardOutput("reloading \(count) instance(s)" + (kind.map { " of \($0)" } ?? ""))
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
                        Self.describe(item["configuration"]?.objectValue ?? JSONObject()),
                    ]
                }
                output.standardOutput(Self.table(header: ["ID", "KIND", "FAMILY", "CONFIGURATION"], rows: rows))
            }
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }

    /// After a change to the saved instances: a running host takes it up at once. With none running,
    /// there is nothing to tell.
    func notifyRunningHost() {
        guard let client = try? ControlClient(timeout: 5) else { return }
        do {
            _ = try client.send(.object(JSONObject([("request", .string("sync"))])))
        } catch {
            output.standardError("widgets: warning: the running host did not take up the change: \(error)")
        }
    }
}

/// SIGINT and SIGTERM, taken from their default action and delivered once, on the main queue.
final class TerminationSignals: @unchecked Sendable {
    static let shared = TerminationSignals()
    private let lock = NSLock()
    private var sources: [DispatchSourceSignal] = []
    private var handler: (@Sendable (String) -> Void)?

    func notify(_ handler: @escaping @Sendable (String) -> Void) {
        lock.withLock {
            self.handler = handler
            guard sources.isEmpty else { return }
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
                source.setEventHandler { [weak self] in self?.deliver(name) }
                source.resume()
                sources.append(source)
            }
        }
    }

    private func deliver(_ name: String) {
        let handler: (@Sendable (String) -> Void)? = lock.withLock {
            defer { self.handler = nil }
            return self.handler
        }
        handler?(name)
    }
}
