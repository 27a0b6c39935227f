import Glibc
import WidgetSupport

/// Waits for a save among an extension's files (`widgets build --watch`): inotify on the folders
/// they are in, which sees an editor's write in place and its write-and-rename alike. A burst of
/// events (a save that writes, renames and touches) counts once: after the first, it waits until
/// the folders have been quiet for `settle`. Editors' swap and backup files are not saves.
public struct SourceWatcher {
    public let paths: [String]
    public var settle: Int32 = 150

    public init(paths: [String]) { self.paths = paths }

    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)

    /// Blocks until a file in the folders changes; returns the names that changed.
    @discardableResult
    public func waitForChange() throws(BuildError) -> [String] {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw BuildError("cannot watch the extension's files: inotify_init1: \(errnoText())") }
        defer { close(descriptor) }
        var watched = 0
        for path in paths where inotify_add_watch(descriptor, path, Self.mask | UInt32(IN_ONLYDIR)) >= 0 { watched += 1 }
        guard watched > 0 else { throw BuildError("cannot watch the extension's files: none of its \(paths.count) folders can be watched: \(errnoText())") }
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
            || name.hasSuffix(".tmp") || name == "4913")
    }
}
