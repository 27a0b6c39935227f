import FoundationEssentials
import Glibc
import WidgetSupport
import WidgetWire

/// A placed widget: what a person added, in which family, configured how. Several instances of one
/// kind coexist, each with its own configuration (and, when hosted, its own timeline).
public struct WidgetInstance: Sendable, Equatable {
    public let id: String
    public let kind: String
    public var family: WidgetFamily
    /// Parameter values by name, in the schema's order; entities by identifier.
    public var configuration: JSONObject

    public init(id: String, kind: String, family: WidgetFamily, configuration: JSONObject) {
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
    }

    /// The configuration as the provider receives it.
    public var configurationText: String { JSONValue.object(configuration).jsonText }
}

/// What the state file holds.
public struct InstanceList: Sendable, Equatable {
    public var instances: [WidgetInstance] = []
    /// The number the next instance's id ends with; ids are never reused.
    var nextNumber = 1
    /// Names the history of saves this list belongs to: made when a list is started from nothing
    /// and kept by every save after. A running host that finds another has started the state
    /// afresh behind its back (the file set aside as corrupt, or deleted) writes back its own.
    /// Empty in a file saved before lineages were kept.
    public internal(set) var lineage = ""

    public func instance(id: String) -> WidgetInstance? { instances.first { $0.id == id } }

    /// The error for an id that names no instance, listing those there are.
    public func missing(id: String) -> StateError {
        let known = instances.map(\.id)
        return StateError(
            description: "no instance \"\(id)\"; "
                + (known.isEmpty ? "there are none ('widgets add KIND' adds one)" : "instances: \(known.joined(separator: ", "))"))
    }

    /// Puts back instances saved before, with their ids (a running host's, after the file was set
    /// aside); the next id stays above theirs.
    mutating func restore(_ restored: [WidgetInstance]) {
        instances += restored
        nextNumber = max(nextNumber, Self.number(after: restored))
    }

    /// The number after the highest an id of `instances` ends with (at most one past `largestNumber`).
    static func number(after instances: [WidgetInstance]) -> Int {
        let highest = instances.compactMap { $0.id.split(separator: "-").last.flatMap { Int($0) } }.max() ?? 0
        return min(highest, largestNumber) + 1
    }

    /// Moves instance `id` to `index` in the order (clamped to the list); the others keep theirs.
    public mutating func move(id: String, to index: Int) throws(StateError) {
        guard let from = instances.firstIndex(where: { $0.id == id }) else { throw missing(id: id) }
        let instance = instances.remove(at: from)
        instances.insert(instance, at: min(max(0, index), instances.count))
    }

    /// Puts the instances in the order of `ids`: each must name an instance; any not named keep
    /// their place after those named (an instance added meanwhile is not lost).
    public mutating func order(_ ids: [String]) throws(StateError) {
        var seen = Set<String>()
        for id in ids {
            guard instance(id: id) != nil else { throw missing(id: id) }
            guard seen.insert(id).inserted else { throw StateError(description: "instance \"\(id)\" is named twice in the order") }
        }
        let named = ids.compactMap(instance(id:))
        instances = named + instances.filter { !seen.contains($0.id) }
    }

    /// Writes `checked` (a whole configuration, checked against the widget) over instance `id`'s
    /// saved one: only the parameters in `assigned`, and those it lacks, are taken, so a change
    /// made meanwhile to another parameter is kept; parameters the widget no longer has are
    /// dropped. Returns the configuration saved.
    public mutating func configure(id: String, checked: JSONObject, assigned: Set<String>) throws(StateError) -> JSONObject {
        // Removed meanwhile by another command: say so rather than bring it back.
        guard let index = instances.firstIndex(where: { $0.id == id }) else {
            throw StateError(description: "instance \"\(id)\" was removed while being configured; nothing was changed")
        }
        var merged = instances[index].configuration
        for (name, value) in checked.members where assigned.contains(name) || merged[name] == nil { merged[name] = value }
        for name in merged.members.map(\.key) where checked[name] == nil { merged[name] = nil }
        instances[index].configuration = merged
        return merged
    }

    /// The largest number an id may end with: the largest integer a JSON number (a double) holds
    /// exactly, as the state file keeps the counter.
    public static let largestNumber = (1 << 53) - 1

    /// Adds an instance of `kind` with an id made from the kind's last component: `character-detail-3`.
    /// Fails, naming the counter, once ids have reached `largestNumber` (they are never reused).
    public mutating func add(kind: String, family: WidgetFamily, configuration: JSONObject) throws(StateError) -> WidgetInstance {
        guard nextNumber <= Self.largestNumber else {
            throw StateError(
                description: "no id is left: the next instance number, \(nextNumber), is beyond the largest (\(Self.largestNumber)); "
                    + "ids are never reused, so the counter (instances.next in the state directory) was set by hand: set it lower, above the ids in use")
        }
        let base = kind.split(separator: ".").last.map(String.init) ?? "widget"
        let instance = WidgetInstance(id: "\(base)-\(nextNumber)", kind: kind, family: family, configuration: configuration)
        nextNumber += 1
        instances.append(instance)
        return instance
    }
}

