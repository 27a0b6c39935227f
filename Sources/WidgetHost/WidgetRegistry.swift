import CWidgetABI
import Foundation
import Glibc

/// The bundles the host loaded, the widgets they registered (kind to descriptor), and every refusal.
///
/// Loading is deterministic: directories in search-path order, files in byte order of their names.
/// When two registrations claim one kind, the first one loaded keeps it and the later one is refused.
public final class WidgetRegistry: @unchecked Sendable {
    public private(set) var bundles: [LoadedBundle] = []
    /// Accepted widgets, in load order.
    public private(set) var widgets: [RegisteredWidget] = []
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

    private var widgetIndex: [String: Int] = [:]
    private var loadedFiles: [String: String] = [:]
    private var queues: [String: ProviderQueue] = [:]
    private let queuesLock = NSLock()

    public init(clock: WidgetClock = SystemClock(), deadlines: RequestDeadlines = .default, memoryLimit: Int64 = MemoryGuard.defaultLimit) {
        self.clock = clock
        self.deadlines = deadlines
        self.memoryLimit = memoryLimit
    }

    /// Loads every bundle in the directories, in order.
    public static func load(
        searchPath: [String], clock: WidgetClock = SystemClock(), deadlines: RequestDeadlines = .default,
        memoryLimit: Int64 = MemoryGuard.defaultLimit
    ) -> WidgetRegistry {
        let registry = WidgetRegistry(clock: clock, deadlines: deadlines, memoryLimit: memoryLimit)
        for directory in searchPath { registry.loadDirectory(directory) }
        return registry
    }

    public func widget(kind: String) -> RegisteredWidget? {
        widgetIndex[kind].map { widgets[$0] }
    }

    func add(_ widget: RegisteredWidget) {
        widgetIndex[widget.kind] = widgets.count
        widgets.append(widget)
        // A bundle may lower the host's limit for its providers, never raise it.
        let limit = min(memoryLimit, widget.bundle.requestedMemoryLimit ?? memoryLimit)
        queuesLock.withLock { queues[widget.kind] = ProviderQueue(kind: widget.kind, memoryLimit: limit) }
    }

    func providerQueue(kind: String) -> ProviderQueue? {
        queuesLock.withLock { queues[kind] }
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
        for name in names.filter({ $0.hasSuffix(".so") }).sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            load(file: directory.hasSuffix("/") ? directory + name : directory + "/" + name)
        }
    }

    /// Checks, opens and initializes one bundle file. Returns the bundle, or nil when it was refused
    /// (the reason is in `problems`).
    @discardableResult
    public func load(file path: String) -> LoadedBundle? {
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

    /// Loads a bundle linked into this executable rather than found on disk, given what its
    /// `widget_bundle_entry` returns: for programs that embed the host and their own widgets. It is
    /// checked and initialized exactly as a file's bundle is; `label` names it in diagnostics.
    @discardableResult
    public func load(linkedEntry entry: UnsafeRawPointer, label: String) -> LoadedBundle? {
        adopt(entry.assumingMemoryBound(to: widget_bundle_t.self), path: label)
    }

    /// Checks a bundle's entry and initializes it. On failure, the widgets it registered before
    /// failing are withdrawn and the problem recorded.
    private func adopt(_ entry: UnsafePointer<widget_bundle_t>, path: String) -> LoadedBundle? {
        do {
            let bundle = try LoadedBundle(path: path, entry: entry)
            try bundle.initialize(into: self)
            bundles.append(bundle)
            return bundle
        } catch {
            let withdrawn = widgets.filter { $0.bundle.path == path }.map(\.kind)
            widgets.removeAll { $0.bundle.path == path }
            widgetIndex = Dictionary(uniqueKeysWithValues: widgets.enumerated().map { ($1.kind, $0) })
            queuesLock.withLock { for kind in withdrawn { queues[kind] = nil } }
            problems.append(error)
            return nil
        }
    }

    private static func open(_ path: String) -> Result<(BundleFile, UnsafePointer<widget_bundle_t>), LoadProblem> {
        let file: BundleFile
        switch BundleFile.inspect(path) {
        case .failure(let problem): return .failure(problem)
        case .success(let inspected): file = inspected
        }
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
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
