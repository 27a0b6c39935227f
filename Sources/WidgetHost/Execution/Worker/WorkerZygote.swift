import CHostShims
import CMemoryGuard
import FoundationEssentials
import Glibc
import Synchronization
import WidgetSupport
import WidgetWire

/// The worker zygote: one process of the worker executable that has the Swift runtime, Foundation
/// and FoundationNetworking (with the libraries it brings: curl, TLS...) loaded, relocated and
/// initialized, and forks every bundle's worker from itself, as Android's zygote and Chromium's do.
/// A worker then starts in a fork and its bundle's `dlopen` instead of an exec and the loading of
/// some forty libraries, and the pages the runtime wrote while loading are shared copy-on-write by
/// every worker instead of written again in each.
///
/// What a worker forked so still has of its own, as a spawned one does (docs/ISOLATION.md): a session
/// and process group it leads; default signal handling and no signal blocked; /dev/null, its output,
/// its channel and its memory report as descriptors 0 to 4, nothing else open (the zygote's channel
/// to the host included); its own memory guard limits and kernel limit, set as it loads, over
/// counters that start from what it holds; its command line (as `ps` shows it) naming its bundle.
/// What it shares with its siblings: the runtime's layout in memory, and the hash seed the Swift
/// runtime chose when the zygote started (tables built before the fork depend on it, so it cannot be
/// chosen again); a bundle learns nothing of a sibling by it but the runtime's addresses. The bundle
/// itself, its libraries, thread stacks and heap arenas are mapped below a reservation of random
/// length made in each child (see zygote.c), so they lie at different addresses in each worker. Randomness (`SystemRandomNumberGenerator`,
/// UUIDs) comes from the kernel at each call, never from state copied from the zygote. The allocator's
/// state is the zygote's at the fork: its free lists, which hold nothing of any bundle.
///
/// The zygote is the workers' parent, so it reaps them, but only when the host asks: a worker that
/// ends stays a zombie, holding its pid and its group's id, until the host has ended what it forked
/// and takes its status (the same order as a spawned worker's). It forks on a thread that never ran
/// Swift or Dispatch code (see zygote.c), with no other thread but its idle main thread.
///
/// A zygote that ends is started again at the next worker's start; one that cannot be had (the
/// executable refuses the zygote's argument, the kernel has no pidfd, three starts failed in a row)
/// leaves the host spawning each worker, as it did before, which it says once in its log.
final class WorkerZygote: @unchecked Sendable {
    /// What follows `WidgetWorker.flag` to make a worker executable a zygote.
    static let argument = "--zygote"
    /// Room for a forked worker's command line (see `host_set_process_title`).
    static let titleRoom = String(repeating: " ", count: 1024)
    /// Set to `off` in the host's environment, workers are spawned, never forked.
    static let switchVariable = "WIDGETS_ZYGOTE"

    let executable: String
    let environment: [String: String]
    private let lock = Lock()
    private var process: (pid: pid_t, channel: Int32)?
    private var failedStarts = 0
    private var toldFallback = false

    private init(executable: String, environment: [String: String]) {
        self.executable = executable
        self.environment = environment
    }

    private static let zygotes = Mutex<[String: WorkerZygote]>([:])

    /// The zygote of `executable` with `environment` over the host's own, started when first used;
    /// nil where workers are spawned (`WIDGETS_ZYGOTE=off`, or no pidfd in this kernel).
    static func shared(executable: String, environment: [String: String]) -> WorkerZygote? {
        guard ProcessInfo.processInfo.environment[switchVariable] != "off", hasProcessDescriptors else { return nil }
        let key = ([executable] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: "\u{0}")
        return zygotes.withLock { zygotes in
            if let zygote = zygotes[key] { return zygote }
            let zygote = WorkerZygote(executable: executable, environment: environment)
            zygotes[key] = zygote
            return zygote
        }
    }

    /// Whether this kernel gives pidfds, by which the host sees a forked worker end (it is not the
    /// host's child).
    private static let hasProcessDescriptors: Bool = {
        let descriptor = host_pidfd_open(getpid())
        guard descriptor >= 0 else { return false }
        Glibc.close(descriptor)
        return true
    }()

