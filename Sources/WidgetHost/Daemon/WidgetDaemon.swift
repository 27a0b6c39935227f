import Foundation
import Synchronization
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport
import WidgetTimelines
import WidgetWire

/// The running host (`widgets run`): every saved instance hosted by the timeline engine, its
/// timelines asked of the registry's providers, and the control socket answering apps and the shell.
public final class WidgetDaemon: @unchecked Sendable {
    public let registry: WidgetRegistry
    public let store: InstanceStore
    public private(set) var engine: TimelineEngine!
    private var server: ControlServer?
    private var watcher: BundleWatcher?
    private let lock = NSLock()
    /// The instances as last read from the store, by id, and the lineage of that list.
    private var known: [String: WidgetInstance] = [:]
    /// Their ids in the saved order (the home screen's).
    private var knownOrder: [String] = []
    private var knownLineage = ""
    private var log: @Sendable (String) -> Void = { _ in }
    /// Every change of every instance, for the control socket's subscribers (`widgets watch`).
    public let events = EventHub()
    /// Each hosted instance's kind and family, for its events.
    private let hosted = Locked<[String: (kind: String, family: WidgetFamily)]>([:])
    /// What an instance shows, as one line of text (`widgets run --log`'s), for its events.
    private let describe: @Sendable (InstanceStatus) -> String
    /// A view as one line of text, for an instance drawn in another family (`text` requests).
    private let describeView: @Sendable (ViewNode) -> String
    /// The environment a family's views are built for.
    private let environment: @Sendable (WidgetFamily) -> RenderingEnvironment
    /// Where the host's debug lines go (each timeline asked for, each control request), when
    /// someone listens (`widgets run -v`).
    private let debugLog = Locked<(@Sendable (String) -> Void)?>(nil)

    /// Hears the host's debug lines: each timeline asked of a provider, each control request.
    public func debug(_ log: @escaping @Sendable (String) -> Void) { debugLog.withLock { $0 = log } }

    /// `observer` hears each change of what an instance shows (see `TimelineEngine`). Timelines are
    /// built for the environment `environment` gives each family (by default its standard one, light).
    /// `describe` gives the text of what an instance shows, for events.
    public init(
        registry: WidgetRegistry, store: InstanceStore, budget: ReloadBudget = .standard,
        environment: @escaping @Sendable (WidgetFamily) -> RenderingEnvironment = { .standard(for: $0) },
        describe: @escaping @Sendable (InstanceStatus) -> String = { _ in "" },
        describeView: @escaping @Sendable (ViewNode) -> String = { _ in "" },
        observer: TimelineEngine.Observer? = nil
    ) {
        self.registry = registry
        self.store = store
        self.describe = describe
        self.describeView = describeView
        self.environment = environment
        let events = events
        let hosted = hosted
        let clock = registry.clock
        let observer: TimelineEngine.Observer = { id, status in
            observer?(id, status)
            let instance = hosted.withLock { $0[id] }
            events.statusChanged(id: id, kind: instance?.kind, family: instance?.family, status: status, text: { describe(status) }, now: clock.now())
        }
        let debugLog = debugLog
        let fetch: TimelineEngine.Fetch = { [registry] instance, completion in
            debugLog.withLock { $0 }?("\(instance.id): asking \(instance.kind) for a \(instance.family.rawValue) timeline")
            Task {
                do {
                    let result = try await registry.request(
                        .timeline, kind: instance.kind, family: instance.family, configuration: instance.configuration,
                        environment: environment(instance.family))
                    completion(.success(FetchedTimeline(entries: result.entries, policy: result.policy ?? .atEnd)))
                } catch {
                    completion(.failure(TimelineFailure("\(error)")))
                }
            }
        }
        engine = TimelineEngine(
            clock: registry.clock, budget: budget, workQueue: DispatchQueue(label: "widgets.engine"), fetch: fetch, observer: observer)
    }

    /// Given a path, listens for control requests there, then hosts the saved instances. Listening
    /// comes first: a second host is refused before it asks any provider for anything.
    public func start(socketPath: String?, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.log = log
        if let socketPath {
            server = try ControlServer(
                path: socketPath, log: log,
                subscribe: { [weak self] request, send in
                    self?.subscribe(request, send: send) ?? (ControlServer.failure("the host is stopping"), nil)
                },
                unsubscribe: { [events] token in events.unsubscribe(token) }
            ) { [weak self] request in
                self?.handle(request) ?? ControlServer.failure("the host is stopping")
            }
        }
        do {
            try synchronize()
        } catch {
            stop()
            throw error
        }
    }

    /// The saved instances this host runs, in their saved order (the home screen's).
    public var instances: [WidgetInstance] {
        lock.withLock { knownOrder.compactMap { known[$0] } }
    }

    /// The home screen's address, token included, when `widgets run --web` serves one; the control
    /// socket's `home` request answers with it (`widgets home`).
    public var homeURL: String? {
        get { lock.withLock { home } }
        set { lock.withLock { home = newValue } }
    }
    private var home: String?

