import CHostShims
import CMemoryGuard
import Dispatch
import FoundationEssentials
import Glibc
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport
import WidgetWire

/// The worker side of process isolation: a host executable started with `--widgets-worker` loads one
/// bundle and serves its providers, each on its own queue under the memory guard, exactly as queue
/// mode does, and answers the host over the channel on descriptor 3.
///
/// The worker keeps no time of its own: its clock is a `ManualClock` that the host's messages move,
/// so the deadlines the worker enforces are the host's, on the host's clock (a test's virtual clock
/// included). The memory limit is enforced for real: an allocation that takes a provider over its
/// limit ends the worker on the spot (`memory_guard_exit_on_exceed`), reporting on descriptor 4.
///
/// Descriptors, as the host sets them up: 0 is /dev/null, 1 and 2 go to the host (which relays them
/// and keeps the last lines for a crash diagnosis), 3 is the channel, 4 the memory report pipe.
public enum WidgetWorker {
    /// The first argument that puts a host executable into worker mode.
    public static let flag = "--widgets-worker"

    static let channelDescriptor: Int32 = 3
    static let exceededDescriptor: Int32 = 4
    /// The status a worker exits with when the bundle closed its channel (descriptor 3) under it.
    static let channelClosedStatus: Int32 = 88

    /// What the host passes a worker on its command line.
    struct Options {
        var bundlePath: String
        var memoryLimit: Int64
        var deadlines: RequestDeadlines
        var now: Date

        var arguments: [String] {
            [
                WidgetWorker.flag, bundlePath, "--memory-limit", String(memoryLimit),
                "--deadlines",
                [deadlines.placeholder, deadlines.snapshot, deadlines.timeline].map { String($0.timeInterval) }.joined(separator: ","),
                "--now", String(now.timeIntervalSince1970), "--result-limit", String(ResultLimit.bytes),
            ]
        }

        init(bundlePath: String, memoryLimit: Int64, deadlines: RequestDeadlines, now: Date) {
            self.bundlePath = bundlePath
            self.memoryLimit = memoryLimit
            self.deadlines = deadlines
            self.now = now
        }

        init?(arguments: [String]) {
            guard arguments.count == 10, arguments[0] == WidgetWorker.flag, arguments[2] == "--memory-limit",
                arguments[4] == "--deadlines", arguments[6] == "--now", arguments[8] == "--result-limit",
                let limit = Int64(arguments[3]), let now = Double(arguments[7]), let resultLimit = Int(arguments[9])
            else { return nil }
            ResultLimit.bytes = resultLimit
            let seconds = arguments[5].split(separator: ",").compactMap { Double($0) }
            guard seconds.count == 3 else { return nil }
            bundlePath = arguments[1]
            memoryLimit = limit
            deadlines = RequestDeadlines(
                placeholder: .seconds(seconds[0]), snapshot: .seconds(seconds[1]), timeline: .seconds(seconds[2]))
            self.now = Date(timeIntervalSince1970: now)
        }
    }

