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

    /// The threads that read the host's messages: one reads at a time, and serves the request it
    /// read itself, when the provider's queue is idle, after handing the reading to another
    /// thread (leader and followers). A request thus runs on the thread that read it, with no hop to
    /// another thread, and a slow call never stops the reading: the deadline's clock message and
    /// other providers' requests are read meanwhile. There are as many threads as calls running at
    /// once, plus one reading; a request for a busy provider waits on its queue, not on a thread.
    private final class Readers: @unchecked Sendable {
        let channel: WorkerChannel
        let clock: ManualClock
        let registry: WidgetRegistry
        let bundlePath: String
        /// Held by the thread reading.
        private let reading = NSLock()
        private let lock = NSLock()
        /// Threads not serving a request: the one reading, and those waiting to read.
        private var spare = 1

        init(channel: WorkerChannel, clock: ManualClock, registry: WidgetRegistry, bundlePath: String) {
            self.channel = channel
            self.clock = clock
            self.registry = registry
            self.bundlePath = bundlePath
        }

        /// The calling thread's part, forever: read, hand the reading on, serve.
        func read() -> Never {
            while true {
                reading.lock()
                let message = receive()
                // The clock moves in the order the host's messages came.
                switch message {
                case .request(let request): clock.advance(to: request.now)
                case .clock(let now): clock.advance(to: now)
                case .hello, .answer: break
                }
                if case .request = message {
                    let needsAnother: Bool = lock.withLock {
                        spare -= 1
                        guard spare == 0 else { return false }
                        spare += 1
                        return true
                    }
                    if needsAnother {
                        let thread = Thread { self.read() }
                        thread.name = "widgets.worker.reader"
                        thread.start()
                    }
                }
                reading.unlock()
                switch message {
                case .request(let request):
                    let channel = channel
                    serve(request, registry: registry) { channel.send(.answer($0)) }
                    lock.withLock { spare += 1 }
                case .clock:
                    break
                case .hello, .answer:
                    HostLog.warning("worker for \(bundlePath): a message only a worker sends came from the host; ignored")
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
        var header = JSONObject([("pid", .number(Double(getpid())))])
        if let bundle = registry.bundles.first {
            header["bundle"] = .object(
                JSONObject([
                    ("name", .string(bundle.name)), ("builtWith", bundle.builtWith.map(JSONValue.string) ?? .null),
                    ("abiMajor", .number(Double(bundle.abiVersion.major))), ("abiMinor", .number(Double(bundle.abiVersion.minor))),
                    ("memoryLimit", bundle.requestedMemoryLimit.map { .number(Double($0)) } ?? .null),
                    ("urlSchemes", .array(bundle.urlSchemes.map(JSONValue.string))),
                ]))
        }
        header["widgets"] = .array(
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
        header["problems"] = .array(
            registry.problems.map { .object(JSONObject([("reason", .string($0.reason.rawValue)), ("message", .string($0.message))])) })
        return header
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