/// Why the instance state could not be read or written. One line, naming the file.
public struct StateError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// A well-formed file of a newer format: not corrupt, and left where it is.
    var isNewerFormat = false
    /// Where a corrupt file was kept, when it was moved aside.
    public internal(set) var setAsideAt: String?
    public init(description: String) { self.description = description }
}

/// The widget instances, persisted in one JSON file in the state directory
/// (`$XDG_STATE_HOME/widgets/instances.json`, or `--state-dir`).
///
/// Every change is a read-modify-write under an exclusive lock (`flock` on `instances.lock`), so two
/// commands at once never lose each other's changes. The file is replaced atomically: written to a
/// temporary file, flushed with fsync, renamed over the old one, and the directory flushed; a process
/// killed mid-write leaves the last saved state whole. A file that cannot be read is never treated as
/// empty: it is moved aside, kept, and reported.
public final class InstanceStore: Sendable {
    public let directory: URL
    public var fileURL: URL { directory.appendingPathComponent("instances.json") }
    private var lockURL: URL { directory.appendingPathComponent("instances.lock") }
    /// The number the next id ends with, kept apart from the state file so that ids do not repeat
    /// when the state is started afresh (the old file set aside as corrupt, or deleted).
    private var counterURL: URL { directory.appendingPathComponent("instances.next") }
    static let formatVersion = 1