    /// Runs this process as a worker and never returns. `arguments` starts with `flag`. A host
    /// executable calls it first thing when it sees the flag (the `widgets` CLI does), from its
    /// main thread and not from an async `main`: the main thread then serves the main queue.
    /// `foundation`: what the executable, linked with all of Foundation (as the bundles it loads
    /// are), lends the worker (this module is built on FoundationEssentials alone).
    public static func main(arguments: [String], foundation: WorkerFoundation? = nil) -> Never {
        if let foundation { Self.foundation = foundation }
        if arguments.count > 1 && arguments[1] == WorkerZygote.argument { WorkerZygote.main() }
        guard let options = Options(arguments: arguments) else {
            writeWhole("widgets worker: bad arguments: \(arguments.joined(separator: " "))\n")
            exit(2)
        }
        guard fcntl(channelDescriptor, F_GETFD) >= 0 else {
            writeWhole("widgets worker: no channel on descriptor 3; a worker is started by a host\n")
            exit(2)
        }
        // What the bundle starts stays in this process's tree, however it leaves its parent, and
        // ends with it (see Orphans).
        Orphans.adopt()
        // Children a bundle starts must not inherit the channel: the host learns of the worker's
        // end by the channel closing.
        for descriptor in [channelDescriptor, exceededDescriptor] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        if MemoryGuard.isActive {
            memory_guard_exit_on_exceed(exceededDescriptor)
            // Count the worker's memory from the start (its limit is set once its providers are known).
            memory_guard_set_worker_limits(Int64.max / 2, WorkerLimits.threads)
        }
        // Every line goes to the host, which relays it under its own threshold.
        HostLog.threshold = .debug
        let channel = WorkerChannel(descriptor: channelDescriptor)
        let clock = ManualClock(now: options.now)
        let registry = WidgetRegistry(clock: clock, deadlines: options.deadlines, memoryLimit: options.memoryLimit)
        registry.loadsOnCallingThread = true
        // A bundle with resources is this process's main bundle, as an extension is on iOS.
        if ResourceBundleLayout.isBundleDirectory(options.bundlePath) {
            host_set_main_bundle_executable(ResourceBundleLayout.executable(options.bundlePath))
        }
        let loaded = watchForTheHostsEnd(bundlePath: options.bundlePath)
        registry.load(file: options.bundlePath)
        loaded.withLock { $0 = true }
        WorkerLimits.apply(providers: registry.registrations.count, providerLimit: options.memoryLimit)
        channel.send(.hello(hello(registry).json))
        // The main thread serves the main queue and the main actor, as an app's does: providers
        // complete with `DispatchQueue.main.async { … }` and `Task { @MainActor in … }`. The host's
        // messages are read on a thread of their own.
        let readers = Readers(channel: channel, clock: clock, registry: registry, bundlePath: options.bundlePath)
        guard startThread(named: "widgets.worker.reader", { readers.read() }) != nil else {
            // Said in the log already; the host sees the worker end and reports it.
            exit(71)
        }
        if forked, let foundation = Self.foundation {
            // A worker forked on the zygote's thread (see WorkerZygote): Dispatch's fork handler
            // bound the main queue to this thread, but only the initial thread's exit in
            // dispatchMain hands the queue to Dispatch's threads. This thread serves it itself,
            // through the main run loop, as an app's main thread does.
            foundation.runMainRunLoop()
        }
        dispatchMain()
    }

    /// Ends the worker, and its process group, should the host end while the bundle loads: nothing
    /// reads the channel until the load is done, and the load's deadline is kept by the host (the
    /// worker's clock is the host's), so a bundle hanging in its load would otherwise keep a worker
    /// whose host has crashed for ever. A thread looks every `hostWatchInterval` ms whether the host
    /// has hung up (without reading, so no message is taken from the reader to come) until the
    /// returned flag is set. A bundle that closes descriptor 3 meanwhile ends the watch; the reader
    /// finds that out (see `Readers.receive`).
    private static func watchForTheHostsEnd(bundlePath: String) -> Locked<Bool> {
        let loaded = Locked(false)
        let started = startThread(named: "widgets.host-watch") {
            while !loaded.withLock({ $0 }) {
                var watched = pollfd(fd: channelDescriptor, events: Int16(peerClosed), revents: 0)
                guard poll(&watched, 1, hostWatchInterval) >= 0 || errno == EINTR else { return }
                if Int32(watched.revents) & POLLNVAL != 0 { return }
                if Int32(watched.revents) & (peerClosed | POLLHUP | POLLERR) != 0, !loaded.withLock({ $0 }) {
                    fflush(nil)
                    host_end_own_group()
                }
            }
        }
        if started == nil { HostLog.warning("worker for \(bundlePath): no thread to watch for the host's end while it loads") }
        return loaded
    }

    private static let hostWatchInterval: Int32 = 250
    /// POLLRDHUP, the peer's close of a stream socket (Linux; glibc declares it only with _GNU_SOURCE).
    private static let peerClosed: Int32 = 0x2000

    /// Set once, by `main`, before any other thread runs.
    nonisolated(unsafe) static var foundation: WorkerFoundation?

    /// Set by the zygote in a worker it forked, before `main`.
    nonisolated(unsafe) static var forked = false