    // MARK: The host's side

    /// Whether the zygote runs, started now if it does not (and may be).
    func isRunning() -> Bool {
        lock.withLock { runningProcess() != nil }
    }

    /// Forks a worker with `arguments` (starting with `WidgetWorker.flag`) and the three descriptors
    /// (channel, output, memory report), which stay the caller's to close. Nil when the zygote could
    /// not: the caller spawns the worker itself, with other descriptors (a zygote that ended or did
    /// not answer is ended by `settle`, and started again for the next worker).
    func fork(arguments: [String], descriptors: [Int32]) -> pid_t? {
        lock.withLock {
            guard let process else { return nil }
            let body = Array("S".utf8) + Array((arguments.joined(separator: "\u{0}")).utf8)
            switch ask(process.channel, body, descriptors: descriptors) {
            case .answer(UInt8(ascii: "P"), let value) where value > 0:
                return pid_t(value)
            case .answer(UInt8(ascii: "P"), let value):
                HostLog.warning("the worker zygote could not fork a worker: \(errnoText(-value)); it is spawned instead")
            case .answer(_, let value):
                HostLog.warning("the worker zygote refused to fork a worker (\(errnoText(value))); it is spawned instead")
            case .ended:
                failure = "it ended"
            case .silent:
                failure = "it did not answer a request to fork a worker within 2 s"
            }
            return nil
        }
    }

    /// Why the zygote failed the last request, until `settle` ends it.
    private var failure: String?

    /// Ends a zygote that ended or did not answer (it is started again for the next worker).
    func settle() {
        lock.withLock {
            guard let reason = failure else { return }
            failure = nil
            endProcess(because: reason)
        }
    }

    /// Reaps a worker this zygote forked, which has ended (its pidfd said so): its wait status, or
    /// nil when the zygote could not say (it ended meanwhile, and with it the worker's parent).
    func reap(_ pid: pid_t) -> Int32? {
        lock.withLock {
            guard let process else { return nil }
            var body = Array("R".utf8)
            withUnsafeBytes(of: Int32(pid)) { body += $0 }
            switch ask(process.channel, body, descriptors: []) {
            case .answer(UInt8(ascii: "W"), let status): return status
            case .answer: return nil  // not its child (any more)
            case .ended: endProcess(because: "it ended")
            case .silent: endProcess(because: "it did not answer a request to reap a worker within 2 s")
            }
            return nil
        }
    }

    /// The zygote, started if none runs. Called with the lock held.
    private func runningProcess() -> (pid: pid_t, channel: Int32)? {
        if let process {
            // Its end of the channel closed: it ended (killed, or out of memory) since last asked.
            var channel = pollfd(fd: process.channel, events: 0, revents: 0)
            guard poll(&channel, 1, 0) > 0 else { return process }
            endProcess(because: "it ended")
        }
        guard failedStarts < 3 else { return nil }
        do throws(ChannelError) {
            process = try start()
            failedStarts = 0
        } catch {
            failedStarts += 1
            if failedStarts == 3 && !toldFallback {
                toldFallback = true
                HostLog.warning("the worker zygote could not be started (\(error)); workers are spawned each on its own")
            }
        }
        return process
    }

    /// What the zygote made of a request.
    private enum Reply {
        case answer(UInt8, Int32)
        /// Its end of the channel is closed: it ended.
        case ended
        /// No answer within two seconds.
        case silent
    }

