import FoundationEssentials
import Glibc
import Synchronization
import WidgetSupport
import WidgetWire

/// The listening end of the control socket (see `ControlSocket` for the path and the protocol).
///
/// Each connection is a `ControlConnection` (the line protocol as a value), served by a
/// `ConnectionLoop` on one thread that waits in `poll`: idle, it is blocked in the kernel. A peer
/// whose uid is not the host's is refused before anything it sent is read, even if the socket's
/// permissions were loosened.
///
/// Connections are bounded (`maximumConnections`), and none may hold a slot doing nothing: one that
/// sends no complete request for `idleTimeout` is closed, and when every slot is taken a new client
/// is admitted in place of the connection idle the longest. A last request without its newline is
/// answered when the peer stops sending.
package final class ControlServer: Sendable {
    /// Answers one request (a parsed JSON line) with an answer object (`"ok": true|false`).
    package typealias Handler = @Sendable (JSONValue) -> JSONValue
    /// Answers a `watch` request for `ids` (all when nil); on success (a token), the connection's
    /// further lines are events, sent through `send`, until the peer closes it or cannot keep up;
    /// then `unsubscribe`.
    package typealias Subscribe = @Sendable (_ ids: [String]?, _ send: @escaping EventHub.Send) -> (answer: JSONValue, token: Int?)

    package let path: String
    private let loop: ConnectionLoop<ControlConnection>
    /// Peers refused for their uid, for `widgets run`'s log and the tests.
    private let refusals = RefusalLog()
    private let stopped = Mutex(false)

    /// Listens at `path`, making its directory (0700) if needed. Refuses to start when another host
    /// answers there; a socket file left by a host that died is replaced.
    package init(
        path: String = ControlSocket.path(), idleTimeout: TimeInterval = 10, log: @escaping @Sendable (String) -> Void = { _ in },
        subscribe: Subscribe? = nil, unsubscribe: @escaping @Sendable (Int) -> Void = { _ in }, handler: @escaping Handler
    ) throws(ControlError) {
        self.path = path
        self.idleTimeout = idleTimeout
        try ControlSocket.prepareDirectory(path.pathDirectory)
        if access(path, F_OK) == 0 {
            if (try? ControlClient(path: path, timeout: 1)) != nil {
                throw ControlError("a widget host is already running (it listens on \(path))")
            }
            unlink(path)
        }
        // Until the chmod, the directory (0700, checked above) is what keeps other users out; the
        // process's umask is left alone, as other threads may be creating files.
        let descriptor: Int32
        switch try ControlSocket.open(path, bind) {
        case .failure(let failure): throw ControlError("cannot listen on \(path): \(failure)")
        case .success(let bound): descriptor = bound
        }
        guard chmod(path, 0o600) == 0, listen(descriptor, 128) == 0 else {
            let reason = errnoText()
            close(descriptor)
            throw ControlError("cannot listen on \(path): \(reason)")
        }
        var settings = ConnectionLoop<ControlConnection>.Settings()
        settings.maximumConnections = Self.maximumConnections
        settings.maximumStreamBacklog = 1 << 20
        let refusals = refusals
        let idle = UInt64(max(0, idleTimeout) * 1e9)
        do {
            loop = try ConnectionLoop(
                listener: descriptor, settings: settings, name: "widgets.control", log: log,
                admit: { connection in
                    var credentials = PeerCredentials()
                    var length = socklen_t(MemoryLayout<PeerCredentials>.size)
                    guard getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
                        return .refuse(bytes: [], log: nil)
                    }
                    guard credentials.uid == getuid() else {
                        let line = "refused a connection from uid \(credentials.uid) (pid \(credentials.pid)): only uid \(getuid()) may control this host"
                        refusals.lines.withLock { $0.append(line) }
                        return .refuse(bytes: ControlConnection.line(Self.failure("refused: this host belongs to uid \(getuid())")), log: "control socket: \(line)")
                    }
                    return .admit(peer: "uid \(credentials.uid)")
                },
                turnedAway: { reason in ControlConnection.line(Self.failure(reason + "; try again")) },
                machine: { ControlConnection(now: $0, idleTimeout: idle) },
                handler: { request in
                    guard let subscribe, case .watch(let ids)? = try? ControlRequest(json: request) else {
                        return ConnectionLoop<ControlConnection>.Reply(handler(request))
                    }
                    // Events the hub sends before the stream is attached wait for it, in order.
                    let relay = EventRelay()
                    let (answer, token) = subscribe(ids) { event in relay.send(event) }
                    guard let token else { return ConnectionLoop<ControlConnection>.Reply(answer) }
                    return ConnectionLoop<ControlConnection>.Reply(answer) { sink in
                        sink.onClose { unsubscribe(token) }
                        relay.attach(sink)
                    }
                })
        } catch {
            close(descriptor)
            unlink(path)
            throw ControlError("cannot serve \(path): \(error)")
        }
        ExitGuard.removeOnBundleExit(socket: path)
    }

    /// Stops listening, closes every connection and removes the socket file.
    package func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        loop.stop()
        ExitGuard.removeOnBundleExit(socket: nil)
        unlink(path)
    }

    /// Connections served at once; a client beyond them takes the place of the one idle the longest.
    package static let maximumConnections = 64
    /// How long a connection may go without sending a complete request before it is closed.
    package let idleTimeout: TimeInterval

    deinit { stop() }

    package var refusedPeers: [String] { refusals.lines.withLock { $0 } }

    package static func failure(_ message: String) -> JSONValue {
        .object(JSONObject([("ok", .bool(false)), ("error", .string(message))]))
    }

    package static func success(_ members: [(key: String, value: JSONValue)] = []) -> JSONValue {
        .object(JSONObject([("ok", .bool(true))] + members))
    }
}

/// The peers refused for their uid.
private final class RefusalLog: Sendable {
    let lines = Mutex<[String]>([])
}

/// A watcher's events on their way to its connection: held, in order, until the stream is
/// attached (the answer to `watch` goes first), then handed on as they come.
private final class EventRelay: Sendable {
    private let state = Mutex<(sink: StreamSink?, pending: [[UInt8]])>((nil, []))
    /// Events held before the stream is attached; a hub faster than that drops the watcher.
    static let maximumPending = 1024

    func send(_ event: JSONValue) -> Bool {
        let bytes = ControlConnection.line(event)
        return state.withLock { state in
            if let sink = state.sink { return sink.send(bytes) }
            guard state.pending.count < Self.maximumPending else { return false }
            state.pending.append(bytes)
            return true
        }
    }

    func attach(_ sink: StreamSink) {
        state.withLock { state in
            for event in state.pending { sink.send(event) }
            state.pending = []
            state.sink = sink
        }
    }
}

/// Linux's `struct ucred` (`<sys/socket.h>` declares it only under _GNU_SOURCE): what SO_PEERCRED fills.
private struct PeerCredentials {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}