    /// What the worker loaded, for its host.
    private static func hello(_ registry: WidgetRegistry) -> WorkerHello {
        let bundle = registry.bundles.first
        let backend = bundle?.backend as? InProcessBackend
        return WorkerHello(
            bundle: bundle?.description,
            widgets: registry.registrations.map { WorkerHello.Widget(declaration: $0.declaration, slot: backend?.memorySlot(kind: $0.kind) ?? 0) },
            problems: registry.problems)
    }

    /// Serves one of the host's requests on its provider's queue, on this thread when the queue is
    /// idle, and sends the answer: the provider's bytes as it gave them (the host checks them, as it
    /// checks any bundle's answer, so they are not decoded here), or the error the host's check
    /// would give, with the provider's memory as the call left it.
    static func serve(_ request: WorkerRequest, registry: WidgetRegistry, reply send: @escaping @Sendable (WorkerAnswer) -> Void) {
        let configuration = String(decoding: request.configuration, as: UTF8.self)
        let call: ProviderCall
        do throws(RequestError) {
            call = try registry.call(
                request.kind, kind: request.widget, family: request.family, isPreview: request.isPreview,
                configuration: configuration.isEmpty ? "{}" : configuration, parameter: request.parameter, environment: request.environment)
        } catch {
            return send(WorkerAnswer(id: request.id, outcome: .error(error.reason, error.message), stuck: false, liveBytes: nil, peakBytes: nil))
        }
        guard let backend = call.widget.bundle.backend as? InProcessBackend else { preconditionFailure("a worker loads in process") }
        backend.submit(
            call, due: request.due, hereIfIdle: true,
            completion: { (result: Result<[UInt8], RequestError>) in
                let statistics = backend.statistics(kind: call.kind)
                let outcome: WorkerAnswer.Outcome
                switch result {
                case .success(let bytes): outcome = .result(bytes)
                case .failure(let error): outcome = .error(error.reason, error.message)
                }
                // A call still inside the bundle after its deadline can only be ended with the
                // process; the provider's memory after the call is for the host's statistics.
                send(
                    WorkerAnswer(
                        id: request.id, outcome: outcome, stuck: statistics.stuckCalls > 0, liveBytes: statistics.liveBytes,
                        peakBytes: statistics.peakBytes))
            },
            finish: { outcome throws(RequestError) in try ResultValidation.answeredBytes(outcome, for: call) })
    }
}

/// The bounds of a worker as a whole, beyond each provider's memory limit: its memory (everything
/// the guard counts: every provider's, the bundle's own threads' and what it maps, and the
/// runtime's), its threads, and under both a kernel limit.
enum WorkerLimits {
    /// The most threads a worker may run (its runtime runs about ten).
    static let threads: Int64 = 128
    /// Memory a worker may hold beyond its providers' limits and what it held once loaded.
    static let slack: Int64 = 32 << 20
    /// Each thread's stack, as the kernel counts it toward RLIMIT_DATA.
    static let stack: Int64 = 8 << 20

    /// Sets the guard's limits for the whole worker, and the kernel's (RLIMIT_DATA), which holds
    /// whatever the guard cannot see: the memory counted once loaded, plus each provider's limit,
    /// plus slack; the kernel's above that by the threads' stacks and the mappings the guard does
    /// not count, so the guard, which can say what happened, ends the worker first.
    static func apply(providers: Int, providerLimit: Int64) {
        guard MemoryGuard.isActive else { return }
        let loaded = memory_guard_worker_bytes()
        let limit = loaded + Int64(max(1, providers)) * providerLimit + slack
        memory_guard_set_worker_limits(limit, threads)
        var current = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &current)
        let kernel = UInt64(clamping: dataSegment() + limit + threads * stack + (256 << 20))
        var bounded = rlimit(rlim_cur: rlim_t(min(kernel, UInt64(current.rlim_max))), rlim_max: current.rlim_max)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &bounded)
    }

    /// What the kernel counts toward RLIMIT_DATA now (VmData), in bytes. Read with `readWhole`, not
    /// Foundation, whose first read of a file initializes what a worker never uses again (1.4% of a
    /// cold listing's CPU, by perf).
    static func dataSegment() -> Int64 {
        guard let bytes = readWhole("/proc/self/status") else { return 0 }
        let status = String(decoding: bytes, as: UTF8.self)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmData:") }) else { return 0 }
        let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int64($0) } ?? 0
        return kilobytes * 1024
    }
}