    public init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_STATE_HOME/widgets`, else `~/.local/state/widgets`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        URL(fileURLWithPath: XDGBaseDirectory.stateHome(environment)).appendingPathComponent("widgets", isDirectory: true)
    }

    /// The saved instances (none when nothing was ever saved).
    public func load() throws(StateError) -> InstanceList {
        try withLock { () throws(StateError) in try read() }
    }

    /// Reads, lets `change` modify, and saves, all under the lock. Nothing is saved when `change` throws.
    @discardableResult
    public func update<T>(_ change: (inout InstanceList) throws(StateError) -> T) throws(StateError) -> T {
        try withLock { () throws(StateError) in
            var list = try read()
            let original = list
            let result = try change(&list)
            if list != original { try write(list) }
            return result
        }
    }

    // MARK: Reading and writing

    private func read() throws(StateError) -> InstanceList {
        let path = fileURL.path
        guard FileManager.default.fileExists(atPath: path) else {
            var list = InstanceList()
            list.lineage = Self.newLineage()
            list.nextNumber = max(1, storedCounter())
            return list
        }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw StateError(description: "cannot read the instance state \(path): \(error.explanation)")
        }
        do throws(StateError) {
            var list = try Self.decode(Array(data))
            list.nextNumber = max(list.nextNumber, storedCounter())
            return list
        } catch {
            if error.isNewerFormat {
                throw StateError(
                    description: "the instance state \(path) was written by a newer version of widgets (\(error)); it was left as it is, and nothing was changed")
            }
            // Kept aside, never silently replaced: the person may want it back. A name no earlier
            // copy has, even within the same second.
            let stamp = ISODate.text(Date()).replacing(":", with: "")
            var aside = path + ".corrupt-" + stamp
            var copy = 1
            while FileManager.default.fileExists(atPath: aside) {
                copy += 1
                aside = path + ".corrupt-" + stamp + "-\(copy)"
            }
            guard rename(path, aside) == 0 else {
                throw StateError(
                    description: "the instance state \(path) is corrupt (\(error)), and it cannot be moved aside: \(errnoText())")
            }
            var corrupt = StateError(
                description: "the instance state \(path) is corrupt (\(error)); it was kept as \(aside), and nothing was changed. Repair it and move it back, or run the command again to start with no instances")
            corrupt.setAsideAt = aside
            throw corrupt
        }
    }

    static func decode(_ bytes: [UInt8]) throws(StateError) -> InstanceList {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw StateError(description: "\(error)")
        }
        guard let version = document["version"]?.numberValue else { throw StateError(description: "no \"version\"") }
        guard version == Double(formatVersion) else {
            var error = StateError(description: "format version \(JSONValue.number(version).displayText) is not this host's \(formatVersion)")
            error.isNewerFormat = version > Double(formatVersion)
            throw error
        }
        guard let items = document["instances"]?.arrayValue else { throw StateError(description: "no \"instances\" array") }
        var list = InstanceList()
        list.lineage = document["lineage"]?.stringValue ?? ""
        for (index, item) in items.enumerated() {
            guard let id = item["id"]?.stringValue, let kind = item["kind"]?.stringValue,
                let family = item["family"]?.stringValue.flatMap(WidgetFamily.init(rawValue:)),
                let configuration = item["configuration"]?.objectValue
            else { throw StateError(description: "instance \(index + 1) lacks an id, kind, family or configuration") }
            guard list.instance(id: id) == nil else { throw StateError(description: "two instances have the id \"\(id)\"") }
            list.instances.append(WidgetInstance(id: id, kind: kind, family: family, configuration: configuration))
        }
        // Never below an id in use, whatever the file says: ids are not reused.
        let stored = document["nextNumber"]?.numberValue.flatMap { Int(exactly: min(max($0, 1), Double(InstanceList.largestNumber + 1))) } ?? 1
        list.nextNumber = max(stored, InstanceList.number(after: list.instances))
        return list
    }

    static func encode(_ list: InstanceList) -> [UInt8] {
        let document = JSONValue.object(
            JSONObject([
                ("version", .number(Double(formatVersion))), ("lineage", .string(list.lineage)),
                ("nextNumber", .number(Double(list.nextNumber))),
                (
                    "instances",
                    .array(
                        list.instances.map { instance in
                            .object(
                                JSONObject([
                                    ("id", .string(instance.id)), ("kind", .string(instance.kind)),
                                    ("family", .string(instance.family.rawValue)), ("configuration", .object(instance.configuration)),
                                ]))
                        })
                ),
            ]))
        return Array((document.jsonText + "\n").utf8)
    }

    /// A new lineage's name.
    static func newLineage() -> String { UUID().uuidString.lowercased() }

    /// The counter kept apart, 0 when there is none (or it cannot be read).
    /// The counter file's number, at most one past `largestNumber` (which `add` then refuses).
    private func storedCounter() -> Int {
        guard let text = try? String(contentsOf: counterURL, encoding: .utf8) else { return 0 }
        let digits = text.trimmingSpacesAndNewlines
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return 0 }
        return min(Int(digits) ?? .max, InstanceList.largestNumber + 1)
    }

    private func write(_ list: InstanceList) throws(StateError) {
        var list = list
        // A file saved before lineages were kept begins one now.
        if list.lineage.isEmpty { list.lineage = Self.newLineage() }
        let failpoint = ProcessInfo.processInfo.environment["WIDGETS_FAILPOINT"]
        try replace(fileURL, with: Self.encode(list), failpoint: failpoint)
        // After the state: a save that fails uses no number up. Reading takes the higher of both.
        if list.nextNumber > storedCounter() {
            try replace(counterURL, with: Array("\(list.nextNumber)\n".utf8), failpoint: nil)
        }
    }

    /// Saves another file of the host's state beside the instances (the Live Activities), as the
    /// instances are saved; the directory is made if missing.
    func save(_ bytes: [UInt8], as name: String) throws(StateError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StateError(description: "cannot create the state directory \(directory.path): \(error.explanation)")
        }
        try replace(directory.appendingPathComponent(name), with: bytes, failpoint: nil)
    }

    /// Replaces a file atomically and durably: written to a temporary file, flushed, renamed over
    /// the old one, and the directory flushed.
    private func replace(_ file: URL, with bytes: [UInt8], failpoint: String?) throws(StateError) {
        func fail(_ what: String, _ code: Int32 = errno) -> StateError {
            StateError(description: "cannot save \(file.lastPathComponent) in \(directory.path): \(what): \(errnoText(code))")
        }
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).tmp-\(getpid())").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw fail("creating \(temporary)") }
        // For the kill-during-save test: stop halfway through writing, until killed.
        let stopAt = failpoint == "save-mid-write" ? bytes.count / 2 : bytes.count
        if let code = bytes[..<stopAt].withUnsafeBytes({ bytes in writeAll(bytes) { Glibc.write(descriptor, $0.baseAddress, $0.count) } }) {
            let error = fail("writing \(temporary)", code)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        if failpoint == "save-mid-write" {
            fsync(descriptor)
            writeWhole("widgets: failpoint save-mid-write reached\n")
            while true { pause() }
        }
        guard fsync(descriptor) == 0 else {
            let error = fail("flushing \(temporary)")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, file.path) == 0 else {
            let error = fail("renaming \(temporary) to \(file.path)")
            unlink(temporary)
            throw error
        }
        // The rename itself is durable only once the directory is flushed.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private func withLock<T>(_ body: () throws(StateError) -> T) throws(StateError) -> T {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StateError(description: "cannot create the state directory \(directory.path): \(error.explanation)")
        }
        let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StateError(description: "cannot open the state lock \(lockURL.path): \(errnoText())")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw StateError(description: "cannot lock \(lockURL.path): \(errnoText())")
            }
        }
        // Under the lock, any temporary file is what a killed writer left: garbage.
        if let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) {
            for name in names where name.hasPrefix(".instances.json.tmp-") || name.hasPrefix(".instances.next.tmp-") {
                unlink(directory.appendingPathComponent(name).path)
            }
        }
        return try body()
    }
}
