import CWidgetABI
import Foundation
import Glibc
import WidgetABI
import WidgetSupport
import WidgetWire

/// The bundles the host loaded, the widgets they registered (kind to descriptor), and every refusal.
///
/// Loading is deterministic: directories in search-path order, files in byte order of their names.
/// When two registrations claim one kind, the first one loaded keeps it and the later one is refused.
///
/// Loading and unloading happen on one thread at a time (a command's, or the running host's watcher
/// queue); the bundles and widgets may be read from any thread meanwhile.
public final class WidgetRegistry: @unchecked Sendable {
    /// Guards `loaded`, `accepted` and `widgetIndex`, which requests read while the host loads.
    private let stateLock = NSLock()
    private var loaded: [LoadedBundle] = []
    // `@exclusivity(unchecked)`: state only touched under a lock (docs/ISOLATION.md, "Cost").
    @exclusivity(unchecked) private var accepted: [RegisteredWidget] = []

    public var bundles: [LoadedBundle] { stateLock.withLock { loaded } }
    /// Accepted widgets, in load order.
    public var widgets: [RegisteredWidget] { stateLock.withLock { accepted } }
    /// Everything refused, one line each, in load order.
    public internal(set) var problems: [LoadProblem] = []
    /// Search-path directories that do not exist.
    public private(set) var missingDirectories: [String] = []

    /// How long providers have to answer; a host setting.
    public var deadlines: RequestDeadlines
    /// The time deadlines are measured by.
    public let clock: WidgetClock
    /// The heap each provider may hold, in bytes; a host setting applied to providers loaded after
    /// it is set. 30 MiB by default, as on iOS.
    public var memoryLimit: Int64 = MemoryGuard.defaultLimit
    /// Where bundles' code runs: in this process (queue) or in worker processes (process).
    public let isolation: Isolation

    @exclusivity(unchecked) private var widgetIndex: [String: Int] = [:]
    private var loadedFiles: [String: String] = [:]
    /// Paths of bundles unloaded in queue isolation: their images stay in this process.
    private var unloadedInProcess: Set<String> = []
    /// Files whose workers are loading them (process isolation): a second name for one of them, met
    /// before its worker has finished, is the same file too.
    private var startingFiles: [String: String] = [:]

    public init(
        clock: WidgetClock = SystemClock(), deadlines: RequestDeadlines = .default, memoryLimit: Int64 = MemoryGuard.defaultLimit,
        isolation: Isolation = .queue
    ) {
        self.clock = clock
        self.deadlines = deadlines
        self.memoryLimit = memoryLimit
        self.isolation = isolation
    }

    /// Loads every bundle in the directories, in order. In process isolation this blocks while the
    /// workers start: call it off Swift's cooperative pool.
    public static func load(
        searchPath: [String], clock: WidgetClock = SystemClock(), deadlines: RequestDeadlines = .default,
        memoryLimit: Int64 = MemoryGuard.defaultLimit, isolation: Isolation = .queue
    ) -> WidgetRegistry {
        let registry = WidgetRegistry(clock: clock, deadlines: deadlines, memoryLimit: memoryLimit, isolation: isolation)
        for directory in searchPath { registry.loadDirectory(directory) }
        return registry
    }

    /// Ends every worker process (process isolation); their bundles' requests fail afterwards.
    public func shutDownWorkers() {
        for bundle in bundles { bundle.backend.shutDown() }
    }

    public func widget(kind: String) -> RegisteredWidget? {
        stateLock.withLock { widgetIndex[kind].map { accepted[$0] } }
    }

    /// The kinds a bundle registered, in load order.
    public func kinds(of bundle: LoadedBundle) -> [String] {
        widgets.filter { $0.bundle === bundle }.map(\.kind)
    }

    /// The bundle loaded from `path`, if one is.
    public func bundle(path: String) -> LoadedBundle? {
        stateLock.withLock { loaded.first { $0.path == path } }
    }

    /// Takes a bundle out: its widgets' kinds become unknown, its worker ends (process isolation), and
    /// a file at its path may be loaded again, as a new bundle. Returns the kinds withdrawn.
    ///
    /// In queue isolation the image stays mapped (a Swift image must never be unloaded), so a new file
    /// at the same path cannot be loaded into this process: `load(file:)` refuses it, saying so.
    @discardableResult
    public func unload(path: String) -> [String] {
        let (bundle, kinds): (LoadedBundle?, [String]) = stateLock.withLock {
            guard let index = loaded.firstIndex(where: { $0.path == path }) else { return (nil, []) }
            let bundle = loaded.remove(at: index)
            let kinds = accepted.filter { $0.bundle === bundle }.map(\.kind)
            accepted.removeAll { $0.bundle === bundle }
            widgetIndex = Dictionary(uniqueKeysWithValues: accepted.enumerated().map { ($1.kind, $0) })
            return (bundle, kinds)
        }
        guard let bundle else { return [] }
        bundle.backend.shutDown()
        if bundle.backend is InProcessBackend {
            unloadedInProcess.insert(path)
        } else {
            loadedFiles = loadedFiles.filter { $0.value != path }
        }
        return kinds
    }

