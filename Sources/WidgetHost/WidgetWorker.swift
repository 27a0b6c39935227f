import CMemoryGuard
import Foundation
import Glibc
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
                "--now", String(now.timeIntervalSince1970),
            ]
        }

        init(bundlePath: String, memoryLimit: Int64, deadlines: RequestDeadlines, now: Date) {
            self.bundlePath = bundlePath
            self.memoryLimit = memoryLimit
            self.deadlines = deadlines
            self.now = now
        }

        init?(arguments: [String]) {
            guard arguments.count == 8, arguments[0] == WidgetWorker.flag, arguments[2] == "--memory-limit",
                arguments[4] == "--deadlines", arguments[6] == "--now",
                let limit = Int64(arguments[3]), let now = Double(arguments[7])
            else { return nil }
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
    /// executable calls it first thing when it sees the flag (the `widgets` CLI does).
    public static func main(arguments: [String]) -> Never {
        guard let options = Options(arguments: arguments) else {
            FileHandle.standardError.write(Data("widgets worker: bad arguments: \(arguments.joined(separator: " "))\n".utf8))
            exit(2)
        }
        guard fcntl(channelDescriptor, F_GETFD) >= 0 else {
            FileHandle.standardError.write(Data("widgets worker: no channel on descriptor 3; a worker is started by a host\n".utf8))
            exit(2)
        }
        // Children a bundle starts must not inherit the channel: the host learns of the worker's
        // end by the channel closing.
        for descriptor in [channelDescriptor, exceededDescriptor] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        if MemoryGuard.isActive { memory_guard_exit_on_exceed(exceededDescriptor) }
        let channel = WorkerChannel(descriptor: channelDescriptor)
        let clock = ManualClock(now: options.now)
        let registry = WidgetRegistry(clock: clock, deadlines: options.deadlines, memoryLimit: options.memoryLimit)
        registry.load(file: options.bundlePath)
        channel.send(.hello(hello(registry)))
        Readers(channel: channel, clock: clock, registry: registry, bundlePath: options.bundlePath).read()
    }

    /// The threads that read the host's messages. One holds the reading at a time and serves each
    /// request it reads itself, on its own thread when the provider's queue is idle, then reads on:
    /// while calls are quick, one thread does everything, with no hand-off and no wakeup but the
    /// request's own. A call still running after `handOffAfter` loses the reading to another thread
    /// (one left spare by an earlier slow call, or a new one), so a slow call never stops the
    /// reading for long: the deadline's clock message and other providers' requests are read
    /// meanwhile. A watcher thread times the calls; it sleeps while no call is running.
    private final class Readers: @unchecked Sendable {
        /// How long a call may hold the reading: the watcher looks this long after it starts timing
        /// a call, which may be up to this long after the call began (it does not hear of calls
        /// ending), so a slow call keeps the reading 5 to 10 ms.
        static let handOffAfter: TimeInterval = 0.005

        let channel: WorkerChannel
        let clock: ManualClock
        let registry: WidgetRegistry
        let bundlePath: String
        /// Guards what follows; the watcher and the spare threads wait on it.
        private let condition = NSCondition()
        /// Which hand-off the reading is at: a thread reads while its number is this one.
        private var holder: UInt64 = 0
        /// The number of the call the holder is serving, if it is serving one.
        private var servingCall: UInt64?
        private var calls: UInt64 = 0
        private var watcherIdle = false
        /// Threads that lost the reading to a slow call, waiting to be given it again.
        private var spares = 0
        /// Hand-offs made to the spares and not yet taken.
        private var offered = 0

        init(channel: WorkerChannel, clock: ManualClock, registry: WidgetRegistry, bundlePath: String) {
            self.channel = channel
            self.clock = clock
            self.registry = registry
            self.bundlePath = bundlePath
        }

        /// The calling thread's part, forever.
        func read() -> Never {
            let watcher = Thread { self.watch() }
            watcher.name = "widgets.worker.watcher"
            watcher.start()
            read(holding: 0)
        }

        /// Reads and serves while this thread holds the reading (`token`); waits to be given it
        /// again when a slow call took it away.
        private func read(holding token: UInt64) -> Never {
            var token = token
            while true {
                let message = receive()
                // The clock moves in the order the host's messages came.
                switch message {
                case .request(let request):
                    clock.advance(to: request.now)
                    let wakeWatcher: Bool = condition.withLock {
                        calls += 1
                        servingCall = calls
                        return watcherIdle
                    }
                    if wakeWatcher { condition.broadcast() }
                    let channel = channel
                    serve(request, registry: registry) { channel.send(.answer($0)) }
                    let stillHolder: Bool = condition.withLock {
                        guard holder == token else { return false }
                        servingCall = nil
                        return true
                    }
                    if !stillHolder { token = awaitReading() }
                case .clock(let now):
                    clock.advance(to: now)
                case .hello, .answer:
                    HostLog.warning("worker for \(bundlePath): a message only a worker sends came from the host; ignored")
                }
            }
        }

        /// A thread whose call outlasted its hold on the reading: waits until a later slow call
        /// hands the reading to it. Returns its new token.
        private func awaitReading() -> UInt64 {
            condition.lock()
            defer { condition.unlock() }
            spares += 1
            while offered == 0 { condition.wait() }
            offered -= 1
            spares -= 1
            // No other hand-off can come before this one is taken (the watcher times only calls
            // the holder starts, and the new holder is this thread), so `holder` is the one offered.
            return holder
        }

        /// The watcher: times each call served by the reading's holder, and hands the reading on
        /// when one runs past `handOffAfter`.
        private func watch() -> Never {
            condition.lock()
            while true {
                guard let call = servingCall else {
                    watcherIdle = true
                    condition.wait()
                    watcherIdle = false
                    continue
                }
                // The holder does not say when the call ends (that would cost every request a
                // wakeup): the watcher looks again when the time is up.
                let limit = Date(timeIntervalSinceNow: Self.handOffAfter)
                while servingCall == call, condition.wait(until: limit) {}
                guard servingCall == call else { continue }
                holder += 1
                servingCall = nil
                if spares > offered {
                    offered += 1
                    condition.broadcast()
                } else {
                    let token = holder
                    let thread = Thread { self.read(holding: token) }
                    thread.name = "widgets.worker.reader"
                    thread.start()
                }
            }
        }

        private func receive() -> WorkerMessage {
            do {
                return try channel.receive()
            } catch {
                // The host closed the channel (or is gone): nothing more to do. No exit handlers: a
                // bundle's static destructors must not be able to keep the worker alive.
                if case .closed = error {
                    fflush(nil)
                    _exit(0)
                }
                HostLog.log(.error, "worker for \(bundlePath): \(error)")
                exit(3)
            }
        }
    }

    private static func hello(_ registry: WidgetRegistry) -> JSONObject {
        var object = JSONObject([("pid", .number(Double(getpid())))])
        if let bundle = registry.bundles.first {
            object["bundle"] = .object(
                JSONObject([
                    ("name", .string(bundle.name)), ("builtWith", bundle.builtWith.map(JSONValue.string) ?? .null),
                    ("abiMajor", .number(Double(bundle.abiVersion.major))), ("abiMinor", .number(Double(bundle.abiVersion.minor))),
                    ("memoryLimit", bundle.requestedMemoryLimit.map { .number(Double($0)) } ?? .null),
                    ("urlSchemes", .array(bundle.urlSchemes.map(JSONValue.string))),
                ]))
        }
        object["widgets"] = .array(
            registry.widgets.map { widget in
                .object(
                    JSONObject([
                        ("kind", .string(widget.kind)), ("displayName", .string(widget.displayName)),
                        ("description", .string(widget.description)),
                        ("families", .array(widget.families.map { .string($0.rawValue) })),
                        ("configuration", .string(widget.configurationKind.rawValue)),
                        ("configurationName", widget.configurationName.map(JSONValue.string) ?? .null),
                        ("contentMarginsDisabled", .bool(widget.contentMarginsDisabled)),
                        ("schema", widget.configuration?.json ?? .null),
                        ("slot", .number(Double(registry.providerQueue(kind: widget.kind)?.memorySlot ?? 0))),
                    ]))
            })
        object["problems"] = .array(
            registry.problems.map { .object(JSONObject([("reason", .string($0.reason.rawValue)), ("message", .string($0.message))])) })
        return object
    }

    private static func serve(_ request: WorkerRequest, registry: WidgetRegistry, reply send: @escaping @Sendable (WorkerAnswer) -> Void) {
        let kind = request.widget
        let configuration = String(decoding: request.configuration, as: UTF8.self)
        registry.submitForHost(
            request.kind, kind: kind, family: request.family, isPreview: request.isPreview,
            configuration: configuration.isEmpty ? "{}" : configuration, parameter: request.parameter, environment: request.environment,
            due: request.due
        ) { result, statistics in
            let outcome: WorkerAnswer.Outcome
            switch result {
            // The provider's bytes as it gave them: the host checks them.
            case .success(let bytes): outcome = .result(bytes)
            case .failure(let error): outcome = .error(error.reason, error.message)
            }
            // A call still inside the bundle after its deadline can only be ended with the process;
            // the provider's memory after the call is for the host's statistics.
            send(
                WorkerAnswer(
                    id: request.id, outcome: outcome, stuck: (statistics?.stuckCalls ?? 0) > 0, liveBytes: statistics?.liveBytes,
                    peakBytes: statistics?.peakBytes))
        }
    }
}
