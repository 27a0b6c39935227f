import CWidgetABI
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport
import WidgetWire

/// The bundles the host loaded, the widgets they registered (kind to descriptor), and every refusal.
///
/// A directory's bundles load in parallel (in process isolation each in its worker; in queue
/// isolation one after another on a loading thread), each within its load deadline. The caller waits
/// as long as its patience allows: what has loaded by then is taken in file order (names in byte
/// order, directories in search-path order), so when two registrations claim one kind the bundle
/// found first keeps it and the later one is refused. A bundle still loading then joins when it
/// loads, or is refused at its deadline; `observeLateLoads` hears of each, and a request for a kind
/// not yet registered waits while bundles are loading.
///
/// What loading has made of the registry is one state behind one lock (`state`): it is read and
/// changed from any thread. The host's settings (deadlines, limits, cache) are set before loading.
public final class WidgetRegistry: @unchecked Sendable {
    /// What the registry holds, read and changed only under `state`'s lock.
    struct State {
        var loaded: [LoadedBundle] = []
        var accepted: [RegisteredWidget] = []
        var widgetIndex: [String: Int] = [:]
        var refusals: [LoadProblem] = []
        var absentDirectories: [String] = []
        /// Files loaded, by device and inode: a second name for one is the same bundle.
        var loadedFiles: [String: String] = [:]
        /// Paths of bundles unloaded in queue isolation: their images stay in this process.
        var unloadedInProcess: Set<String> = []
        /// Files whose workers are loading them (process isolation): a second name for one of them,
        /// met before its worker has finished, is the same file too.
        var startingFiles: [String: String] = [:]
        /// Workers still loading, by path.
        var startingSupervisors: [String: WorkerSupervisor] = [:]
        /// Paths loading now.
        var underway: Set<String> = []
        /// Who waits for a kind (or, with nil, for every load) while bundles load.
        var waiters: [(kind: String?, resume: @Sendable () -> Void)] = []
        /// Late loads not yet heard, and who hears them.
        var unheard: [LateLoad] = []
        var lateObserver: (@Sendable (LateLoad) -> Void)?

        /// The kind index after `accepted` changed.
        mutating func reindex() {
            widgetIndex = Dictionary(uniqueKeysWithValues: accepted.enumerated().map { ($1.kind, $0) })
        }
    }

    let state = Locked(State())
    /// Where late loads are taken and heard, one at a time.
    private let lateQueue = DispatchQueue(label: "widgets.registry.late")
    /// Held for a bundle's `dlopen` in queue isolation, with the file it opens (InProcessLoading.swift).
    let dynamicLoader = Lock()
    let dynamicLoaderHolder = Mutex<String?>(nil)