    /// Takes a widget a bundle registered, unless its kind is taken: the first registration keeps it.
    func accept(_ widget: RegisteredWidget) -> Bool {
        if let existing = self.widget(kind: widget.kind) {
            let message =
                existing.bundle === widget.bundle
                ? "widget kind \"\(widget.kind)\" is registered twice in this bundle; the first registration is kept"
                : "widget kind \"\(widget.kind)\" is already registered by \(existing.bundle.path); the bundle found first on the search path keeps it"
            problems.append(LoadProblem(path: widget.bundle.path, reason: .duplicateKind, message: message))
            return false
        }
        stateLock.withLock {
            widgetIndex[widget.kind] = accepted.count
            accepted.append(widget)
        }
        return true
    }

    /// A bundle may lower the host's limit for its providers, never raise it.
    func providerMemoryLimit(_ bundle: LoadedBundle) -> Int64 {
        min(memoryLimit, bundle.requestedMemoryLimit ?? memoryLimit)
    }

    /// Loads the `.so` files of one directory. A missing directory is noted, not an error.
    public func loadDirectory(_ directory: String) {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            if errno == ENOENT {
                missingDirectories.append(directory)
            } else {
                problems.append(LoadProblem(path: directory, reason: .unreadable, message: "cannot read: \(errnoText())"))
            }
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            problems.append(LoadProblem(path: directory, reason: .notRegularFile, message: "on the search path but not a directory"))
            return
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            problems.append(
                LoadProblem(
                    path: directory, reason: .insecurePermissions,
                    message: "refused: directory writable by group or others (mode \(octal(info.st_mode))); run 'chmod go-w \(directory)'"))
            return
        }
        guard let stream = opendir(directory) else {
            problems.append(LoadProblem(path: directory, reason: .unreadable, message: "cannot list: \(errnoText())"))
            return
        }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            names.append(name)
        }
        closedir(stream)
        let paths = names.filter { $0.hasSuffix(".so") }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { directory.hasSuffix("/") ? directory + $0 : directory + "/" + $0 }
        guard case .process(let settings) = isolation else {
            for path in paths { load(file: path) }
            return
        }
        // Start every worker first, then take what each loaded in order: their start-ups overlap.
        let starting = paths.map { path in (path, beginWorker(path, settings: settings)) }
        for (path, started) in starting { finishWorker(path, started) }
    }

    /// Checks, opens and initializes one bundle file (in process isolation: has a worker process do
    /// it). Returns the bundle, or nil when it was refused (the reason is in `problems`).
    @discardableResult
    public func load(file path: String) -> LoadedBundle? {
        if case .process(let settings) = isolation {
            return finishWorker(path, beginWorker(path, settings: settings))
        }
        if unloadedInProcess.contains(path) {
            problems.append(
                LoadProblem(
                    path: path, reason: .alreadyLoaded,
                    message: "replaced while the host runs in queue isolation, where a loaded image cannot be unloaded; restart the host to load the new file"))
            return nil
        }
        switch Self.open(path) {
        case .failure(let problem):
            problems.append(problem)
            return nil
        case .success(let (file, entry)):
            let identity = "\(file.device):\(file.inode)"
            if let first = loadedFiles[identity] {
                problems.append(LoadProblem(path: path, reason: .alreadyLoaded, message: "the same file as \(first), already loaded; skipped"))
                return nil
            }
            let bundle = adopt(entry, path: path)
            if bundle != nil { loadedFiles[identity] = path }
            return bundle
        }
    }

    /// The host's checks of the file, then a worker started to load it.
    private func beginWorker(
        _ path: String, settings: ProcessIsolation
    ) -> Result<(WorkerSupervisor, WorkerProcess, identity: String), LoadProblem> {
        let file: BundleFile
        switch BundleFile.inspect(path) {
        case .failure(let problem): return .failure(problem)
        case .success(let inspected): file = inspected
        }
        let identity = "\(file.device):\(file.inode)"
        if let first = loadedFiles[identity] ?? startingFiles[identity] {
            return .failure(LoadProblem(path: path, reason: .alreadyLoaded, message: "the same file as \(first), already loaded; skipped"))
        }
        startingFiles[identity] = path
        let supervisor = WorkerSupervisor(path: path, settings: settings, clock: clock, deadlines: deadlines, memoryLimit: memoryLimit)
        let started = supervisor.beginStart()
        if case .failure = started { startingFiles[identity] = nil }
        return started.map { (supervisor, $0, identity) }
    }

    /// Waits for a worker to load its bundle, and takes the widgets it registered.
    @discardableResult
    private func finishWorker(
        _ path: String, _ started: Result<(WorkerSupervisor, WorkerProcess, identity: String), LoadProblem>
    ) -> LoadedBundle? {
        let supervisor: WorkerSupervisor
        let hello: WorkerHello
        let identity: String
        switch started {
        case .failure(let problem):
            problems.append(problem)
            return nil
        case .success(let (startedSupervisor, process, startedIdentity)):
            supervisor = startedSupervisor
            identity = startedIdentity
            startingFiles[identity] = nil
            switch supervisor.finishStart(process) {
            case .failure(let failure):
                problems.append(LoadProblem(path: path, reason: failure.reason, message: failure.description))
                return nil
            case .success(let loaded): hello = loaded
            }
        }
        problems += hello.problems
        guard let described = hello.bundle else { return nil }
        let bundle = LoadedBundle(path: path, description: described, backend: supervisor)
        for widget in hello.widgets {
            _ = accept(RegisteredWidget(widget.declaration, bundle: bundle))
        }
        stateLock.withLock { loaded.append(bundle) }
        loadedFiles[identity] = path
        return bundle
    }

    /// Loads a bundle linked into this executable rather than found on disk, given what its
    /// `widget_bundle_entry` returns: for programs that embed the host and their own widgets. It is
    /// checked and initialized exactly as a file's bundle is; `label` names it in diagnostics.
    @discardableResult
    public func load(linkedEntry entry: UnsafeRawPointer, label: String) -> LoadedBundle? {
        adopt(entry.assumingMemoryBound(to: widget_bundle_t.self), path: label)
    }

    /// Checks a bundle's entry and initializes it, taking the widgets it registers. On failure, the
    /// widgets it registered before failing are withdrawn and the problem recorded.
    private func adopt(_ entry: UnsafePointer<widget_bundle_t>, path: String) -> LoadedBundle? {
        var backend: InProcessBackend?
        do {
            let native = try InProcessBundle(path: path, entry: entry)
            let inProcess = InProcessBackend(native, clock: clock)
            backend = inProcess
            let bundle = LoadedBundle(path: path, description: native.description, backend: inProcess)
            let memoryLimit = providerMemoryLimit(bundle)
            // Registrations come on this thread, during `initialize`.
            let registry = self
            try native.initialize { pointer in
                switch WidgetDeclaration.validate(pointer, path: path) {
                case .failure(let problem):
                    registry.problems.append(problem)
                    return false
                case .success(let declaration):
                    guard registry.accept(RegisteredWidget(declaration, bundle: bundle)) else { return false }
                    inProcess.openProvider(kind: declaration.kind, memoryLimit: memoryLimit)
                    return true
                }
            }
            stateLock.withLock { loaded.append(bundle) }
            return bundle
        } catch {
            let withdrawn: [String] = stateLock.withLock {
                let withdrawn = accepted.filter { $0.bundle.path == path }.map(\.kind)
                accepted.removeAll { $0.bundle.path == path }
                widgetIndex = Dictionary(uniqueKeysWithValues: accepted.enumerated().map { ($1.kind, $0) })
                return withdrawn
            }
            backend?.closeProviders(kinds: withdrawn)
            problems.append(error)
            return nil
        }
    }

    /// Opens and checks the file, then loads that very file, from its descriptor: a file renamed over
    /// the path meanwhile is not the one loaded. The descriptor of a file the dynamic loader took
    /// stays open for the life of the process, as the image does.
    private static func open(_ path: String) -> Result<(BundleFile, UnsafePointer<widget_bundle_t>), LoadProblem> {
        let file: BundleFile
        switch BundleFile.open(path) {
        case .failure(let problem): return .failure(problem)
        case .success(let opened): file = opened
        }
        _ = dlerror()
        guard let handle = dlopen(file.loadPath, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            // The loader names the descriptor; the user knows the file.
            let reason = (dlerror().map { String(cString: $0) } ?? "unknown error").replacingOccurrences(of: file.loadPath, with: path)
            file.close()
            return .failure(LoadProblem(path: path, reason: .dlopenFailed, message: "cannot be loaded: \(reason)"))
        }
        // Never dlclose: RTLD_NODELETE keeps the image anyway, and a Swift image must never be unloaded.
        guard let symbol = dlsym(handle, WIDGET_BUNDLE_ENTRY_SYMBOL) else {
            return .failure(
                LoadProblem(
                    path: path, reason: .missingEntrySymbol,
                    message: "no \(WIDGET_BUNDLE_ENTRY_SYMBOL) symbol: not a widget bundle (a Swift bundle exports it with exportWidgetBundle, see README)"
                ))
        }
        let entryFunction = unsafeBitCast(symbol, to: widget_bundle_entry_fn.self)
        guard let entry = entryFunction() else {
            return .failure(LoadProblem(path: path, reason: .invalidBundle, message: "\(WIDGET_BUNDLE_ENTRY_SYMBOL) returned NULL"))
        }
        return .success((file, entry))
    }
}
