import CHostShims
import FoundationEssentials
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
        /// A directory of the search path that did not exist when watching began (a user's own
        /// `widgets.d`, made after the host started) exists now, and is watched: a `rescan` follows.
        case directoryAppeared(String)
    }

    private let descriptor: Int32
    private var stopPipe: [Int32] = [-1, -1]
    /// Guards `finished`: once the thread has closed its descriptors, `stop()` writes nowhere. The
    /// fields below are the watcher thread's alone once it runs, outside any lock, which is why the
    /// class is `@unchecked Sendable` and this is not a `Mutex` (it would not make the class Sendable).
    private let lock = Lock()
    private var finished = false
    /// Only the watcher's thread touches these once it runs.
    private var directories: [Int32: String] = [:]
    /// Ancestors watched for a missing directory's making (or a gone one's return): by watch, the
    /// name of the next path component looked for, and the directories it leads to.
    private var parents: [Int32: [String: Set<String>]] = [:]
    /// Every directory asked for, in order: a rescan looks at each that exists, watched or not.
    private let searchPath: [String]
    /// Directories that were never there when asked for (as against gone ones, which come `back`).
    private var neverSeen: Set<String> = []
    private static let directoryMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
    private let handler: @Sendable ([Change]) -> Void

    /// Starts watching `directories` (those that exist; a missing one is returned as such).
    /// `handler` gets each batch of changes, in order, on the watcher's thread.
    public init(directories paths: [String], handler: @escaping @Sendable ([Change]) -> Void) throws(ControlWatchError) {
        self.handler = handler
        searchPath = paths
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw ControlWatchError("cannot watch bundle directories: inotify_init1: \(errnoText())") }
        for path in paths {
            let watch = inotify_add_watch(descriptor, path, Self.directoryMask | UInt32(IN_ONLYDIR))
            if watch >= 0 {
                directories[watch] = path
            } else if errno == ENOENT {
                // Not made yet (a user's own directory): its nearest existing ancestor is watched
                // for it, step by step, and it is taken up once made.
                neverSeen.insert(path)
                let found = awaitAppearance(of: path)
                if found.back {
                    neverSeen.remove(path)
                } else if found.watching {
                    awaiting.append(path)
                } else {
                    unwatchable.append(
                        "cannot watch \(path) (it does not exist, and no directory above it can be watched); bundles installed there are taken up on SIGHUP or when the host restarts")
                }
            } else {
                unwatchable.append(
                    "cannot watch \(path): \(errnoText()); bundles installed there are taken up on SIGHUP or when the host restarts")
            }
        }
        guard host_pipe_cloexec(&stopPipe) == 0 else {
            close(descriptor)
            throw ControlWatchError("cannot watch bundle directories: pipe: \(errnoText())")
        }
        _ = watched
        startThread(named: "widgets.watch") { [self] in run() }
    }

    /// One line for each directory that could not be watched (missing, unreadable, or the inotify
    /// watch limit reached), naming it and the reason.
    public private(set) var unwatchable: [String] = []

    /// Directories of the search path that do not exist yet, watched for (through their nearest
    /// existing ancestor) as the watcher started.
    public private(set) var awaiting: [String] = []

    /// The directories being watched, as the watcher started.
    public private(set) lazy var watched: [String] = directories.values.sorted()

    public func stop() { post(1) }

    /// Has the watcher's thread look at every directory of the search path again, as though each
    /// had changed (`.rescan` of each that exists, in order, to the handler; one not watched till
    /// now is watched from then on): `systemctl reload`'s SIGHUP.
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
                    handler(rescanAll())
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

    /// Every directory of the search path that exists, to be looked at again; one that is not
    /// watched (made, or back, with no event seen) is watched from now on.
    private func rescanAll() -> [Change] {
        var changes: [Change] = []
        let watchedNow = Set(directories.values)
        for path in searchPath {
            if watchedNow.contains(path) {
                changes.append(.rescan(path))
                continue
            }
            let watch = inotify_add_watch(descriptor, path, Self.directoryMask | UInt32(IN_ONLYDIR))
            guard watch >= 0 else { continue }
            directories[watch] = path
            changes += [appeared(path), .rescan(path)]
        }
        return changes
    }

    /// What a directory's being watched again is called: made for the first time, or back.
    private func appeared(_ directory: String) -> Change {
        neverSeen.remove(directory) != nil ? .directoryAppeared(directory) : .directoryBack(directory)
    }

    /// Watches the nearest existing ancestor of a missing directory for the next component on the
    /// way to it (`watching` false when none can be watched); when the directory itself exists by
    /// now (made while the watches were set), watches it instead (`back`).
    private func awaitAppearance(of directory: String) -> (watching: Bool, back: Bool) {
        var target = directory
        while target.count > 1 && target.hasSuffix("/") { target.removeLast() }
        var child = target
        while true {
            // It may exist by now: watched at once.
            var info = stat()
            if child == target, stat(target, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                let watch = inotify_add_watch(descriptor, directory, Self.directoryMask | UInt32(IN_ONLYDIR))
                guard watch >= 0 else { return (false, false) }
                directories[watch] = directory
                return (true, true)
            }
            let parent = child.pathDirectory
            let name = child.pathFileName
            guard !parent.isEmpty, !name.isEmpty, parent != child else { return (false, false) }
            // IN_MASK_ADD: the ancestor may be a watched directory too, whose events must go on.
            // Its own removal too: an ancestor removed and made again is waited for afresh.
            let watch = inotify_add_watch(
                descriptor, parent, UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_MASK_ADD))
            if watch >= 0 {
                parents[watch, default: [:]][name, default: []].insert(directory)
                // The next component may have been made before the watch was set.
                if stat(child, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                    parents[watch]?[name]?.remove(directory)
                    return awaitAppearance(of: directory)
                }
                return (true, false)
            }
            guard errno == ENOENT else { return (false, false) }
            child = parent
        }
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
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0, directories[watch] != nil || parents[watch] != nil {
                    let awaited = Set(parents.removeValue(forKey: watch)?.values.flatMap { $0 } ?? [])
                    inotify_rm_watch(descriptor, watch)
                    if let directory = directories.removeValue(forKey: watch) {
                        // Reported once: the watch is dropped (a moved directory would still be
                        // watched at its new place, under its old name) and it is waited for.
                        let (watching, back) = awaitAppearance(of: directory)
                        changes.append(.directoryGone(directory, watchedForReturn: watching))
                        if back { changes += [.directoryBack(directory), .rescan(directory)] }
                    }
                    // An ancestor watched for directories not there yet went: they are waited for
                    // through the nearest one left.
                    for directory in awaited.sorted() where !directories.values.contains(directory) {
                        if awaitAppearance(of: directory).back { changes += [appeared(directory), .rescan(directory)] }
                    }
                    continue
                }
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, let awaited = parents[watch]?[name] {
                    // A step on the way to each awaited directory (a directory, or a link to one: a
                    // link's event does not say): the next step is watched, or the directory itself
                    // once it is there.
                    parents[watch]?[name] = nil
                    for directory in awaited.sorted() where !directories.values.contains(directory) {
                        if awaitAppearance(of: directory).back { changes += [appeared(directory), .rescan(directory)] }
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
