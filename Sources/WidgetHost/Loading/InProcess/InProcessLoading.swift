import CWidgetABI
import FoundationEssentials
import Glibc
import Synchronization
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport

// Loading in queue isolation: bundles opened and initialized in this process, on loader threads,
// each within its deadline. (Process isolation has a worker do the same, through this very code.)
extension WidgetRegistry {
    /// Loads the files within `loadDeadline` each. One loader thread takes them in file order; while
    /// a bundle's `initialize` runs longer than a tick of `LoaderWatch`, another loader thread takes the rest,
    /// so a slow or hung bundle delays no other, and a quick batch costs one thread. The dynamic
    /// loader's part runs one file at a time, in file order (the loader is one at a time anyway), so
    /// a file that hangs there is told from those waiting behind it. A file that passes its deadline
    /// is refused, and its thread left to itself.
    func loadInProcess(_ paths: [String], _ batch: LoadBatch) {
        let deadline = loadDeadline
        let turns = Turns()
        let verdicts = batch.verdicts
        var queued: [QueuedLoad] = []
        for (index, path) in paths.enumerated() {
            let load = InProcessLoad()
            let timer = clock.schedule(at: clock.now().addingTimeInterval(deadline)) { [self] in
                guard let stage = load.abandon() else { return }
                let message: String
                if stage == .waitingForLoader, let holder = dynamicLoaderHolder.withLock({ $0 }) {
                    message = "not loaded: \(holder) hangs in its static initializers, holding the dynamic loader; restart the host without it"
                } else {
                    let hung = stage == .initializing ? "in initialize" : "in its static initializers"
                    message =
                        "did not finish loading within \(timeSpan(deadline)) (hung \(hung)); refused, and its thread, which cannot be stopped in queue isolation, is left to itself (process isolation ends it)"
                }
                let problem = LoadProblem(path: path, reason: .timedOut, message: message)
                batch.arrive(index) { [self] late in settle(path, bundle: nil, problems: [problem], late: late) }
            }
            queued.append(QueuedLoad(index: index, path: path, load: load, deadline: timer))
        }
        let queue = LoadQueue(queued)
        let watch = LoaderWatch()
        startLoader(queue, batch, turns, verdicts, watch)
        if queued.count > 1, !loadsOnCallingThread {
            watch.start { [self] in startLoader(queue, batch, turns, verdicts, watch) }
        }
    }

    private struct QueuedLoad: Sendable {
        let index: Int
        let path: String
        let load: InProcessLoad
        let deadline: ScheduledAction
    }

    /// A loader thread: takes files from the queue until it is empty. A load abandoned at its
    /// deadline meanwhile is dropped when (if ever) it returns, and the thread goes on. In a worker
    /// (`loadsOnCallingThread`) the calling thread does the same.
    private func startLoader(_ queue: LoadQueue<QueuedLoad>, _ batch: LoadBatch, _ turns: Turns, _ verdicts: DirectoryVerdicts, _ watch: LoaderWatch) {
        let loader = watch.addLoader()
        let load: @Sendable () -> Void = { [self] in
            while let item = queue.next() {
                let prepared = prepareInProcess(item.path, item.load, turn: item.index, of: turns, verdicts: verdicts) {
                    watch.initializing(loader)
                }
                watch.initialized(loader)
                item.deadline.cancel()
                guard item.load.finish() else { continue }
                batch.arrive(item.index) { [self] late in
                    let (bundle, problems) = prepared.take(self)
                    settle(item.path, bundle: bundle, problems: problems, late: late)
                }
            }
            watch.loaderDone()
        }
        if loadsOnCallingThread {
            load()
        } else {
            startThread(named: "widgets.loading", stackSize: 8 << 20, load)
        }
    }

    /// A file opened and initialized in this process, its widgets not yet taken.
    private enum Prepared {
        case refused([LoadProblem])
        case initialized(LoadedBundle, InProcessBackend, widgets: [RegisteredWidget], problems: [LoadProblem], identity: String?)

        /// Takes the bundle and its widgets into the registry, unless a second name for the same
        /// file was taken meanwhile.
        func take(_ registry: WidgetRegistry) -> (LoadedBundle?, [LoadProblem]) {
            switch self {
            case .refused(let problems): return (nil, problems)
            case .initialized(let bundle, let backend, let widgets, let problems, let identity):
                if let identity {
                    let first: String? = registry.state.withLock { held in
                        if let first = held.loadedFiles[identity] { return first }
                        held.loadedFiles[identity] = bundle.path
                        return nil
                    }
                    if let first {
                        return (nil, [LoadProblem(path: bundle.path, reason: .alreadyLoaded, message: "the same file as \(first), already loaded; skipped")])
                    }
                }
                let memoryLimit = registry.providerMemoryLimit(bundle)
                for widget in widgets { backend.openProvider(kind: widget.kind, memoryLimit: memoryLimit) }
                let refused = registry.accept(bundle, widgets)
                backend.closeProviders(kinds: refused.map(\.kind))
                return (bundle, problems + refused.map(\.problem))
            }
        }
    }

