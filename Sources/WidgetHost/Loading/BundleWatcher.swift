import CHostShims
import Foundation
import Glibc
import WidgetSupport

/// Watches bundle directories with inotify and reports each `.so` file that appeared, changed or
/// went away, once it is complete: a file is reported when it is renamed into place or when the
/// program writing it closes it, never while it is being written.
///
/// One thread waits in `poll` on the inotify descriptor and a pipe that `stop()` writes to: idle,
/// it sleeps in the kernel.
public final class BundleWatcher: @unchecked Sendable {
    public enum Change: Equatable, Sendable {
        /// A file was written or renamed into place (it may be new, or replace a loaded one).
        case written(String)
        /// A file was deleted or renamed away.
        case removed(String)
        /// Events were lost (the kernel's queue overflowed): the directory must be looked at again.
        case rescan(String)
        /// The watched directory itself was removed or moved away. Its parent is watched for its
        /// return (`directoryBack`) when it can be; `watchedForReturn` says whether it is.
        case directoryGone(String, watchedForReturn: Bool)
        /// A directory that had gone is at its path again, and watched: what is in it must be
        /// looked at (a `rescan` follows).
        case directoryBack(String)
    }

    private let descriptor: Int32
    private var stopPipe: [Int32] = [-1, -1]
    /// Guards `finished`: once the thread has closed its descriptors, `stop()` writes nowhere. The
    /// fields below are the watcher thread's alone once it runs, outside any lock, which is why the
    /// class is `@unchecked Sendable` and this is not a `Mutex` (it would not make the class Sendable).
    private let lock = NSLock()
    private var finished = false
    /// Only the watcher's thread touches these once it runs.
    private var directories: [Int32: String] = [:]
    /// Parents watched for a gone directory's return: by watch, the names looked for.
    private var parents: [Int32: [String: String]] = [:]
    private static let directoryMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
    private let handler: @Sendable ([Change]) -> Void

    /// Starts watching `directories` (those that exist; a missing one is returned as such).
    /// `handler` gets each batch of changes, in order, on the watcher's thread.
    public init(directories paths: [String], handler: @escaping @Sendable ([Change]) -> Void) throws(ControlWatchError) {
        self.handler = handler
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw ControlWatchError("cannot watch bundle directories: inotify_init1: \(errnoText())") }
        for path in paths {
            let watch = inotify_add_watch(descriptor, path, Self.directoryMask | UInt32(IN_ONLYDIR))
            if watch >= 0 {
                directories[watch] = path
            } else {
                unwatchable.append(
                    "cannot watch \(path): \(errnoText()); bundles installed there are taken up only when the host restarts")
            }
        }
        guard host_pipe_cloexec(&stopPipe) == 0 else {
            close(descriptor)
            throw ControlWatchError("cannot watch bundle directories: pipe: \(errnoText())")
        }
        _ = watched
        let thread = Thread { [self] in run() }
        thread.name = "widgets.watch"
        thread.start()
    }

    /// One line for each directory that could not be watched (missing, unreadable, or the inotify
    /// watch limit reached), naming it and the reason.
    public private(set) var unwatchable: [String] = []

    /// The directories being watched, as the watcher started.
    public private(set) lazy var watched: [String] = directories.values.sorted()

    public func stop() { post(1) }

    /// Has the watcher's thread look at every watched directory again, as though each had changed
    /// (`.rescan` of each, in order, to the handler): `systemctl reload`'s SIGHUP.
    public func rescan() { post(2) }

    /// Wakes the watcher's thread: 1 to stop, 2 to rescan.
    private func post(_ command: UInt8) {
        lock.withLock {
            guard !finished else { return }
            var byte = command
            _ = write(stopPipe[1], &byte, 1)
        }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if descriptors[1].revents != 0 {
                var command: UInt8 = 1
                if read(stopPipe[0], &command, 1) == 1, command == 2 {
                    handler(watched.map(Change.rescan))
                    continue
                }
                break
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                break
            }
            let changes = parse(buffer, count: count)
            if !changes.isEmpty { handler(changes) }
        }
        lock.withLock {
            finished = true
            close(descriptor)
            close(stopPipe[0])
            close(stopPipe[1])
        }
    }

    /// Watches a gone directory's parent for its return (`watching` false when it cannot be), and
    /// watches the directory again if it is already back.
    private func awaitReturn(of directory: String) -> (watching: Bool, back: Bool) {
        let trimmed = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let parent = (trimmed as NSString).deletingLastPathComponent
        let name = (trimmed as NSString).lastPathComponent
        guard !parent.isEmpty, !name.isEmpty else { return (false, false) }
        // IN_MASK_ADD: the parent may be a watched directory too, whose events must go on.
        let watch = inotify_add_watch(descriptor, parent, UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR | IN_MASK_ADD))
        guard watch >= 0 else { return (false, false) }
        parents[watch, default: [:]][name] = directory
        // It may have come back before the watch was set.
        var info = stat()
        if stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            let again = inotify_add_watch(descriptor, directory, Self.directoryMask | UInt32(IN_ONLYDIR))
            if again >= 0 {
                parents[watch]?[name] = nil
                directories[again] = directory
                return (true, true)
            }
        }
        return (true, false)
    }

    private func parse(_ buffer: [UInt8], count: Int) -> [Change] {
        var changes: [Change] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        buffer.withUnsafeBytes { raw in
            while offset + header <= count {
                let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = raw[(offset + header)..<min(count, offset + header + length)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changes += directories.values.sorted().map(Change.rescan)
                    continue
                }
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0, let directory = directories[watch] {
                    // Reported once: the watch is dropped (a moved directory would still be watched
                    // at its new place, under its old name) and the parent waits for its return.
                    directories[watch] = nil
                    inotify_rm_watch(descriptor, watch)
                    let (watching, back) = awaitReturn(of: directory)
                    changes.append(.directoryGone(directory, watchedForReturn: watching))
                    if back { changes += [.directoryBack(directory), .rescan(directory)] }
                    continue
                }
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, mask & UInt32(IN_ISDIR) != 0, let directory = parents[watch]?[name] {
                    let again = inotify_add_watch(descriptor, directory, Self.directoryMask | UInt32(IN_ONLYDIR))
                    if again >= 0 {
                        parents[watch]?[name] = nil
                        directories[again] = directory
                        changes += [.directoryBack(directory), .rescan(directory)]
                    }
                    continue
                }
                guard let directory = directories[watch], BundleSearchPath.isBundleName(name) else { continue }
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
                    changes.append(.written(path))
                } else if mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 {
                    changes.append(.removed(path))
                }
            }
        }
        return changes
    }
}

/// Why the bundle directories cannot be watched.
public struct ControlWatchError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