    public func stop() {
        server?.stop()
        server = nil
        watcher?.stop()
        watcher = nil
    }

    /// Watches the bundle directories: a bundle installed while the host runs is loaded and its
    /// instances come alive, a removed one's instances show `bundleMissing` (and keep their
    /// configuration), a replaced one is loaded again (in process isolation by a new worker). Each
    /// change, and each refusal, is reported through `log`.
    public func watch(directories: [String], log: @escaping @Sendable (String) -> Void) throws(ControlWatchError) {
        let watcher = try BundleWatcher(directories: directories) { [weak self] changes in self?.apply(changes, log: log) }
        self.watcher = watcher
        for line in watcher.unwatchable { log("warning: \(line)") }
        // What changed between loading and watching is taken up now (on this thread, before the
        // watcher's first event is handled, it is the only one loading).
        refusedAtLoad.withLock { $0.formUnion(registry.problems.map(\.path)) }
        apply(watcher.watched.map(BundleWatcher.Change.rescan), log: log)
    }

    /// Looks again, on the watcher's thread, at every watched directory (a bundle changed where no
    /// event told of it, or a refused one fixed), then re-reads the saved instances: SIGHUP, which
    /// `systemctl --user reload widgets` sends. A file refused before is tried again.
    public func rescan() {
        refusedAtLoad.withLock { $0.removeAll() }
        watcher?.rescan()
        try? synchronize()
    }

    /// Files the loader refused when the host started (or later, for those still loading then): a
    /// rescan after a directory event does not retry them (their next write does; SIGHUP's does).
    private let refusedAtLoad = Mutex<Set<String>>([])

    /// Bundles still loading when the host started join as they load: each is reported through
    /// `log`, and once none is loading, instances whose kind no bundle registered show
    /// `bundleMissing`. Their requests meanwhile wait for their bundle (`WidgetRegistry.request`).
    public func hearLateLoads(log: @escaping @Sendable (String) -> Void) {
        registry.observeLateLoads { [weak self] load in
            guard let self else { return }
            for problem in load.problems { log("error: \(problem)") }
            if load.kinds.isEmpty {
                refusedAtLoad.withLock { _ = $0.insert(load.path) }
            } else {
                log("loaded \(load.path), which was still loading when the host started: \(load.kinds.joined(separator: ", "))")
            }
            guard registry.loadsUnderway.isEmpty else { return }
            let missing = Set(engine.instances.map(\.kind).filter { registry.widget(kind: $0) == nil })
            if !missing.isEmpty { engine.bundleMissing(kinds: missing) }
        }
    }

    /// Applies bundle file changes, in order, on the watcher's thread (the only one that loads).
    public func apply(_ changes: [BundleWatcher.Change], log: @Sendable (String) -> Void) {
        for change in changes {
            switch change {
            case .directoryGone(let directory, let watchedForReturn):
                log(
                    "warning: \(directory) was removed or moved; its bundles keep running, "
                        + (watchedForReturn
                            ? "and it is watched again once it is back"
                            : "but its parent cannot be watched, so bundles put there are taken up only when the host restarts"))
            case .directoryBack(let directory):
                log("\(directory) is back; watching it again")
            case .rescan(let directory):
                apply(rescan(directory), log: log)
            case .removed(let path):
                let kinds = registry.unload(path: path)
                guard !kinds.isEmpty else { continue }
                log("\(path) was removed; its widgets are gone until it is back: \(kinds.joined(separator: ", "))")
                engine.bundleMissing(kinds: Set(kinds))
            case .written(let path):
                refusedAtLoad.withLock { _ = $0.remove(path) }
                // While it is replaced its instances wait as missing: a request in that moment would
                // find no bundle, and an answer under way is the old bundle's.
                // Kinds the new file no longer has stay missing.
                let old = registry.bundle(path: path).map(registry.kinds(of:)) ?? []
                if !old.isEmpty { engine.bundleMissing(kinds: Set(old)) }
                registry.unload(path: path)
                let problemsBefore = registry.problems.count
                let bundle = registry.load(file: path)
                for problem in registry.problems[problemsBefore...] { log("error: \(problem)") }
                let new = bundle.map(registry.kinds(of:)) ?? []
                if !new.isEmpty {
                    log("\(old.isEmpty ? "loaded" : "reloaded") \(path): \(new.joined(separator: ", "))")
                    engine.bundleAvailable(kinds: Set(new))
                }
            }
        }
    }

