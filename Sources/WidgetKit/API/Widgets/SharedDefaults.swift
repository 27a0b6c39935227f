public import Foundation
import Glibc
import WidgetWire

/// Defaults an app and its widgets share, as `UserDefaults(suiteName: "group.…")` does on iOS: a
/// property list of small values in the App Group container, safe to use from several processes at
/// once.
///
/// Linux's Foundation keeps `UserDefaults` in a per-process cache written back at times of its
/// choosing, so two processes lose each other's changes. Here every change is a read-modify-write
/// under an exclusive `flock`, saved through a temporary file and a rename; every read reads the
/// file's latest complete state. Port by changing the type name:
///
///     let defaults = SharedDefaults(suiteName: "group.org.example.app")   // was UserDefaults(suiteName:)
///
/// Values: `String`, `Int`, `Double`, `Bool`, `Date`, `Data`, `URL`, and arrays and dictionaries
/// (with `String` keys) of these, as property lists allow. Setting another type is a programming
/// error, as on iOS (it traps, naming the key).
public final class SharedDefaults: @unchecked Sendable {
    public let suiteName: String
    /// The file holding the values: `<container>/Library/Preferences/<suiteName>.json`.
    public let fileURL: URL
    private let lock = NSLock()

    /// Nil for a suite name that cannot name an App Group container (empty, containing `/`), as
    /// `containerURL(forSecurityApplicationGroupIdentifier:)` returns nil for it.
    public convenience init?(suiteName: String?) {
        guard let suiteName, let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: suiteName) else {
            return nil
        }
        self.init(suiteName: suiteName, container: container)
    }

    /// Defaults kept in a given container directory (for tests and hosts that place containers).
    init?(suiteName: String, container: URL) {
        let directory = container.appendingPathComponent("Library/Preferences", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return nil
        }
        self.suiteName = suiteName
        fileURL = directory.appendingPathComponent("\(suiteName).json")
    }

    // MARK: Reading

    public func object(forKey key: String) -> Any? { value(key).map(Self.object) }
    public func string(forKey key: String) -> String? { value(key)?.stringValue }
    public func integer(forKey key: String) -> Int { value(key)?.numberValue.map { Int(exactly: $0.rounded(.towardZero)) ?? 0 } ?? 0 }
    public func double(forKey key: String) -> Double { value(key)?.numberValue ?? 0 }
    public func float(forKey key: String) -> Float { Float(double(forKey: key)) }
    public func bool(forKey key: String) -> Bool {
        switch value(key) {
        case .bool(let flag)?: flag
        case .number(let number)?: number != 0
        case .string(let text)?: ["yes", "true", "1"].contains(text.lowercased())
        default: false
        }
    }
    public func data(forKey key: String) -> Data? { object(forKey: key) as? Data }
    public func url(forKey key: String) -> URL? { object(forKey: key) as? URL }
    public func array(forKey key: String) -> [Any]? { object(forKey: key) as? [Any] }
    public func stringArray(forKey key: String) -> [String]? { array(forKey: key)?.compactMap { $0 as? String } }
    public func dictionary(forKey key: String) -> [String: Any]? { object(forKey: key) as? [String: Any] }

    /// Every key and value.
    public func dictionaryRepresentation() -> [String: Any] {
        refresh().mapValues(Self.object)
    }

    // MARK: Writing

    /// Sets `value` for `key`; nil removes the key.
    public func set(_ value: Any?, forKey key: String) {
        guard let value else { return removeObject(forKey: key) }
        guard let encoded = Self.encode(value) else {
            preconditionFailure("SharedDefaults: attempt to set a non-property-list value \(type(of: value)) for key \(key)")
        }
        change { $0[key] = encoded }
    }

    public func set(_ value: Int, forKey key: String) { set(value as Any, forKey: key) }
    public func set(_ value: Double, forKey key: String) { set(value as Any, forKey: key) }
    public func set(_ value: Bool, forKey key: String) { set(value as Any, forKey: key) }
    public func set(_ url: URL?, forKey key: String) { set(url as Any?, forKey: key) }

    public func removeObject(forKey key: String) {
        change { $0[key] = nil }
    }

    /// Kept for ported code: every change is already on disk when `set` returns.
    @discardableResult
    public func synchronize() -> Bool { true }

    // MARK: The file

    private func value(_ key: String) -> JSONValue? { refresh()[key] }

    /// The values as the file holds them now. Read whole each time: defaults are small, and no
    /// file stamp (inode, size, mtime) tells versions apart reliably when inodes are reused within
    /// the clock's granularity.
    private func refresh() -> [String: JSONValue] {
        lock.withLock { withFileLock(LOCK_SH) { read() } ?? read() }
    }

    /// Read-modify-write under the exclusive lock: another process's changes to other keys survive.
    /// Without the lock no change is made, and the reason is printed.
    private func change(_ body: (inout [String: JSONValue]) -> Void) {
        lock.withLock {
            let done: Bool? = withFileLock(LOCK_EX) {
                var values = read()
                body(&values)
                return write(values)
            }
            switch done {
            case nil:
                report("cannot lock \(fileURL.path).lock (\(String(cString: strerror(errno)))); the change was not saved")
            case false?:
                report("cannot write \(fileURL.path) (\(String(cString: strerror(errno)))); the change was not saved")
            case true?:
                break
            }
        }
    }

    /// Runs `body` holding `flock(operation)` on the lock file; nil when the lock cannot be had.
    private func withFileLock<T>(_ operation: Int32, _ body: () -> T) -> T? {
        let descriptor = open(fileURL.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        while flock(descriptor, operation) != 0 {
            guard errno == EINTR else { return nil }
        }
        return body()
    }

    private func report(_ message: String) {
        FileHandle.standardError.write(Data("SharedDefaults: \(message)\n".utf8))
    }

    /// The file's values; an unreadable or corrupt file is moved aside (never silently emptied
    /// over) and reads as empty.
    private func read() -> [String: JSONValue] {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return [:] }
        guard let parsed = try? JSONValue.parse(Array(data)), let object = parsed.objectValue else {
            let aside = fileURL.path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            rename(fileURL.path, aside)
            FileHandle.standardError.write(Data("SharedDefaults: \(fileURL.path) was not valid; moved to \(aside)\n".utf8))
            return [:]
        }
        return Dictionary(object.members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Saves through a temporary file, fsync and rename; false (the file unchanged) on failure.
    private func write(_ values: [String: JSONValue]) -> Bool {
        let text = JSONValue.object(JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })).jsonText
        let temporary = fileURL.path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let written = Array(text.utf8).withUnsafeBytes { bytes in
            writeAll(bytes) { Glibc.write(descriptor, $0.baseAddress, $0.count) } == nil
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written, synced, rename(temporary, fileURL.path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    // MARK: Values

    /// Property-list values as JSON; dates, data and URLs tagged, so they read back as themselves.
    static func encode(_ value: Any) -> JSONValue? {
        switch value {
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .number(Double(number))
        case let number as Double: return .number(number)
        case let number as Float: return .number(Double(number))
        case let text as String: return .string(text)
        case let date as Date: return .object(JSONObject([("$date", .number(date.timeIntervalSince1970))]))
        case let data as Data: return .object(JSONObject([("$data", .string(data.base64EncodedString()))]))
        case let url as URL: return .object(JSONObject([("$url", .string(url.absoluteString))]))
        case let array as [Any]:
            var items: [JSONValue] = []
            for item in array {
                guard let encoded = encode(item) else { return nil }
                items.append(encoded)
            }
            return .array(items)
        case let dictionary as [String: Any]:
            var members: [(key: String, value: JSONValue)] = []
            for (key, item) in dictionary.sorted(by: { $0.key < $1.key }) {
                guard let encoded = encode(item) else { return nil }
                members.append((key, encoded))
            }
            return .object(JSONObject(members))
        default: return nil
        }
    }

    static func object(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .number(let number): return number.rounded() == number && abs(number) < 1e15 ? Int(number) as Any : number
        case .string(let text): return text
        case .array(let items): return items.map(object)
        case .object(let members):
            if members.members.count == 1, let only = members.members.first {
                switch (only.key, only.value) {
                case ("$date", .number(let seconds)): return Date(timeIntervalSince1970: seconds)
                case ("$data", .string(let text)): if let data = Data(base64Encoded: text) { return data }
                case ("$url", .string(let text)): if let url = URL(string: text) { return url }
                default: break
                }
            }
            return Dictionary(members.members.map { ($0.key, object($0.value)) }, uniquingKeysWith: { _, last in last })
        }
    }
}