    /// Sends one request and waits up to two seconds for its answer: a kind and an int32.
    private func ask(_ channel: Int32, _ body: [UInt8], descriptors: [Int32]) -> Reply {
        var sent = -1
        var error: Int32 = 0
        body.withUnsafeBytes { bytes in
            var part = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
            let controlLength = descriptors.isEmpty ? 0 : Int(host_cmsg_space(Int32(descriptors.count)))
            var control = [UInt8](repeating: 0, count: max(1, controlLength))
            control.withUnsafeMutableBytes { controlBytes in
                var message = msghdr()
                withUnsafeMutablePointer(to: &part) { partPointer in
                    message.msg_iov = partPointer
                    message.msg_iovlen = 1
                    if !descriptors.isEmpty {
                        message.msg_control = controlBytes.baseAddress
                        message.msg_controllen = controlLength
                        descriptors.withUnsafeBufferPointer { host_cmsg_put_rights(controlBytes.baseAddress, $0.baseAddress, Int32($0.count)) }
                    }
                    repeat { sent = sendmsg(channel, &message, Int32(MSG_NOSIGNAL)) } while sent < 0 && errno == EINTR
                    error = errno
                }
            }
        }
        guard sent == body.count else { return error == EPIPE || error == ECONNRESET ? .ended : .silent }
        var ready = pollfd(fd: channel, events: Int16(POLLIN), revents: 0)
        var waited = 0
        while true {
            let result = poll(&ready, 1, 100)
            if result > 0 { break }
            if result < 0 && errno != EINTR { return .ended }
            waited += 100
            if waited >= 2000 { return .silent }
        }
        var answer = [UInt8](repeating: 0, count: 8)
        var count = -1
        repeat { count = answer.withUnsafeMutableBytes { recv(channel, $0.baseAddress, $0.count, 0) } } while count < 0 && errno == EINTR
        guard count == 5 else { return .ended }
        return .answer(answer[0], answer[1..<5].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) })
    }

    /// Starts the zygote: the worker executable with the zygote's argument, its channel (a
    /// SOCK_SEQPACKET socket, which keeps each request whole with its descriptors) on descriptor 3.
    private func start() throws(ChannelError) -> (pid: pid_t, channel: Int32) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .system("cannot create a socket pair: \(errnoText())")
        }
        let theirs = WorkerProcess.raised(pair[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, theirs, WidgetWorker.channelDescriptor)
        _ = host_spawn_add_closefrom(&actions, WidgetWorker.channelDescriptor + 1)
        let (status, pid) = WorkerProcess.spawn(
            [executable, WidgetWorker.flag, Self.argument, Self.titleRoom], actions: &actions, extra: self.environment)
        // Only the zygote holds its end now: if it ends, the channel says so at once.
        Glibc.close(theirs)
        guard status == 0 else {
            Glibc.close(pair[0])
            throw .system("cannot start \(executable): \(errnoText(status))")
        }
        // Ready once it says so (it has loaded what it shares): an executable that is no zygote ends instead.
        var ready = pollfd(fd: pair[0], events: Int16(POLLIN), revents: 0)
        var answer = [UInt8](repeating: 0, count: 8)
        let count = poll(&ready, 1, 10_000) > 0 ? answer.withUnsafeMutableBytes { recv(pair[0], $0.baseAddress, $0.count, 0) } : -1
        guard count == 5, answer[0] == UInt8(ascii: "Z") else {
            Glibc.kill(pid, SIGKILL)
            reapZygote(pid)
            Glibc.close(pair[0])
            throw .system("\(executable) did not start as a worker zygote")
        }
        return (pid, pair[0])
    }

    /// Ends the zygote (its workers live on, reparented). Called with the lock held.
    private func endProcess(because reason: String) {
        guard let process else { return }
        HostLog.warning("the worker zygote (pid \(process.pid)) is gone: \(reason); it is started again for the next worker")
        Glibc.kill(process.pid, SIGKILL)
        Glibc.close(process.channel)
        reapZygote(process.pid)
        self.process = nil
    }

    private func reapZygote(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        Orphans.didReap(pid)
    }

    // MARK: The zygote's side

    /// Runs this process as the zygote and never returns: loads what workers share, says it is
    /// ready, and serves the host until it closes the channel.
    static func main() -> Never {
        let channel = WidgetWorker.channelDescriptor
        guard fcntl(channel, F_GETFD) >= 0 else {
            writeWhole("widgets worker: no channel on descriptor 3; a zygote is started by a host\n")
            exit(2)
        }
        _ = fcntl(channel, F_SETFD, FD_CLOEXEC)
        // A forked worker serves its main queue through Foundation's run loop, which only an
        // executable linked with Foundation lends (`WorkerFoundation`); without it, no zygote: the
        // host spawns each worker, whose main thread serves the main queue in dispatchMain.
        guard WidgetWorker.foundation != nil else { exit(3) }
        preload()
        // Forked from a process with other threads, a child would find their locks held for ever;
        // with descriptors a library opened, it would find them closed under it (closefrom). The
        // rehearsal starts no thread; one a library started and ended may take a moment to be gone.
        var waited = 0
        while host_thread_count() > 1, waited < 1000 {
            usleep(1000)
            waited += 1
        }
        guard host_thread_count() == 1, host_descriptors_above(channel) == 0 else { exit(3) }
        var ready: [UInt8] = [UInt8(ascii: "Z"), 0, 0, 0, 0]
        guard send(channel, &ready, ready.count, Int32(MSG_NOSIGNAL)) == ready.count else { exit(0) }
        exit(host_zygote_serve(channel, { body, length in WorkerZygote.becomeWorker(body, Int(length)) }) == 0 ? 0 : 4)
    }

    /// What every worker would load and initialize itself: FoundationNetworking and its libraries,
    /// and Observation (each Swift bundle links both through the SDK), and what the executable's
    /// Foundation warms.
    private static func preload() {
        _ = host_preload_beside_foundation("libFoundationNetworking.so")
        _ = host_preload_beside_foundation("libswiftObservation.so")
        WidgetWorker.foundation?.warmUp()
        rehearseWorkerStart()
    }

    /// The arguments of a fork request's body: separated by zero bytes.
    private static func workerArguments(_ bytes: UnsafeRawBufferPointer) -> [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// What every worker does, done once here with nothing loaded, so that the type metadata and
    /// caches it makes (a generic type's metadata is made from its mangled name, and a conformance
    /// found, by a search of every loaded library) are each forked worker's already: reading its
    /// arguments, as a request's body and as options; the clock's timers; the loader's bookkeeping
    /// and its checks of a path; a registry and its load of a file; the first message. Nothing of
    /// it is kept: no thread, no descriptor, and what a worker sets from its own arguments (the
    /// result limit) it sets again. (Loading a bundle empties the runtime's conformance cache, so
    /// what this warms is chiefly the metadata each call site keeps: docs/ISOLATION.md.)
    private static func rehearseWorkerStart() {
        let options = WidgetWorker.Options(bundlePath: "/rehearsal.so", memoryLimit: 1 << 20, deadlines: .default, now: Date())
        let body = Array(options.arguments.joined(separator: "\u{0}").utf8)
        let arguments = body.withUnsafeBytes { workerArguments($0) }
        _ = WidgetWorker.Options(arguments: arguments)
        let clock = ManualClock(now: options.now)
        clock.schedule(at: options.now.addingTimeInterval(60)) {}.cancel()
        let watch = LoaderWatch()
        let loader = watch.addLoader()
        watch.initializing(loader)
        watch.initialized(loader)
        if case .success(let file) = BundleFile.open("/nonexistent/rehearsal.so") { file.close() }
        // A file that is there: the checks of its directories, its descriptor, its ELF header.
        if case .success(let file) = BundleFile.open(SwiftRuntime.executable) { file.close() }
        // The registry a worker makes, and its load of a file (one that is not there: refused
        // before anything is opened), on this thread as a worker's is.
        let registry = WidgetRegistry(clock: clock, deadlines: options.deadlines, memoryLimit: options.memoryLimit)
        registry.loadsOnCallingThread = true
        _ = registry.load(file: "/nonexistent/rehearsal.so")
        _ = WorkerHello(bundle: nil, widgets: [], problems: registry.problems).json
    }

    /// In a forked child: the worker's arguments, its title, then the worker itself.
    private static func becomeWorker(_ body: UnsafePointer<CChar>?, _ length: Int) -> Never {
        let arguments = workerArguments(body.map { UnsafeRawBufferPointer(start: $0, count: length) } ?? UnsafeRawBufferPointer(start: nil, count: 0))
        host_set_process_title(([SwiftRuntime.executable] + arguments).joined(separator: " "))
        // Its only thread is the zygote's forking thread, which the guard counted as one it
        // started: here it is the main thread, which a spawned worker's guard does not count.
        memory_guard_forked_child()
        WidgetWorker.forked = true
        WidgetWorker.main(arguments: arguments)
    }
}
