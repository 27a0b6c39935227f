import FoundationEssentials
import Synchronization
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport
import WidgetTimelines
import WidgetWire

// MARK: - Control requests

/// What the running host answers on its control socket (and to a front end of its own, such as the
/// home screen): watch, status, text, tap, open, reload, configurations, sync, home.
extension WidgetDaemon {
    /// A `watch` request: `ids` (instance ids; all when nil) subscribe to their events. The answer
    /// carries what each watched instance shows now (`current`, as `current` events).
    func subscribe(ids given: [String]?, send: @escaping EventHub.Send) -> (answer: ControlAnswer, token: Int?) {
        let ids = given.map(Set.init)
        let instances = engine.instances
        let running = activities.list()
        let controlKinds = Set(registry.controls.map(\.kind))
        if let ids, let unknown = ids.sorted().first(where: { id in
            !instances.contains { $0.id == id } && !running.contains { $0.id == id } && !controlKinds.contains(id)
        }) {
            let hostedIDs = instances.map(\.id).sorted()
            return (
                .refused(
                    "no instance \"\(unknown.onOneLine.cut(to: 200))\" is hosted; instances: \(hostedIDs.isEmpty ? "none" : hostedIDs.joined(separator: ", "))"
                        + " (a Live Activity's id or a Control's kind is watched too: 'widgets activity list', 'widgets control')"),
                nil
            )
        }
        guard let token = events.subscribe(ids: ids, send: send) else {
            return (.refused("too many watchers (\(EventHub.maximumSubscribers)); try again later"), nil)
        }
        let now = registry.clock.now()
        var current: [JSONValue] = instances.filter { ids?.contains($0.id) ?? true }.sorted { $0.id < $1.id }.compactMap { instance in
            guard let status = engine.status(id: instance.id) else { return nil }
            return EventHub.event(
                "current", id: instance.id, kind: instance.kind, family: instance.family, status: status, text: describe(status), now: now)
        }
        // The activities watched, as `current-activity` events.
        current += running.filter { ids?.contains($0.id) ?? true }.map { record in
            .object(
                JSONObject(
                    [("event", .string("current-activity")), ("id", .string(record.id)), ("time", .string(ISODate.text(now)))]
                        + EventHub.activityTexts(record, describe: describeView)))
        }
        // The controls watched by kind, as `current-control` events (all controls only when named).
        current += (ids ?? []).filter(controlKinds.contains).sorted().map { kind in
            .object(
                JSONObject(
                    [("event", .string("current-control")), ("id", .string(kind)), ("time", .string(ISODate.text(now)))]
                        + EventHub.controlTexts(controls.current(kind), describe: describeView)))
        }
        return (.watching(current: current), token)
    }

