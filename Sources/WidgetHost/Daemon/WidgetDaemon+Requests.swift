import Foundation
import Synchronization
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport
import WidgetTimelines
import WidgetWire

// MARK: - Control requests

/// What the running host answers on its control socket (and to a front end of its own, such as the
/// home screen): watch, status, text, tap, open, reload, configurations, sync, home.
extension WidgetDaemon {
    /// A `watch` request: `ids` (instance ids; all when absent) subscribe to their events. The answer
    /// carries what each watched instance shows now (`current`, as `current` events).
    func subscribe(_ request: JSONValue, send: @escaping EventHub.Send) -> (answer: JSONValue, token: Int?) {
        var ids: Set<String>?
        if let given = request["ids"] {
            guard let array = given.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
                return (ControlServer.failure("\"ids\" must be an array of instance ids"), nil)
            }
            ids = Set(array.compactMap(\.stringValue))
        }
        let instances = engine.instances
        if let ids, let unknown = ids.sorted().first(where: { id in !instances.contains { $0.id == id } }) {
            let hostedIDs = instances.map(\.id).sorted()
            return (
                ControlServer.failure(
                    "no instance \"\(unknown.onOneLine.cut(to: 200))\" is hosted; instances: \(hostedIDs.isEmpty ? "none" : hostedIDs.joined(separator: ", "))"),
                nil
            )
        }
        guard let token = events.subscribe(ids: ids, send: send) else {
            return (ControlServer.failure("too many watchers (\(EventHub.maximumSubscribers)); try again later"), nil)
        }
        let now = registry.clock.now()
        let current: [JSONValue] = instances.filter { ids?.contains($0.id) ?? true }.sorted { $0.id < $1.id }.compactMap { instance in
            guard let status = engine.status(id: instance.id) else { return nil }
            return EventHub.event(
                "current", id: instance.id, kind: instance.kind, family: instance.family, status: status, text: describe(status), now: now)
        }
        return (ControlServer.success([("current", .array(current))]), token)
    }

    /// Each hosted instance's state (or one's, `"id"`): what it shows and since when, its next entry,
    /// its next reload and why, its reloads in the last 24 hours, its last failure.
    func status(_ request: JSONValue) -> JSONValue {
        let instances = self.instances
        var chosen = instances
        if let given = request["id"] {
            guard let id = given.stringValue else { return ControlServer.failure("\"id\" must be a string") }
            guard let instance = instances.first(where: { $0.id == id }) else {
                return ControlServer.failure(
                    "no instance \"\(id.onOneLine.cut(to: 200))\" is hosted\(Suggestion.hint(for: id, among: instances.map(\.id))); instances: \(instances.isEmpty ? "none" : instances.map(\.id).joined(separator: ", "))")
            }
            chosen = [instance]
        }
        let now = registry.clock.now()
        let list: [JSONValue] = chosen.compactMap { instance in
            guard let status = engine.status(id: instance.id) else { return nil }
            var event = EventHub.event(
                "status", id: instance.id, kind: instance.kind, family: instance.family, status: status, text: describe(status), now: now
            ).objectValue ?? JSONObject()
            event["event"] = nil
            event["reloadsInWindow"] = .number(Double(status.reloadsInWindow))
            event["reloading"] = .bool(status.reloading)
            return .object(event)
        }
        return ControlServer.success([("instances", .array(list))])
    }

    /// What an instance shows drawn in another family (`"family"`), as one line of text: its provider's
    /// snapshot for that family with the instance's configuration, as iOS shows one widget in several
    /// places (a desktop bar takes the accessoryInline text). A family the widget does not support
    /// gives the instance's own text, and says which family it is.
    func text(_ request: JSONValue) -> JSONValue {
        guard let id = request["id"]?.stringValue else { return ControlServer.failure("\"id\" must be a string") }
        guard let family = request["family"]?.stringValue.flatMap(WidgetFamily.init(rawValue:)) else {
            return ControlServer.failure("\"family\" must be one of \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let instance = lock.withLock({ known[id] }) else {
            return ControlServer.failure("no instance \"\(id.onOneLine.cut(to: 200))\" is hosted")
        }
        let own = engine.status(id: id).map(describe) ?? ""
        guard let widget = registry.widget(kind: instance.kind), widget.families.contains(family), family != instance.family else {
            return ControlServer.success([("text", .string(own)), ("family", .string(instance.family.rawValue))])
        }
        return Self.waiting { [registry, environment, describeView] () async throws -> JSONValue in
            let result = try await registry.request(
                .snapshot, kind: instance.kind, family: family, configuration: instance.configurationText, environment: environment(family))
            let text = result.entries.first.map { describeView($0.view) } ?? own
            return ControlServer.success([("text", .string(text)), ("family", .string(family.rawValue))])
        }
    }

    /// A tap on what an instance shows now: its `widgetURL`, its Nth link (`"link": N`) or its Nth
    /// button or toggle (`"button": N`). After an intent, the instance reloads once, at once, outside
    /// the budget.
    func tap(_ request: JSONValue) -> JSONValue {
        guard let id = request["instance"]?.stringValue else { return ControlServer.failure("\"instance\" must be a string") }
        let target: TapTarget
        // Numbers from a peer are checked, never trusted to fit an Int.
        let link = request["link"].map { $0.numberValue.flatMap { Int(exactly: $0) } ?? 0 }
        let button = request["button"].map { $0.numberValue.flatMap { Int(exactly: $0) } ?? 0 }
        switch (link, button) {
        case (nil, nil): target = .widget
        case (let link?, nil) where link >= 1: target = .link(link)
        case (nil, let button?) where button >= 1: target = .control(button)
        default: return ControlServer.failure("give at most one of \"link\" and \"button\", a whole number from 1")
        }
        guard let instance = lock.withLock({ known[id] }) else {
            return ControlServer.failure("no instance \"\(id.onOneLine.cut(to: 200))\" is hosted; instances: \(engine.instances.map(\.id).joined(separator: ", "))")
        }
        guard let entry = engine.status(id: id)?.entry else {
            return ControlServer.failure("instance \(id) shows no entry yet (\(engine.status(id: id)?.phase.rawValue ?? "unknown")); nothing to tap")
        }
        // A button performs an intent: its content is stale from now until the reload after it, or
        // until it fails. A link or the widget's own URL begins no interaction, so ends none.
        let isButton = if case .control = target { true } else { false }
        if isButton { engine.interactionBegan(id: id) }
        return Self.waiting { [registry, engine] () async throws -> JSONValue in
            let tapped: TapOutcome
            do {
                tapped = try await registry.tap(instance, entry: entry, target: target)
            } catch {
                if isButton { engine!.interactionFailed(id: id) }
                throw error
            }
            switch tapped {
            case .opened(let url, let bundle):
                if isButton { engine!.interactionFailed(id: id) }
                return ControlServer.success([("opened", .string(url)), ("bundle", .string(bundle))])
            case .performed(let intent):
                engine!.reload(id: id, reason: .interaction)
                return ControlServer.success([("performed", .string(intent)), ("reloading", .bool(true))])
            }
        }
    }

    /// Runs async work from a control connection's own thread (never the cooperative pool's), and
    /// answers with its result or its error.
    static func waiting(_ body: @escaping @Sendable () async throws -> JSONValue) -> JSONValue {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer = JSONValue.null
        Task {
            do { answer = try await body() } catch { answer = ControlServer.failure("\(error)") }
            done.signal()
        }
        done.wait()
        return answer
    }

    static func engineInstance(_ instance: WidgetInstance) -> EngineInstance {
        EngineInstance(id: instance.id, kind: instance.kind, family: instance.family, configuration: instance.configurationText)
    }

    /// Answers one control request, as the control socket does (`{"request": "tap", ...}`): for a
    /// front end of the host's own, such as the home screen.
    public func answer(_ request: JSONValue) -> JSONValue { handle(request) }

    /// Answers one control request.
    func handle(_ request: JSONValue) -> JSONValue {
        debugLog.withLock { $0 }?("control request: \(request.jsonText.cut(to: 300))")
        switch request["request"]?.stringValue {
        case "reload":
            let reason: ReloadReason = request["foreground"]?.boolValue == true ? .foreground : .requested
            var kind: String?
            if let given = request["kind"] {
                guard let given = given.stringValue, !given.isEmpty else { return ControlServer.failure("\"kind\" must be a non-empty string") }
                kind = given
            }
            // An app's reloadAllTimelines() is its own widgets': those of the bundles tied to it.
            let kinds: Set<String>? = kind.map { [$0] } ?? AppScope(request["app"]).map { scope in
                Set(registry.widgets.filter { scope.owns($0.bundle) }.map(\.kind))
            }
            let count = engine.reload(kinds: kinds, reason: reason)
            if let kind, count == 0 && registry.widget(kind: kind) == nil {
                return ControlServer.failure("no widget of kind \"\(kind.onOneLine.cut(to: 200))\" is loaded and no instance has that kind")
            }
            // The reloads the budget holds back, and until when: the caller is told, not left to wonder.
            let deferred: [JSONValue] = engine.instances.filter { kinds?.contains($0.kind) ?? true }.sorted { $0.id < $1.id }.compactMap { instance in
                guard let status = engine.status(id: instance.id), status.deferredByBudget, let until = status.nextReload else { return nil }
                return .object(JSONObject([("id", .string(instance.id)), ("until", .string(EventHub.isoDate(until)))]))
            }
            return ControlServer.success([("reloaded", .number(Double(count))), ("deferred", .array(deferred))])
        case "configurations":
            let list = engine.instances.map { instance in
                JSONValue.object(
                    JSONObject([
                        ("id", .string(instance.id)), ("kind", .string(instance.kind)), ("family", .string(instance.family.rawValue)),
                        ("configuration", (try? JSONValue.parse(instance.configuration)) ?? .object(JSONObject())),
                    ]))
            }
            return ControlServer.success([("configurations", .array(list))])
        case "sync":
            do {
                return ControlServer.success([("changed", .number(Double(try synchronize())))])
            } catch {
                return ControlServer.failure(error.description)
            }
        case "tap":
            return tap(request)
        case "status":
            return status(request)
        case "text":
            return text(request)
        case "home":
            guard let url = homeURL else {
                return ControlServer.failure("this host serves no home screen; start it with 'widgets run --web'")
            }
            return ControlServer.success([("url", .string(url))])
        case "open":
            guard let url = request["url"]?.stringValue else { return ControlServer.failure("\"url\" must be a string") }
            return Self.waiting { [registry] () async throws -> JSONValue in
                guard case .opened(let url, let bundle) = try await registry.open(url: url) else { return ControlServer.failure("not opened") }
                return ControlServer.success([("opened", .string(url)), ("bundle", .string(bundle))])
            }
        case let other?:
            return ControlServer.failure("unknown request \"\(other.onOneLine.cut(to: 200))\" (reload, configurations, sync, tap, open, status, text, home)")
        case nil:
            return ControlServer.failure("malformed request: expected an object with a \"request\" member")
        }
    }
}
