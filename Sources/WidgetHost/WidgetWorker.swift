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
        channel.send(hello(registry))
        while true {
            let frame: WorkerFrame
            do {
                frame = try channel.receive()
            } catch {
                // The host closed the channel (or is gone): nothing more to do. No exit handlers: a
                // bundle's static destructors must not be able to keep the worker alive.
                if case .closed = error {
                    fflush(nil)
                    _exit(0)
                }
                HostLog.log(.error, "worker for \(options.bundlePath): \(error)")
                exit(3)
            }
            if let now = frame["now"]?.numberValue { clock.advance(to: Date(timeIntervalSince1970: now)) }
            switch frame.operation {
            case "request":
                // Answered from the provider's queue: no other thread in between.
                serve(frame, registry: registry) { channel.send($0) }
            case "clock":
                break
            default:
                HostLog.warning("worker for \(options.bundlePath): unknown message \"\(frame.operation)\"; ignored")
            }
        }
    }

    private static func hello(_ registry: WidgetRegistry) -> WorkerFrame {
        var header = JSONObject([("op", .string("hello")), ("pid", .number(Double(getpid())))])
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
        return WorkerFrame(header: header)
    }

    private static func serve(_ frame: WorkerFrame, registry: WidgetRegistry, reply send: @escaping @Sendable (WorkerFrame) -> Void) {
        let id = frame["id"] ?? .null
        guard let requestKind = frame["request"]?.stringValue.flatMap(RequestKind.init(rawValue:)),
            let kind = frame["kind"]?.stringValue, let due = frame["due"]?.numberValue
        else {
            return send(
                WorkerFrame(
                    header: JSONObject([
                        ("op", .string("error")), ("id", id), ("reason", .string(RequestError.Reason.malformedResult.rawValue)),
                        ("message", .string("the host sent a malformed request")),
                    ])))
        }
        let family = frame["family"]?.stringValue.flatMap(WidgetFamily.init(rawValue:))
        let configuration = String(decoding: frame.body, as: UTF8.self)
        registry.submitForHost(
            requestKind, kind: kind, family: family, isPreview: frame["preview"]?.boolValue ?? false,
            configuration: configuration.isEmpty ? "{}" : configuration, parameter: frame["parameter"]?.stringValue,
            environment: frame["environment"].flatMap(RenderingEnvironment.init(json:)), due: Date(timeIntervalSince1970: due)
        ) { result in
            var reply = WorkerFrame(header: JSONObject([("op", .string("result")), ("id", id)]))
            switch result {
            case .success(let bytes):
                // The provider's bytes as it gave them: the host checks them.
                reply.body = bytes
            case .failure(let error):
                reply.header["op"] = .string("error")
                reply.header["reason"] = .string(error.reason.rawValue)
                reply.header["message"] = .string(error.message)
            }
            let statistics = registry.statistics(kind: kind)
            // A call still inside the bundle after its deadline can only be ended with the process.
            if (statistics?.stuckCalls ?? 0) > 0 { reply.header["stuck"] = .bool(true) }
            // The provider's memory after the call, for the host's statistics.
            reply.header["live"] = statistics?.liveBytes.map { .number(Double($0)) } ?? .null
            reply.header["peak"] = statistics?.peakBytes.map { .number(Double($0)) } ?? .null
            send(reply)
        }
    }
}