    /// Opens and initializes one file in this process, on the calling thread, opening it in its turn.
    /// `initializing` is called as the bundle's `initialize` is about to run.
    private func prepareInProcess(
        _ path: String, _ load: InProcessLoad, turn: Int, of turns: Turns, verdicts: DirectoryVerdicts, initializing: () -> Void
    ) -> Prepared {
        if state.withLock({ held in held.unloadedInProcess.contains(path) }) {
            turns.skip(turn)
            return .refused([
                LoadProblem(
                    path: path, reason: .alreadyLoaded,
                    message: "replaced while the host runs in queue isolation, where a loaded image cannot be unloaded; restart the host to load the new file")
            ])
        }
        turns.wait(for: turn)
        dynamicLoader.lock()
        load.opening()
        dynamicLoaderHolder.withLock { $0 = path }
        let opened = ExitGuard.during(ExitGuard.name(path), .loading) { Self.open(path, verdicts: verdicts) }
        dynamicLoaderHolder.withLock { $0 = nil }
        dynamicLoader.unlock()
        turns.done(turn)
        switch opened {
        case .failure(let problem):
            return .refused([problem])
        case .success(let (file, entry)):
            let identity = "\(file.device):\(file.inode)"
            if let first = state.withLock({ held in held.loadedFiles[identity] }) {
                return .refused([LoadProblem(path: path, reason: .alreadyLoaded, message: "the same file as \(first), already loaded; skipped")])
            }
            load.initializing()
            initializing()
            return initialize(entry, path: path, identity: identity)
        }
    }

    /// Loads a bundle linked into this executable rather than found on disk, given what its
    /// `widget_bundle_entry` returns: for programs that embed the host and their own widgets. It is
    /// checked and initialized exactly as a file's bundle is; `label` names it in diagnostics.
    @discardableResult
    public func load(linkedEntry entry: UnsafeRawPointer, label: String) -> LoadedBundle? {
        let (bundle, problems) = initialize(entry.assumingMemoryBound(to: widget_bundle_t.self), path: label, identity: nil).take(self)
        for problem in problems { note(problem) }
        return bundle
    }

    /// Checks a bundle's entry and initializes it, collecting the widgets it registers.
    private func initialize(_ entry: UnsafePointer<widget_bundle_t>, path: String, identity: String?) -> Prepared {
        let native: InProcessBundle
        do {
            native = try InProcessBundle(path: path, entry: entry)
        } catch {
            return .refused([error])
        }
        let backend = InProcessBackend(native, clock: clock)
        let bundle = LoadedBundle(path: path, description: native.description, backend: backend)
        // Registrations come during `initialize`, on this thread or one the bundle starts: each is
        // checked as it comes, and a kind this bundle registered already is refused at once.
        // Calls past the most a bundle may make are only counted (said once below): neither the
        // widgets kept nor the problems said grow without bound, and a kind is found by hash.
        let registered = Mutex<(widgets: [RegisteredWidget], kinds: Set<String>, problems: [LoadProblem], calls: Int)>(([], [], [], 0))
        do {
            try native.initialize { pointer in
                registered.withLock { registered in
                    registered.calls += 1
                    guard registered.calls <= Self.maximumWidgetsPerBundle else { return false }
                    switch WidgetDeclaration.validate(pointer, path: path) {
                    case .failure(let problem):
                        registered.problems.append(problem)
                        return false
                    case .success(let declaration):
                        guard registered.kinds.insert(declaration.kind).inserted else {
                            registered.problems.append(
                                LoadProblem(
                                    path: path, reason: .duplicateKind,
                                    message: "widget kind \"\(declaration.kind)\" is registered twice in this bundle; the first registration is kept"))
                            return false
                        }
                        registered.widgets.append(RegisteredWidget(declaration, bundle: bundle))
                        return true
                    }
                }
            }
        } catch {
            return .refused(registered.withLock { $0.problems } + [error])
        }
        let (widgets, _, found, calls) = registered.withLock { $0 }
        var problems = found
        if calls > Self.maximumWidgetsPerBundle {
            problems.append(
                LoadProblem(
                    path: path, reason: .invalidBundle,
                    message: "registers \(calls) widgets, more than the \(Self.maximumWidgetsPerBundle) a bundle may; the first \(Self.maximumWidgetsPerBundle) registrations are taken"))
        }
        return .initialized(bundle, backend, widgets: widgets, problems: problems, identity: identity)
    }

    /// The most widgets one bundle may register: each is a provider with a queue and a memory guard
    /// slot of its own (4 095 in a process), and a bundle of iOS's has a handful.
    public static let maximumWidgetsPerBundle = 1000

    /// Opens and checks the file, then loads that very file, from its descriptor: a file renamed over
    /// the path meanwhile is not the one loaded. The descriptor of a file the dynamic loader took
    /// stays open for the life of the process, as the image does.
    private static func open(_ path: String, verdicts: DirectoryVerdicts) -> Result<(BundleFile, UnsafePointer<widget_bundle_t>), LoadProblem> {
        let file: BundleFile
        switch BundleFile.open(path, verdicts: verdicts) {
        case .failure(let problem): return .failure(problem)
        case .success(let opened): file = opened
        }
        _ = dlerror()
        guard let handle = dlopen(file.loadPath, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            // The loader names the descriptor; the user knows the file.
            let reason = (dlerror().map { String(cString: $0) } ?? "unknown error").replacing(file.loadPath, with: path)
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
