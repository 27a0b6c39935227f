import CHostShims
import Foundation
import Glibc
import Synchronization
import WidgetSupport
import WidgetWire

/// The listening end of the control socket (see `ControlSocket` for the path and the protocol).
///
/// One thread waits in `accept`; each connection gets a thread that waits in `recv`. Idle, they are
/// blocked in the kernel: nothing polls. A peer whose uid is not the host's is refused before anything
/// it sent is read, even if the socket's permissions were loosened.
///
/// Connections are bounded (`maximumConnections`), and none may hold a slot doing nothing: one that
/// sends no complete request for `idleTimeout` is closed, and when every slot is taken a new client
/// is admitted in place of the connection idle the longest. A last request without its newline is
/// answered when the peer stops sending.
package final class ControlServer: Sendable {
    /// Answers one request (a parsed JSON line) with an answer object (`"ok": true|false`).
    package typealias Handler = @Sendable (JSONValue) -> JSONValue
    /// Answers a `watch` request; on success (a token), the connection's further lines are events,
    /// sent through `send`, until the peer closes it or cannot keep up; then `unsubscribe`.
    package typealias Subscribe = @Sendable (_ request: JSONValue, _ send: @escaping EventHub.Send) -> (answer: JSONValue, token: Int?)

    private let subscribe: Subscribe?
    private let unsubscribe: @Sendable (Int) -> Void

    package let path: String
    private let handler: Handler
    private let listener: Int32
    private struct State {
        var stopped = false
        /// Each connection, and when it last finished a request (monotonic nanoseconds), or nil
        /// while it is busy answering one.
        var connections: [Int32: UInt64?] = [:]
        /// Connections made to give their slots to new clients, until their threads leave.
        var evicted: Set<Int32> = []
        /// Peers refused for their uid, for `widgets run`'s log and the tests.
        var refusals: [String] = []
    }
    private let state = Mutex(State())
    private let log: @Sendable (String) -> Void

    /// Listens at `path`, making its directory (0700) if needed. Refuses to start when another host
    /// answers there; a socket file left by a host that died is replaced.
    package init(
        path: String = ControlSocket.path(), idleTimeout: TimeInterval = 10, log: @escaping @Sendable (String) -> Void = { _ in },
        subscribe: Subscribe? = nil, unsubscribe: @escaping @Sendable (Int) -> Void = { _ in }, handler: @escaping Handler
    ) throws(ControlError) {
        self.path = path
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
        self.idleTimeout = idleTimeout
        self.handler = handler
        self.log = log
        try ControlSocket.prepareDirectory((path as NSString).deletingLastPathComponent)
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
        listener = descriptor
        ExitGuard.removeOnBundleExit(socket: path)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "widgets.control"
        thread.start()
    }

    /// Stops listening, closes every connection and removes the socket file.
    package func stop() {
        // Under the state's lock a connection's thread removes its descriptor before closing it: no
        // shutdown reaches a descriptor number closed and reused meanwhile.
        let first: Bool = state.withLock { state in
            guard !state.stopped else { return false }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for descriptor in state.connections.keys { shutdown(descriptor, Int32(SHUT_RDWR)) }
            return true
        }
        if first {
            ExitGuard.removeOnBundleExit(socket: nil)
            unlink(path)
        }
    }

    /// Connections served at once; a client beyond them takes the place of the one idle the longest.
    package static let maximumConnections = 64
    /// How long a connection may go without sending a complete request before it is closed.
    package let idleTimeout: TimeInterval

    deinit { stop() }

    package var refusedPeers: [String] { state.withLock { $0.refusals } }

    private func acceptLoop() {
        while true {
            let connection = host_accept_cloexec(listener)
            if connection < 0 {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                if state.withLock({ $0.stopped }) { break }
                log("control socket: accept failed: \(errnoText(code))")
                // Out of descriptors or memory: the pending connection stays queued and accept
                // fails at once again, so wait before retrying rather than spin.
                if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) { usleep(200_000) }
                continue
            }
            enum Admission { case stopped, full, admitted }
            let admission: Admission = state.withLock { state in
                if state.stopped { return .stopped }
                if state.connections.count >= Self.maximumConnections {
                    // The one idle the longest makes room (its thread sees its end and leaves).
                    guard let idlest = state.connections.compactMap({ entry in entry.value.map { (entry.key, $0) } }).min(by: { $0.1 < $1.1 })
                    else {
                        return .full
                    }
                    shutdown(idlest.0, Int32(SHUT_RDWR))
                    state.connections[idlest.0] = nil
                    state.evicted.insert(idlest.0)
                }
                state.connections[connection] = .some(Self.now())
                return .admitted
            }
            switch admission {
            case .stopped:
                close(connection)
            case .full:
                reply(connection, Self.failure("too many connections (\(Self.maximumConnections)), all answering requests; try again"))
                close(connection)
                continue
            case .admitted:
                break
            }
            guard admission == .admitted else { break }
            Thread.detachNewThread { [self] in
                serve(connection)
                state.withLock { state in
                    // An evicted connection's slot went to another; its descriptor is still its own.
                    if state.evicted.remove(connection) == nil { state.connections[connection] = nil }
                    close(connection)
                }
            }
        }
        close(listener)
    }

    private func serve(_ connection: Int32) {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return }
        guard credentials.uid == getuid() else {
            let line = "refused a connection from uid \(credentials.uid) (pid \(credentials.pid)): only uid \(getuid()) may control this host"
            state.withLock { $0.refusals.append(line) }
            log("control socket: \(line)")
            reply(connection, Self.failure("refused: this host belongs to uid \(getuid())"))
            finish(connection)
            return
        }
        // A connection that sends no complete request for this long is closed.
        var limit = timeval(tv_sec: Int(idleTimeout), tv_usec: Int((idleTimeout - idleTimeout.rounded(.down)) * 1e6))
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var idleSince = Self.now()
        while true {
            while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                let request = Self.request(line)
                if let subscribe, case .success(let watch) = request, watch["request"]?.stringValue == "watch" {
                    return stream(connection, watch, subscribe)
                }
                guard respond(connection, request) else { return }
                idleSince = Self.now()
            }
            if buffer.count > ControlSocket.maximumLineLength {
                reply(connection, Self.failure("request longer than \(ControlSocket.maximumLineLength) bytes; closing the connection"))
                finish(connection)
                return
            }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // Bytes trickling in do not keep it open: only a complete request does.
                guard Double(Self.now() - idleSince) / 1e9 < idleTimeout else {
                    reply(connection, Self.failure("no complete request for \(timeSpan(idleTimeout)); closing the connection"))
                    return
                }
                continue
            }
            guard count > 0 else {
                // The peer is done sending: a last request without its newline is still answered.
                if !buffer.isEmpty { _ = respond(connection, Self.request(buffer)) }
                return
            }
            buffer.append(contentsOf: chunk[..<count])
            if !buffer.contains(UInt8(ascii: "\n")), Double(Self.now() - idleSince) / 1e9 >= idleTimeout {
                reply(connection, Self.failure("no complete request for \(timeSpan(idleTimeout)); closing the connection"))
                return
            }
        }
    }

    /// Turns the connection into a stream of events: the answer, then one line per event, until the
    /// peer closes the connection. Its slot is busy meanwhile (never evicted); what it sends is
    /// ignored. Events are sent without waiting: a subscriber whose buffer is full is dropped.
    private func stream(_ connection: Int32, _ request: JSONValue, _ subscribe: Subscribe) {
        state.withLock { if $0.connections[connection] != nil { $0.connections[connection] = .some(nil) } }
        var size: Int32 = 1 << 20
        setsockopt(connection, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let writing = NSLock()
        let open = Mutex(true)
        writing.lock()
        let (answer, token) = subscribe(request) { [self] event in
            writing.withLock {
                guard open.withLock({ $0 }) else { return false }
                guard sendWhole(connection, event, waiting: false) else {
                    open.withLock { $0 = false }
                    shutdown(connection, Int32(SHUT_RDWR))
                    return false
                }
                return true
            }
        }
        let answered = reply(connection, answer)
        writing.unlock()
        guard let token else { return }
        defer {
            // Under the writing lock: no event is being written when the descriptor is closed.
            writing.withLock { open.withLock { $0 = false } }
            unsubscribe(token)
        }
        guard answered else { return }
        var forever = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &forever, socklen_t(MemoryLayout<timeval>.size))
        var sink = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = sink.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
        }
    }

    /// Answers one request line, marking the connection busy meanwhile (it is not evicted then).
    private func respond(_ connection: Int32, _ request: Result<JSONValue, Refusal>) -> Bool {
        state.withLock { if $0.connections[connection] != nil { $0.connections[connection] = .some(nil) } }
        let answer: JSONValue
        switch request {
        case .success(let request): answer = handler(request)
        case .failure(let refusal): answer = refusal.answer
        }
        state.withLock { if $0.connections[connection] != nil { $0.connections[connection] = .some(Self.now()) } }
        return reply(connection, answer)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// A request line parsed, or the answer that refuses it.
    private static func request(_ line: [UInt8]) -> Result<JSONValue, Refusal> {
        let request: JSONValue
        do {
            request = try JSONValue.parse(line)
        } catch {
            return .failure(Refusal(answer: failure("malformed request: \(error)")))
        }
        guard case .object = request, request["request"]?.stringValue != nil else {
            return .failure(Refusal(answer: failure("malformed request: expected an object with a \"request\" member")))
        }
        return .success(request)
    }

    struct Refusal: Error {
        let answer: JSONValue
    }

    /// Ends a connection the host gives up on without losing its last answer: closing with unread
    /// input would reset the connection, and the peer could lose the answer with it. So: no more
    /// writes, then read and drop what the peer still sends, for a second at most.
    private func finish(_ connection: Int32) {
        shutdown(connection, Int32(SHUT_WR))
        var limit = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var sink = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < 1 << 20 {
            let count = sink.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            total += count
        }
    }

    @discardableResult
    private func reply(_ connection: Int32, _ answer: JSONValue) -> Bool {
        sendWhole(connection, answer, waiting: true)
    }

    /// Sends one line. Not `waiting`: only if the socket's buffer takes all of it at once (a line is
    /// never sent in part, which would garble the stream).
    private func sendWhole(_ connection: Int32, _ value: JSONValue, waiting: Bool) -> Bool {
        var bytes = Array(value.jsonText.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if !waiting {
            var queued: Int32 = 0
            var size: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard ioctl(connection, UInt(TIOCOUTQ), &queued) == 0, getsockopt(connection, SOL_SOCKET, SO_SNDBUF, &size, &length) == 0,
                Int(size) - Int(queued) > bytes.count
            else { return false }
        }
        let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        return bytes.withUnsafeBytes { bytes in writeAll(bytes) { send(connection, $0.baseAddress, $0.count, flags) } } == nil
    }

    package static func failure(_ message: String) -> JSONValue {
        .object(JSONObject([("ok", .bool(false)), ("error", .string(message))]))
    }

    package static func success(_ members: [(key: String, value: JSONValue)] = []) -> JSONValue {
        .object(JSONObject([("ok", .bool(true))] + members))
    }
}

/// Linux's `struct ucred` (`<sys/socket.h>` declares it only under _GNU_SOURCE): what SO_PEERCRED fills.
private struct PeerCredentials {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}
