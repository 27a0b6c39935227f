import FoundationEssentials
import Glibc
import Synchronization
import WidgetABI
import WidgetWire

/// What each bundle registered, kept between runs, as GStreamer keeps its registry: listing bundles
/// and starting the host read a bundle's registration from here instead of starting a worker to
/// load it, while the file is the one that was loaded. A worker starts for such a bundle at its
/// first request, as after a crash.
///
/// An entry is the file's path, device, inode, size and modification time, and what its worker said
/// (its hello: the bundle, its widgets, their schemas), or why it refused the bundle. A changed file
/// misses, and is loaded and recorded again. The whole cache is for one host: its release, ABI and
/// worker protocol; a cache of another, or one that cannot be read, is ignored and written afresh.
/// A file the cache knows is still checked on every run as rule 1 of docs/SECURITY.md says (owner,
/// mode, the directories above it), through `stat`: a mode can change without the modification
/// time. Its ELF header is read when a worker loads it, as any file's is.
///
/// Kept in `$XDG_CACHE_HOME/widgets/registry.json`, written whole to a temporary file and renamed.
public final class RegistryCache: Sendable {
    public let fileURL: URL
    private struct State {
        var entries: [String: JSONValue] = [:]
        var dirty = false
        var hits = 0
        var misses = 0
    }
    private let state: Mutex<State>

    /// Entries used, and files loaded for want of one, in this run: for the tests and `widgets list -v`.
    public var hits: Int { state.withLock { $0.hits } }
    public var misses: Int { state.withLock { $0.misses } }

    /// The host this cache is for: an entry of another host's cache is never read.
    static var hostKey: String {
        "widgets \(WidgetsRelease.version); ABI \(ABIVersion.current); worker protocol \(WorkerHello.protocolVersion)"
    }

    public static func defaultURL(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        URL(fileURLWithPath: XDGBaseDirectory.cacheHome(environment)).appendingPathComponent("widgets/registry.json")
    }

    /// Reads the cache at `url`; a missing, unreadable, corrupt or foreign one is an empty cache.
    public init(url: URL = RegistryCache.defaultURL()) {
        fileURL = url
        var state = State()
        // Parsed from the bytes as read: the parser checks that every string is UTF-8.
        if let bytes = readWhole(url.path), let root = try? JSONValue.parse(bytes), root["host"]?.stringValue == Self.hostKey,
            let bundles = root["bundles"]?.objectValue
        {
            state.entries.reserveCapacity(bundles.members.count)
            for (path, entry) in bundles.members { state.entries[path] = entry }
        }
        self.state = Mutex(state)
    }

    /// The file as the cache knows it: its device, inode, size and modification time.
    private static func identityFields(_ file: BundleFile) -> [(key: String, value: String)] {
        [("device", String(file.device)), ("inode", String(file.inode)), ("size", String(file.size)), ("modified", String(file.modified))]
    }

    private static func identity(_ file: BundleFile) -> JSONValue {
        .object(JSONObject(identityFields(file).map { ($0.key, .string($0.value)) }))
    }

    /// Whether an entry's identity is this file's, compared field by field.
    private static func isIdentity(_ recorded: JSONValue?, of file: BundleFile) -> Bool {
        guard let members = recorded?.objectValue?.members else { return false }
        let fields = identityFields(file)
        return members.count == fields.count && zip(members, fields).allSatisfy { $0.key == $1.key && $0.value.stringValue == $1.value }
    }

    /// What was recorded for this very file: its worker's hello, or why the worker refused it.
    func outcome(for file: BundleFile) -> Result<WorkerHello, WorkerSupervisor.StartFailure>? {
        let entry: JSONValue? = state.withLock { $0.entries[file.path] }
        guard let entry, Self.isIdentity(entry["file"], of: file) else {
            state.withLock { $0.misses += 1 }
            return nil
        }
        if let hello = entry["hello"]?.objectValue, let read = try? WorkerHello(json: hello, path: file.path), read.isCompatible {
            state.withLock { $0.hits += 1 }
            return .success(read)
        }
        if let failure = entry["failure"], let reason = failure["reason"]?.stringValue.flatMap(LoadProblem.Reason.init(rawValue:)),
            let message = failure["message"]?.stringValue
        {
            state.withLock { $0.hits += 1 }
            return .failure(WorkerSupervisor.StartFailure(reason: reason, description: message))
        }
        state.withLock { $0.misses += 1 }
        return nil
    }

    /// Records what a worker said of a file it loaded. A start that timed out or could not be made
    /// says nothing of the file, and is not recorded.
    func record(_ file: BundleFile, _ outcome: Result<WorkerHello, WorkerSupervisor.StartFailure>) {
        var entry: [(key: String, value: JSONValue)] = [("file", Self.identity(file))]
        switch outcome {
        case .success(let hello):
            entry.append(("hello", .object(hello.json)))
        case .failure(let failure):
            guard failure.reason == .crashed else { return forget(file.path) }
            entry.append(("failure", .object(JSONObject([("reason", .string(failure.reason.rawValue)), ("message", .string(failure.description))]))))
        }
        state.withLock {
            $0.entries[file.path] = .object(JSONObject(entry))
            $0.dirty = true
        }
    }

    /// Drops a path's entry (its file is gone, or said nothing worth keeping).
    func forget(_ path: String) {
        state.withLock {
            if $0.entries.removeValue(forKey: path) != nil { $0.dirty = true }
        }
    }

    /// Writes the cache if anything changed: a temporary file in its directory (made 0700), renamed
    /// over the old. A cache that cannot be written is no error: the next run loads the bundles.
    public func save() {
        let text: String? = state.withLock { state in
            guard state.dirty else { return nil }
            state.dirty = false
            let bundles = state.entries.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
            return JSONValue.object(JSONObject([("host", .string(Self.hostKey)), ("bundles", .object(JSONObject(bundles)))])).jsonText
        }
        guard let text else { return }
        let directory = fileURL.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".registry.\(getpid()).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary.path, fileURL.path) != 0 { unlink(temporary.path) }
    }
}