    public var bundles: [LoadedBundle] { state.withLock { held in held.loaded } }
    /// Accepted widgets, in load order (Live Activities apart: `activityTypes`).
    public var widgets: [RegisteredWidget] { state.withLock { held in held.accepted.filter { !$0.configurationKind.isApart } } }
    /// Everything bundles registered, widgets and Live Activities, in load order.
    var registrations: [RegisteredWidget] { state.withLock { held in held.accepted } }
    /// The Live Activities bundles draw (`ActivityConfiguration`s), each its attributes type's name
    /// as its kind, in load order.
    public var activityTypes: [RegisteredWidget] { state.withLock { held in held.accepted.filter { $0.configurationKind == .activity } } }
    /// The Controls bundles offer (`ControlWidget`s), by kind, in load order.
    public var controls: [RegisteredWidget] { state.withLock { held in held.accepted.filter { $0.configurationKind == .control } } }
    /// Everything refused, one line each, in load order.
    public var problems: [LoadProblem] { state.withLock { held in held.refusals } }
    /// Search-path directories that do not exist.
    public var missingDirectories: [String] { state.withLock { held in held.absentDirectories } }
    /// Files still loading, in byte order.
    public var loadsUnderway: [String] { state.withLock { held in held.underway }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// How long providers have to answer; a host setting.
    public var deadlines: RequestDeadlines
    /// The time deadlines are measured by.
    public let clock: WidgetClock
    /// The heap each provider may hold, in bytes; a host setting applied to providers loaded after
    /// it is set. 30 MiB by default, as on iOS.
    public var memoryLimit: Int64 = MemoryGuard.defaultLimit
    /// Where bundles' code runs: in this process (queue) or in worker processes (process).
    public let isolation: Isolation
    /// How long a bundle may take to load and register its widgets, counted on `clock` from the start
    /// of its load; past it, the bundle is refused. In process isolation its worker is killed (and on
    /// every restart the worker has as long again); in queue isolation its thread, which cannot be
    /// stopped, is left to itself.
    public var loadDeadline: TimeInterval = 10
    /// In process isolation, where the registrations of unchanged bundles are read from instead of
    /// starting their workers (`RegistryCache`); nil to load every bundle. Set before loading.
    public var cache: RegistryCache?
    /// In queue isolation, whether files load on the calling thread instead of loader threads: for
    /// a process that is itself the isolation, a worker, whose host keeps the load's deadline and
    /// ends the process past it. There a loader thread only cost a thread and a wakeup per worker,
    /// and the zygote a wait for its rehearsal's thread to be gone. A file that hangs holds the
    /// caller. Set before loading.
    var loadsOnCallingThread = false

    public init(
        clock: WidgetClock = SystemClock(), deadlines: RequestDeadlines = .default, memoryLimit: Int64 = MemoryGuard.defaultLimit,
        isolation: Isolation = .queue
    ) {
        self.clock = clock
        self.deadlines = deadlines
        self.memoryLimit = memoryLimit
        self.isolation = isolation
    }

    /// Loads every bundle in the directories, in order, waiting for each. In process isolation this
    /// blocks while the workers start: call it off Swift's cooperative pool.
    public static func load(
        searchPath: [String], clock: WidgetClock = SystemClock(), deadlines: RequestDeadlines = .default,
        memoryLimit: Int64 = MemoryGuard.defaultLimit, isolation: Isolation = .queue
    ) -> WidgetRegistry {
        let registry = WidgetRegistry(clock: clock, deadlines: deadlines, memoryLimit: memoryLimit, isolation: isolation)
        for directory in searchPath { registry.loadDirectory(directory) }
        return registry
    }

    /// Ends every worker process (process isolation), those still loading too; their bundles'
    /// requests fail afterwards.
    public func shutDownWorkers() {
        cache?.save()
        let starting: [WorkerSupervisor] = state.withLock { held in Array(held.startingSupervisors.values) }
        let backends = starting.map { $0 as any ProviderBackend } + bundles.map(\.backend)
        // Every worker is asked to end first, then each waited for: they end together, and what
        // they left is swept once after (not once as each ends, which read all of /proc each time).
        Orphans.sweepingOnceAfter {
            for backend in backends { backend.beginShutDown() }
            for backend in backends { backend.shutDown() }
        }
    }


    /// The widget of `kind`; nil for a Live Activity's type (`activityType(_:)`).
    public func widget(kind: String) -> RegisteredWidget? {
        registered(kind: kind).flatMap { $0.configurationKind.isApart ? nil : $0 }
    }

    /// The Live Activity of `type` (its attributes type's name).
    public func activityType(_ type: String) -> RegisteredWidget? {
        registered(kind: type).flatMap { $0.configurationKind == .activity ? $0 : nil }
    }

    /// The Control of `kind`.
    public func control(kind: String) -> RegisteredWidget? {
        registered(kind: kind).flatMap { $0.configurationKind == .control ? $0 : nil }
    }

    /// What registered `kind`, a widget, a Live Activity or a Control.
    func registered(kind: String) -> RegisteredWidget? {
        state.withLock { held in held.widgetIndex[kind].map { held.accepted[$0] } }
    }

    /// The kinds a bundle registered, in load order.
    public func kinds(of bundle: LoadedBundle) -> [String] {
        widgets.filter { $0.bundle === bundle }.map(\.kind)
    }

    /// The bundle loaded from `path`, if one is.
    public func bundle(path: String) -> LoadedBundle? {
        state.withLock { held in held.loaded.first { $0.path == path } }
    }

    // MARK: Loads under way

    /// A bundle that loaded, or was refused, after the call that began loading it returned.
    public struct LateLoad: Sendable {
        public let path: String
        /// The kinds it registered; empty when it was refused.
        public let kinds: [String]
        /// Why it, or some of its widgets, were refused.
        public let problems: [LoadProblem]
    }

    /// `observer` hears each late load, on one queue, in order; those before this call first.
    public func observeLateLoads(_ observer: @escaping @Sendable (LateLoad) -> Void) {
        lateQueue.async { [self] in
            let earlier: [LateLoad] = state.withLock { held in
                held.lateObserver = observer
                defer { held.unheard = [] }
                return held.unheard
            }
            for load in earlier { observer(load) }
        }
    }

    /// Waits (blocking) until a widget of `kind` is registered or no bundle is loading; with nil,
    /// until no bundle is loading.
    public func waitForLoads(kind: String? = nil) {
        let done = DispatchSemaphore(value: 0)
        whenLoaded(kind: kind) { done.signal() }
        done.wait()
    }

    /// Waits until a widget of `kind` is registered or no bundle is loading; with nil, until no
    /// bundle is loading.
    public func loads(kind: String? = nil) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenLoaded(kind: kind) { continuation.resume() }
        }
    }

    private func whenLoaded(kind: String?, _ resume: @escaping @Sendable () -> Void) {
        let now: Bool = state.withLock { held in
            if held.underway.isEmpty || kind.map({ held.widgetIndex[$0] != nil }) == true { return true }
            held.waiters.append((kind, resume))
            return false
        }
        if now { resume() }
    }

    /// After a load ended: those waiting for what is now there go on.
    private func resumeWaiters() {
        let ready: [@Sendable () -> Void] = state.withLock { held in
            var ready: [@Sendable () -> Void] = []
            held.waiters.removeAll { waiter in
                guard held.underway.isEmpty || waiter.kind.map({ held.widgetIndex[$0] != nil }) == true else { return false }
                ready.append(waiter.resume)
                return true
            }
            return ready
        }
        for resume in ready { resume() }
    }

    /// A file's load has ended, with these problems: recorded, and heard when it ended late.
    func settle(_ path: String, bundle: LoadedBundle?, problems: [LoadProblem], late: Bool) {
        let heard: (@Sendable (LateLoad) -> Void, LateLoad)? = state.withLock { held in
            held.underway.remove(path)
            held.startingSupervisors[path] = nil
            held.refusals += problems
            guard late else { return nil }
            let kinds = bundle.map { bundle in held.accepted.filter { $0.bundle === bundle }.map(\.kind) } ?? []
            let load = LateLoad(path: path, kinds: kinds, problems: problems)
            guard let observer = held.lateObserver else {
                held.unheard.append(load)
                return nil
            }
            return (observer, load)
        }
        // Late loads are settled on the late queue, where the observer is called.
        if let (observer, load) = heard { observer(load) }
        resumeWaiters()
    }

    func note(_ problem: LoadProblem) {
        state.withLock { held in held.refusals.append(problem) }
    }

    // MARK: Unloading

    /// Takes a bundle out: its widgets' kinds become unknown, its worker ends (process isolation), and
    /// a file at its path may be loaded again, as a new bundle. Returns the kinds withdrawn.
    ///
    /// In queue isolation the image stays mapped (a Swift image must never be unloaded), so a new file
    /// at the same path cannot be loaded into this process: `load(file:)` refuses it, saying so.
    @discardableResult
    public func unload(path: String) -> [String] {
        let (bundle, kinds): (LoadedBundle?, [String]) = state.withLock { held in
            guard let index = held.loaded.firstIndex(where: { $0.path == path }) else { return (nil, []) }
            let bundle = held.loaded.remove(at: index)
            // Its widgets' kinds (its Live Activities go too, and are not widgets).
            let kinds = held.accepted.filter { $0.bundle === bundle && !$0.configurationKind.isApart }.map(\.kind)
            held.accepted.removeAll { $0.bundle === bundle }
            held.reindex()
            if bundle.backend.holdsImageInProcess {
                held.unloadedInProcess.insert(path)
            } else {
                held.loadedFiles = held.loadedFiles.filter { $0.value != path }
            }
            return (bundle, kinds)
        }
        bundle?.backend.shutDown()
        return kinds
    }

    /// Takes a bundle and the widgets it registered, each unless its kind is taken (the first
    /// registration keeps it). Returns those refused, and why.
    func accept(_ bundle: LoadedBundle, _ widgets: [RegisteredWidget]) -> [(kind: String, problem: LoadProblem)] {
        state.withLock { held in
            var problems: [(kind: String, problem: LoadProblem)] = []
            for widget in widgets {
                if let existing = held.widgetIndex[widget.kind].map({ held.accepted[$0] }) {
                    let message =
                        existing.bundle === widget.bundle
                        ? "widget kind \"\(widget.kind)\" is registered twice in this bundle; the first registration is kept"
                        : "widget kind \"\(widget.kind)\" is already registered by \(existing.bundle.path); the bundle found first on the search path keeps it"
                    problems.append((widget.kind, LoadProblem(path: widget.bundle.path, reason: .duplicateKind, message: message)))
                    continue
                }
                held.widgetIndex[widget.kind] = held.accepted.count
                held.accepted.append(widget)
            }
            held.loaded.append(bundle)
            return problems
        }
    }

    /// A bundle may lower the host's limit for its providers, never raise it.
    func providerMemoryLimit(_ bundle: LoadedBundle) -> Int64 {
        min(memoryLimit, bundle.requestedMemoryLimit ?? memoryLimit)
    }

    // MARK: Loading

    /// Loads the bundles of one directory (`.so` files and `.widgetbundle` directories), in parallel. A missing directory is noted, not an
    /// error. Returns once every file has loaded or been refused, or, given `patience`, once that
    /// much time has passed on the clock: the files still loading then join later (see the type).
    public func loadDirectory(_ directory: String, patience: TimeInterval? = nil) {
        guard let paths = bundlePaths(directory) else { return }
        load(paths, patience: patience)
    }

    /// Checks, opens and initializes one bundle file (in process isolation: has a worker process do
    /// it), waiting for it. Returns the bundle, or nil when it was refused (the reason is in
    /// `problems`).
    @discardableResult
    public func load(file path: String) -> LoadedBundle? {
        load([path], patience: nil)
        return bundle(path: path)
    }

    /// The bundle files of a directory, in byte order of their names; nil (and the reason noted)
    /// when it cannot be listed.
    private func bundlePaths(_ directory: String) -> [String]? {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            if errno == ENOENT {
                state.withLock { held in held.absentDirectories.append(directory) }
            } else {
                note(LoadProblem(path: directory, reason: .unreadable, message: "cannot read: \(errnoText())"))
            }
            return nil
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            note(LoadProblem(path: directory, reason: .notRegularFile, message: "on the search path but not a directory"))
            return nil
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            note(
                LoadProblem(
                    path: directory, reason: .insecurePermissions,
                    message: "refused: directory writable by group or others (mode \(octal(info.st_mode))); run 'chmod go-w \(directory)'"))
            return nil
        }
        guard let stream = opendir(directory) else {
            note(LoadProblem(path: directory, reason: .unreadable, message: "cannot list: \(errnoText())"))
            return nil
        }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            names.append(name)
        }
        closedir(stream)
        return names.filter(BundleSearchPath.isBundleName).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { directory.hasSuffix("/") ? directory + $0 : directory + "/" + $0 }
    }

    /// Loads the files together and waits as `loadDirectory` says.
    private func load(_ paths: [String], patience: TimeInterval?) {
        guard !paths.isEmpty else { return }
        state.withLock { held in held.underway.formUnion(paths) }
        let batch = LoadBatch(count: paths.count, lateQueue: lateQueue)
        switch isolation {
        case .process(let settings):
            for (index, path) in paths.enumerated() { beginWorker(path, index, batch, settings: settings) }
        case .queue:
            loadInProcess(paths, batch)
        }
        var patienceTimer: ScheduledAction?
        if let patience {
            if patience <= 0 {
                batch.endPatience()
            } else {
                patienceTimer = clock.schedule(at: clock.now().addingTimeInterval(patience)) { batch.endPatience() }
            }
        }
        batch.wait()
        patienceTimer?.cancel()
        cache?.save()
    }

    // MARK: Process isolation

    /// The host's checks of the file, then a worker started to load it, whose outcome arrives in
    /// the batch.
    private func beginWorker(_ path: String, _ index: Int, _ batch: LoadBatch, settings: ProcessIsolation) {
        func refuse(_ problem: LoadProblem) {
            batch.arrive(index) { [self] late in settle(path, bundle: nil, problems: [problem], late: late) }
        }
        // The file as `stat` shows it, checked. The very file loaded before has its registration in
        // the cache; any other is opened and its ELF header checked before a worker is started.
        let examined: BundleFile
        switch BundleFile.examine(path, verdicts: batch.verdicts) {
        case .failure(let problem): return refuse(problem)
        case .success(let file): examined = file
        }
        let identity = "\(examined.device):\(examined.inode)"
        let supervisor = WorkerSupervisor(path: path, settings: settings, clock: clock, deadlines: deadlines, memoryLimit: memoryLimit, loadDeadline: loadDeadline)
        let first: String? = state.withLock { held in
            if let first = held.loadedFiles[identity] ?? held.startingFiles[identity] { return first }
            held.startingFiles[identity] = path
            held.startingSupervisors[path] = supervisor
            return nil
        }
        if let first {
            return refuse(LoadProblem(path: path, reason: .alreadyLoaded, message: "the same file as \(first), already loaded; skipped"))
        }
        // Its registration from the cache, its worker started at its first request.
        if let cached = cache?.outcome(for: examined) {
            return batch.arrive(index) { [self] late in finishWorker(path, supervisor, identity: identity, cached, late: late) }
        }
        let file: BundleFile
        switch BundleFile.inspect(path, verdicts: batch.verdicts) {
        case .failure(let problem):
            state.withLock { held in
                held.startingFiles[identity] = nil
                held.startingSupervisors[path] = nil
            }
            return refuse(problem)
        case .success(let inspected): file = inspected
        }
        switch supervisor.beginStart() {
        case .failure(let problem):
            state.withLock { held in held.startingFiles[identity] = nil }
            refuse(problem)
        case .success(let process):
            supervisor.finishStart(process) { [self] outcome in
                cache?.record(file, outcome)
                batch.arrive(index) { [self] late in finishWorker(path, supervisor, identity: identity, outcome, late: late) }
            }
        }
    }

    /// Takes the widgets a worker registered, or records why it did not load.
    private func finishWorker(
        _ path: String, _ supervisor: WorkerSupervisor, identity: String, _ outcome: Result<WorkerHello, WorkerSupervisor.StartFailure>,
        late: Bool
    ) {
        state.withLock { held in held.startingFiles[identity] = nil }
        let hello: WorkerHello
        switch outcome {
        case .failure(let failure):
            return settle(path, bundle: nil, problems: [LoadProblem(path: path, reason: failure.reason, message: failure.description)], late: late)
        case .success(let loaded): hello = loaded
        }
        guard let described = hello.bundle else { return settle(path, bundle: nil, problems: hello.problems, late: late) }
        let bundle = LoadedBundle(path: path, description: described, backend: supervisor)
        let refused = accept(bundle, hello.widgets.map { RegisteredWidget($0.declaration, bundle: bundle) })
        state.withLock { held in held.loadedFiles[identity] = path }
        settle(path, bundle: bundle, problems: hello.problems + refused.map(\.problem), late: late)
    }
}