    /// Each hosted instance's state (or one's, `"id"`): what it shows and since when, its next entry,
    /// its next reload and why, its reloads in the last 24 hours, its last failure.
    func status(id: String?) -> ControlAnswer {
        let instances = self.instances
        var chosen = instances
        if let id {
            guard let instance = instances.first(where: { $0.id == id }) else {
                return .refused(
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
        return .status(list)
    }

    /// What instances show now (those of `ids`, all when nil), as view trees in the saved order, for
    /// a client that draws them itself: each its `id`, `kind`, `family`, `phase`, `view` (the entry
    /// shown, null before the first), `entryDate`, `contentMarginsDisabled` (the widget's), `failure`
    /// (the last reload's, while the entry is kept) and `asOf` (the entry's date while it is kept
    /// after a failure).
    func entries(ids given: [String]?, activities withActivities: Bool = false, controls withControls: Bool = false) -> ControlAnswer {
        let instances = self.instances
        if let given, let unknown = given.first(where: { id in !instances.contains { $0.id == id } }) {
            return .refused(
                "no instance \"\(unknown.onOneLine.cut(to: 200))\" is hosted; instances: \(instances.isEmpty ? "none" : instances.map(\.id).joined(separator: ", "))")
        }
        let wanted = given.map(Set.init)
        func date(_ seconds: Double?) -> JSONValue { seconds.map(JSONValue.number) ?? .null }
        // Asked for everything (a desktop), the Live Activities come first, each its Lock Screen
        // view as a medium widget's, and the Controls last, as one medium tile of buttons and toggles.
        let apart = given == nil ? (withActivities ? activityEntries() : [], withControls ? controlsEntry() : nil) : ([], nil)
        return .entries(
            apart.0 + instances.filter { wanted?.contains($0.id) ?? true }.map { instance in
                let status = engine.status(id: instance.id)
                let entry = status?.phase == .showing ? status?.entry : nil
                let failure = status?.lastFailure
                return .object(
                    JSONObject([
                        ("id", .string(instance.id)), ("kind", .string(instance.kind)), ("family", .string(instance.family.rawValue)),
                        ("phase", .string(status?.phase.rawValue ?? "loading")), ("view", entry?.view.json ?? .null),
                        ("entryDate", date(entry?.date)),
                        ("contentMarginsDisabled", .bool(registry.widget(kind: instance.kind)?.contentMarginsDisabled ?? false)),
                        ("failure", failure.map(JSONValue.string) ?? .null), ("asOf", failure != nil ? date(entry?.date) : .null),
                    ]))
            } + (apart.1.map { [$0] } ?? []))
    }

    /// The id of the Controls' tile among a desktop's entries (no instance id has a "#").
    static let controlsTile = "#controls"

    /// Each Live Activity kept, as an entry of a medium widget showing its Lock Screen view.
    private func activityEntries() -> [JSONValue] {
        activities.list().compactMap { record in
            guard let drawn = record.presentations else { return nil }
            return .object(
                JSONObject([
                    ("id", .string(record.id)), ("kind", .string("activity:" + record.type)), ("family", .string(WidgetFamily.systemMedium.rawValue)),
                    ("phase", .string("showing")), ("view", drawn.lockScreen.json), ("entryDate", .number(record.updated)),
                    ("contentMarginsDisabled", .bool(false)), ("failure", record.failure.map(JSONValue.string) ?? .null), ("asOf", .null),
                    ("activity", .string(record.phase.rawValue)),
                ]))
        }
    }

    /// The Controls, as one medium tile: each a button or a toggle with its label, in their order; a
    /// tap on the Nth presses the Nth control (`tap` of `controlsTile`).
    private func controlsEntry() -> JSONValue? {
        let kinds = registry.controls.map(\.kind)
        guard !kinds.isEmpty else { return nil }
        let rows: [ViewNode] = kinds.map { kind in
            let entry = controls.current(kind)
            guard let control = entry.control else { return ViewNode("text", attributes: JSONObject([("text", .string(entry.name))])) }
            switch control.template {
            case .toggle:
                return ViewNode("toggle", attributes: JSONObject([("isOn", .bool(control.isOn)), ("intent", control.action)]), children: [control.label])
            case .button:
                return ViewNode("button", attributes: JSONObject([("intent", control.action)]), children: [control.label])
            }
        }
        let view = ViewNode("vstack", attributes: JSONObject([("alignment", .string("leading"))]), children: rows)
        return .object(
            JSONObject([
                ("id", .string(Self.controlsTile)), ("kind", .string("controls")), ("family", .string(WidgetFamily.systemMedium.rawValue)),
                ("phase", .string("showing")), ("view", view.json), ("entryDate", .null), ("contentMarginsDisabled", .bool(false)),
                ("failure", .null), ("asOf", .null),
            ]))
    }

    /// What an instance shows drawn in another family (`"family"`), as one line of text: its provider's
    /// snapshot for that family with the instance's configuration, as iOS shows one widget in several
    /// places (a desktop bar takes the accessoryInline text). A family the widget does not support
    /// gives the instance's own text, and says which family it is.
    func text(id: String, family: WidgetFamily) -> ControlAnswer {
        guard let instance = lock.withLock({ known[id] }) else {
            return .refused("no instance \"\(id.onOneLine.cut(to: 200))\" is hosted")
        }
        let own = engine.status(id: id).map(describe) ?? ""
        guard let widget = registry.widget(kind: instance.kind), widget.families.contains(family), family != instance.family else {
            return .text(own, family: instance.family)
        }
        return Self.waiting { [registry, environment, describeView] () async throws -> ControlAnswer in
            let result = try await registry.request(
                .snapshot, kind: instance.kind, family: family, configuration: instance.configurationText, environment: environment(family))
            let text = result.entries.first.map { describeView($0.view) } ?? own
            return .text(text, family: family)
        }
    }

    /// A tap on what an instance shows now: its `widgetURL`, its Nth link (`"link": N`) or its Nth
    /// button or toggle (`"button": N`). After an intent, the instance reloads once, at once, outside
    /// the budget.
    func tap(id: String, target requested: ControlRequest.TapTarget) -> ControlAnswer {
        let target: TapTarget =
            switch requested {
            case .widget: .widget
            case .link(let number): .link(number)
            case .control(let number): .control(number)
            }
        // The desktop's Controls tile: its Nth button or toggle is the Nth control drawn as one (one
        // that could not be asked is drawn as its name, and is no target).
        if id == Self.controlsTile {
            let kinds = registry.controls.map(\.kind).filter { controls.current($0).control != nil }
            guard case .control(let number) = target, kinds.indices.contains(number - 1) else {
                return .refused("the Controls have \(kinds.count) button(s) and toggle(s); tap one of them")
            }
            let kind = kinds[number - 1]
            return Self.waiting { [controls] in
                let answer = await controls!.press(kind: kind, .press)
                guard case .controls = answer else { return answer }
                return .performed(intent: kind)
            }
        }
        // A Live Activity: as a widget, its Lock Screen view's widgetURL (else the island's) or its Nth
        // link, opened as a widget's are.
        if let record = activities.list().first(where: { $0.id == id }), let drawn = record.presentations {
            let targets = TapTargets(drawn.lockScreen)
            switch target {
            case .widget:
                guard let url = targets.widgetURL ?? drawn.widgetURL else { return .refused("activity \(id) has no widgetURL; nothing to open") }
                return answer(.open(url: url))
            case .link(let number):
                guard targets.links.indices.contains(number - 1) else { return .refused("activity \(id) has \(targets.links.count) link(s)") }
                return answer(.open(url: targets.links[number - 1]))
            case .control:
                return .refused("activity \(id): a Live Activity's buttons are not pressed here (its widgetURL and links are)")
            }
        }
        guard let instance = lock.withLock({ known[id] }) else {
            return .refused(
                "no instance or Live Activity \"\(id.onOneLine.cut(to: 200))\" is hosted; instances: \(engine.instances.map(\.id).joined(separator: ", ")) ('widgets activity list' lists the activities)")
        }
        guard let entry = engine.status(id: id)?.entry else {
            return .refused("instance \(id) shows no entry yet (\(engine.status(id: id)?.phase.rawValue ?? "unknown")); nothing to tap")
        }
        // A button performs an intent: its content is stale from now until the reload after it, or
        // until it fails. A link or the widget's own URL begins no interaction, so ends none.
        let isButton = if case .control = target { true } else { false }
        if isButton { engine.interactionBegan(id: id) }
        return Self.waiting { [registry, engine] () async throws -> ControlAnswer in
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
                return .opened(url: url, by: bundle)
            case .performed(let intent):
                engine!.reload(id: id, reason: .interaction)
                return .performed(intent: intent)
            }
        }
    }

    /// Runs async work from a control connection's own thread (never the cooperative pool's), and
    /// answers with its result or its error.
    static func waiting(_ body: @escaping @Sendable () async throws -> ControlAnswer) -> ControlAnswer {
        waitingOnTask {
            do { return try await body() } catch { return .refused("\(error)") }
        }
    }

    static func engineInstance(_ instance: WidgetInstance) -> EngineInstance {
        EngineInstance(id: instance.id, kind: instance.kind, family: instance.family, configuration: instance.configurationText)
    }

    /// Answers one control request: for a front end of the host's own, such as the home screen.
    /// (`watch` is the control socket's alone: it turns the connection into a stream.)
    public func answer(_ request: ControlRequest) -> ControlAnswer {
        debugLog.withLock { $0 }?("control request: \(request.json.jsonText.cut(to: 300))")
        switch request {
        case .reload(let kind, let app, let foreground):
            // `widgets reload` of everything looks at the bundle directories again too, as SIGHUP
            // does: what a person asking to reload expects, a bundle no event told of included.
            if kind == nil, app == nil { rescan() }
            // An app's reloadAllTimelines() is its own widgets': those of the bundles tied to it.
            let kinds: Set<String>? = kind.map { [$0] } ?? app.map(AppScope.init).map { scope in
                Set(registry.widgets.filter { scope.owns($0.bundle) }.map(\.kind))
            }
            let count = engine.reload(kinds: kinds, reason: foreground ? .foreground : .requested)
            if let kind, count == 0 && registry.widget(kind: kind) == nil {
                return .refused("no widget of kind \"\(kind.onOneLine.cut(to: 200))\" is loaded and no instance has that kind")
            }
            // The reloads the budget holds back, and until when: the caller is told, not left to wonder.
            let deferred: [ControlAnswer.DeferredReload] = engine.instances.filter { kinds?.contains($0.kind) ?? true }.sorted { $0.id < $1.id }
                .compactMap { instance in
                    guard let status = engine.status(id: instance.id), status.deferredByBudget, let until = status.nextReload else { return nil }
                    return ControlAnswer.DeferredReload(id: instance.id, until: ISODate.text(until))
                }
            return .reloaded(count: count, deferred: deferred)
        case .configurations:
            return .configurations(
                engine.instances.map { instance in
                    ControlAnswer.PlacedInstance(
                        id: instance.id, kind: instance.kind, family: instance.family,
                        configuration: (try? JSONValue.parse(instance.configuration))?.objectValue ?? JSONObject())
                })
        case .sync:
            do {
                return .synced(changed: try synchronize())
            } catch {
                return .refused(error.description)
            }
        case .tap(let id, let target):
            return tap(id: id, target: target)
        case .status(let id):
            return status(id: id)
        case .text(let id, let family):
            return text(id: id, family: family)
        case .home:
            guard let url = awaitHomeURL() else {
                return .refused("this host serves no home screen; start it with 'widgets run --web'")
            }
            return .home(url: url)
        case .open(let url):
            return Self.waiting { [registry] () async throws -> ControlAnswer in
                guard case .opened(let url, let bundle) = try await registry.open(url: url) else { return .refused("not opened") }
                return .opened(url: url, by: bundle)
            }
        case .entries(let ids, let withActivities, let withControls):
            return entries(ids: ids, activities: withActivities, controls: withControls)
        case .watch:
            return .refused("watch is served on the control socket, where its events can follow")
        case .activityStart(let type, let attributes, let content):
            return Self.waiting { [activities] in await activities!.start(type: type, attributes: attributes, content: content) }
        case .activityUpdate(let id, let content):
            return Self.waiting { [activities] in await activities!.update(id: id, content: content) }
        case .activityEnd(let id, let content, let dismissal):
            return Self.waiting { [activities] in await activities!.end(id: id, content: content, dismissal: dismissal) }
        case .activities(let type):
            return .activities(activities.list(type: type))
        case .controls(let kind):
            return Self.waiting { [controls] in await controls!.entries(kind: kind) }
        case .pressControl(let kind, let press):
            return Self.waiting { [controls] in await controls!.press(kind: kind, press) }
        case .reloadControls(let kind):
            return controls.reload(kind: kind)
        }
    }

    /// Answers one control request line's JSON, as the control socket does.
    func handle(_ json: JSONValue) -> JSONValue {
        do {
            return answer(try ControlRequest(json: json)).json
        } catch {
            return ControlAnswer.refused(error.description).json
        }
    }
}
