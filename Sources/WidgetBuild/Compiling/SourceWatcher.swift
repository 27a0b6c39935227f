import Glibc
import WidgetSupport

/// Waits for a save among an extension's files (`widgets build --watch`): inotify on the folders
/// they are in, which sees an editor's write in place and its write-and-rename alike. One inotify
/// descriptor serves the whole watch, so a save made while a build runs is queued, not lost: the
/// next wait returns it at once. A burst of events (a save that writes, renames and touches) counts
/// once: after the first, it waits until the folders have been quiet for `settle` milliseconds.
/// Editors' swap and backup files, and the bundle a build installs, are not saves.
public final class SourceWatcher {
    public var settle: Int32 = 150
    private let descriptor: Int32
    private var watches: [String: Int32] = [:]

    public init() throws(BuildError) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw BuildError("cannot watch the extension's files: inotify_init1: \(errnoText())") }
    }

    deinit { close(descriptor) }

    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)

    /// Watches these folders (and only these: one no longer named is dropped).
    public func watch(_ paths: [String]) throws(BuildError) {
        for (path, watch) in watches where !paths.contains(path) {
            inotify_rm_watch(descriptor, watch)
            watches[path] = nil
        }
        for path in paths where watches[path] == nil {
            let watch = inotify_add_watch(descriptor, path, Self.mask | UInt32(IN_ONLYDIR))
            if watch >= 0 { watches[path] = watch }
        }
        guard !watches.isEmpty else { throw BuildError("cannot watch the extension's files: none of its \(paths.count) folders can be watched: \(errnoText())") }
    }

    /// Blocks until a file in the watched folders changes (or has changed since the last wait);
    /// returns the names that changed.
    @discardableResult
    public func waitForChange() throws(BuildError) -> [String] {
        var changed: [String] = []
        var timeout: Int32 = -1
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let count = poll(&ready, 1, timeout)
            if count < 0 {
                if errno == EINTR { continue }
                throw BuildError("cannot watch the extension's files: poll: \(errnoText())")
            }
            if count == 0 { return changed }
            let names = readNames(descriptor).filter(Self.isSave)
            if !names.isEmpty {
                changed += names
                timeout = settle
            }
        }
    }

    private func readNames(_ descriptor: Int32) -> [String] {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        var names: [String] = []
        var offset = 0
        let header = 16
        buffer.withUnsafeBytes { raw in
            while offset + header <= count {
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let bytes = raw[(offset + header)..<min(count, offset + header + length)]
                names.append(String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self))
                offset += header + length
            }
        }
        return names
    }

    /// Whether a changed name is a file of the extension's, not an editor's scratch file.
    static func isSave(_ name: String) -> Bool {
        !(name.isEmpty || name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx") || name.hasPrefix("#")
            || name.hasSuffix(".tmp") || name == "4913" || name.hasSuffix(".widgetbundle"))
    }
}