    /// The changes that bring the registry in line with a directory's bundle files: files not loaded
    /// (nor refused when the host started) are written; loaded bundles whose file is gone, removed.
    private func rescan(_ directory: String) -> [BundleWatcher.Change] {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let present = Set(names.filter { $0.hasSuffix(".so") && !$0.hasPrefix(".") }.map { prefix + $0 })
        let loaded = Set(registry.bundles.map(\.path).filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") })
        // A file still loading is taken up when it loads (`hearLateLoads`).
        let refused = refusedAtLoad.withLock { $0 }.union(registry.loadsUnderway)
        let added = present.subtracting(loaded).subtracting(refused).sorted().map(BundleWatcher.Change.written)
        let removed = loaded.subtracting(present).sorted().map(BundleWatcher.Change.removed)
        return removed + added
    }

    /// Re-reads the saved instances and brings the engine in line: new ones are added, removed ones
    /// dropped, changed ones reloaded. Returns how many changed.
    @discardableResult
    public func synchronize() throws(StateError) -> Int {
        // Read under the lock: two syncs at once must not apply an older list last.
        lock.lock()
        defer { lock.unlock() }
        let list = try currentList()
        var changes = 0
        let saved = Dictionary(list.instances.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let now = registry.clock.now()
        for (id, old) in known where saved[id] == nil {
            engine.remove(id: id)
            _ = self.hosted.withLock { $0.removeValue(forKey: id) }
            events.instanceChanged("removed", id: id, kind: old.kind, family: old.family, status: nil, text: nil, now: now)
            changes += 1
        }
        for (position, instance) in list.instances.enumerated() {
            let hosted = Self.engineInstance(instance)
            self.hosted.withLock { $0[instance.id] = (instance.kind, instance.family) }
            switch known[instance.id] {
            case nil:
                events.instanceChanged(
                    "added", id: instance.id, kind: instance.kind, family: instance.family, status: nil, text: nil, now: now, position: position)
                // A kind whose bundle may still be loading is not missing yet: its request waits.
                let missing = registry.widget(kind: instance.kind) == nil && registry.loadsUnderway.isEmpty
                engine.add(hosted, bundleMissing: missing)
                // The watcher may have loaded its bundle between the check and the add.
                if missing, registry.widget(kind: instance.kind) != nil { engine.bundleAvailable(kinds: [instance.kind]) }
                changes += 1
            case let old? where old != instance:
                events.instanceChanged(
                    "configured", id: instance.id, kind: instance.kind, family: instance.family, status: engine.status(id: instance.id),
                    text: engine.status(id: instance.id).map(describe), now: now)
                engine.update(hosted)
                changes += 1
            default:
                break
            }
        }
        // Instances kept whose place in the order changed (a reorder, not an addition or removal
        // around them) are moved.
        let order = list.instances.map(\.id)
        let kept = order.filter { known[$0] != nil }
        if kept != knownOrder.filter({ saved[$0] != nil }) {
            let before = Dictionary(knownOrder.filter { saved[$0] != nil }.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            for (rank, id) in kept.enumerated() where before[id] != rank {
                let instance = saved[id]!
                events.instanceChanged(
                    "moved", id: id, kind: instance.kind, family: instance.family, status: nil, text: nil, now: now,
                    position: order.firstIndex(of: id))
                changes += 1
            }
        }
        known = saved
        knownOrder = order
        knownLineage = list.lineage
        return changes
    }

    /// The saved instances; when the state was started afresh behind the host's back (the file set
    /// aside as corrupt, now or by another command, or deleted), the instances this host runs are
    /// written back first: nothing the person saved is lost with the file.
    private func currentList() throws(StateError) -> InstanceList {
        let list: InstanceList
        do {
            list = try store.load()
        } catch {
            guard let aside = error.setAsideAt, !known.isEmpty else { throw error }
            let restored = try writeBack()
            log("warning: the instance state was corrupt; it was kept as \(aside), and the \(restored.count) instance(s) this host runs were written back: \(restored.joined(separator: ", "))")
            return try store.load()
        }
        guard !known.isEmpty, !knownLineage.isEmpty, !list.lineage.isEmpty, list.lineage != knownLineage else { return list }
        let restored = try writeBack()
        if !restored.isEmpty {
            log(
                "warning: the instance state was started afresh while this host ran (its file set aside as corrupt, or deleted); the \(restored.count) instance(s) it runs were written back: \(restored.joined(separator: ", "))")
        }
        return try store.load()
    }

    /// Adds the known instances the saved list lacks (an id taken there keeps what it has).
    /// Returns the ids written back.
    private func writeBack() throws(StateError) -> [String] {
        try store.update { list in
            let missing = known.values.filter { list.instance(id: $0.id) == nil }.sorted { $0.id < $1.id }
            list.restore(missing)
            return missing.map(\.id)
        }
    }

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
            let count = engine.reload(kind: kind, reason: reason)
            if let kind, count == 0 && registry.widget(kind: kind) == nil {
                return ControlServer.failure("no widget of kind \"\(kind.onOneLine.cut(to: 200))\" is loaded and no instance has that kind")
            }
            // The reloads the budget holds back, and until when: the caller is told, not left to wonder.
            let deferred: [JSONValue] = engine.instances.filter { kind == nil || $0.kind == kind }.sorted { $0.id < $1.id }.compactMap { instance in
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
