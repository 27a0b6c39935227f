import Dispatch
import FoundationEssentials
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
    /// The Live Activities apps started, kept and drawn (see `ActivityCenter`).
    package private(set) var activities: ActivityCenter!
    /// Who shows Live Activities as desktop notifications, when `notifyActivities` was called.
    private let notifier = Locked<ActivityNotifier?>(nil)

    /// Shows Live Activities as freedesktop notifications from now on (`widgets run` does; see
    /// `ActivityNotifier`), through the session bus `environment` names. `describe` gives a view's
    /// lines of text; `log` hears the one warning when there is no notification server.
    public func notifyActivities(
        environment: [String: String], describe: @escaping @Sendable (ViewNode) -> [String], log: @escaping @Sendable (String) -> Void
    ) {
        let notifier = ActivityNotifier(environment: environment, describe: describe, log: log)
        self.notifier.withLock { $0 = notifier }
        for record in activities.list() { notifier.changed(record, removed: false) }
    }

    /// The Controls of the loaded bundles (see `ControlBoard`).
    package private(set) var controls: ControlBoard!
    private var server: ControlServer?
    private var watcher: BundleWatcher?
    let lock = Lock()
    /// The instances as last read from the store, by id, and the lineage of that list.
    var known: [String: WidgetInstance] = [:]
    /// Their ids in the saved order (the home screen's).
    private var knownOrder: [String] = []
    private var knownLineage = ""
    private var log: @Sendable (String) -> Void = { _ in }
    /// Every change of every instance, for the control socket's subscribers (`widgets watch`).
    package let events = EventHub()
    /// Each hosted instance's kind and family, for its events.
    private let hosted = Locked<[String: (kind: String, family: WidgetFamily)]>([:])
    /// What an instance shows, as one line of text (`widgets run --log`'s), for its events.
    let describe: @Sendable (InstanceStatus) -> String
    /// A view as one line of text, for an instance drawn in another family (`text` requests).
    let describeView: @Sendable (ViewNode) -> String
    /// The environment a family's views are built for.
    let environment: @Sendable (WidgetFamily) -> RenderingEnvironment
    /// Where the host's debug lines go (each timeline asked for, each control request), when
    /// someone listens (`widgets run -v`).
    let debugLog = Locked<(@Sendable (String) -> Void)?>(nil)

    /// Who hears the instances' order change (the home screen's reordering): the dashboard.
    let reorderHandler = Locked<(@Sendable ([String]) -> Void)?>(nil)

    /// Hears each new order of the instances, ids in the order saved (the web page's reordering).
    public func onReorder(_ handler: @escaping @Sendable ([String]) -> Void) { reorderHandler.withLock { $0 = handler } }

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
        let notifier = notifier
        activities = ActivityCenter(registry: registry, store: store) { record, removed in
            events.activityChanged(record, removed: removed, describe: describeView, now: clock.now())
            notifier.withLock { $0 }?.changed(record, removed: removed)
        }
        controls = ControlBoard(registry: registry) { entry in
            events.controlChanged(entry, describe: describeView, now: clock.now())
        }
    }

    /// Given a path, listens for control requests there, then hosts the saved instances. Listening
    /// comes first: a second host is refused before it asks any provider for anything.
    public func start(socketPath: String?, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.log = log
        if let socketPath {
            server = try ControlServer(
                path: socketPath, log: log,
                subscribe: { [weak self] ids, send in
                    self?.awaitHosting()
                    guard let (answer, token) = self?.subscribe(ids: ids, send: send) else {
                        return (ControlAnswer.refused("the host is stopping").json, nil)
                    }
                    return (answer.json, token)
                },
                unsubscribe: { [events] token in events.unsubscribe(token) }
            ) { [weak self] request in
                self?.awaitHosting()
                return self?.handle(request) ?? ControlServer.failure("the host is stopping")
            }
        }
        defer { openForRequests() }
        activities.restore(log: log)
        do {
            try synchronize()
        } catch {
            stop()
            throw error
        }
    }

    /// Whether the saved instances are hosted (the first synchronize is done, or failed): until
    /// then a request that names an instance waits, rather than being refused for an instance
    /// about to be hosted (a bar's feed reconnecting to a host just restarted asks at once).
    private let hosting = Condition()
    private var isHosting = false

    private func openForRequests() {
        hosting.withLock {
            isHosting = true
            hosting.broadcast()
        }
    }

    /// Waits (10 s at most) until the saved instances are hosted.
    func awaitHosting() {
        let giveUp = Date().addingTimeInterval(10)
        hosting.withLock {
            while !isHosting { if !hosting.wait(until: giveUp) { break } }
        }
    }

    /// The saved instances this host runs, in their saved order (the home screen's).
    public var instances: [WidgetInstance] {
        lock.withLock { knownOrder.compactMap { known[$0] } }
    }

    /// The home screen's address, token included, when `widgets run --web` serves one; the control
    /// socket's `home` request answers with it (`widgets home`).
    public var homeURL: String? {
        get { homeReady.withLock { home } }
        set {
            homeReady.withLock {
                home = newValue
                homeReady.broadcast()
            }
        }
    }
    private var home: String?
    private let homeReady = Condition()

    /// Set before `start` by a host that serves a home screen once it has started: a `home` request
    /// made meanwhile (a desktop's right click just after a restart) waits for its address, 10 s at
    /// most, rather than being told there is none.
    public var servesHome: Bool {
        get { homeReady.withLock { serving } }
        set {
            homeReady.withLock {
                serving = newValue
                homeReady.broadcast()
            }
        }
    }
    private var serving = false
    /// Requests waiting for the home screen's address now.
    package var homeWaiters: Int { homeReady.withLock { waiting } }
    private var waiting = 0

    /// The home screen's address, waited for while it is about to be served.
    func awaitHomeURL() -> String? {
        let giveUp = Date().addingTimeInterval(10)
        return homeReady.withLock {
            waiting += 1
            defer { waiting -= 1 }
            while home == nil, serving { if !homeReady.wait(until: giveUp) { break } }
            return home
        }
    }

    public func stop() {
        server?.stop()
        server = nil
        watcher?.stop()
        watcher = nil
        // A stopped host changes no activity (its timers would otherwise save over the next host's),
        // and leaves no notification of one behind.
        activities.stop()
        notifier.withLock { $0 }?.closeAll()
    }

    /// Watches the bundle directories: a bundle installed while the host runs is loaded and its
    /// instances come alive, a removed one's instances show `bundleMissing` (and keep their
    /// configuration), a replaced one is loaded again (in process isolation by a new worker). Each
    /// change, and each refusal, is reported through `log`.
    public func watch(directories: [String], log: @escaping @Sendable (String) -> Void) throws(ControlWatchError) {
        let watcher = try BundleWatcher(directories: directories) { [weak self] changes in self?.apply(changes, log: log) }
        self.watcher = watcher
        for line in watcher.unwatchable { log("warning: \(line)") }
        for directory in watcher.awaiting { log("\(directory) does not exist yet; bundles put there are loaded once it is made") }
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
        do {
            try synchronize()
        } catch {
            HostLog.warning("rescan: the saved instances were not re-read: \(error)")
        }
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
            case .directoryAppeared(let directory):
                log("\(directory) was made; watching it for bundles")
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
        let present = Set(names.filter(BundleSearchPath.isBundleName).map { prefix + $0 })
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
        // A new order is told once the lock is let go (the dashboard draws it; a terminal that
        // blocks must not hold up every request that synchronizes).
        var reordered: [String]?
        defer { if let reordered { reorderHandler.withLock { $0 }?(reordered) } }
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
                guard let instance = saved[id] else { continue }
                events.instanceChanged(
                    "moved", id: id, kind: instance.kind, family: instance.family, status: nil, text: nil, now: now,
                    position: order.firstIndex(of: id))
                changes += 1
            }
            reordered = order
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
}
