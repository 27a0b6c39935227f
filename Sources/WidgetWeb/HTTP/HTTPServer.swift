import CHostShims
import Foundation
import Glibc
import Synchronization
import WidgetSupport
import WidgetWire

/// The address a server listens on: an IP address (IPv4, or IPv6 in brackets) and a port.
public struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// `127.0.0.1:8080`, `[::1]:8080`, `localhost:8080`, `:8080` or `8080` (both loopback);
    /// port 0 lets the system choose one.
    public init(parsing text: String) throws(HTTPServerError) {
        var host = "127.0.0.1"
        var portText = text
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw HTTPServerError("\"\(text)\" is not ADDR:PORT (an IPv6 address is written [::1]:8080)")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = String(text[text.index(close, offsetBy: 2)...])
        } else if let colon = text.lastIndex(of: ":") {
            let given = String(text[..<colon])
            if !given.isEmpty { host = given == "localhost" ? "127.0.0.1" : given }
            portText = String(text[text.index(after: colon)...])
        }
        guard let port = UInt16(portText) else {
            throw HTTPServerError("\"\(text)\" is not ADDR:PORT: the port must be a number from 0 to 65535")
        }
        var probe4 = in_addr()
        var probe6 = in6_addr()
        guard inet_pton(AF_INET, host, &probe4) == 1 || inet_pton(AF_INET6, host, &probe6) == 1 else {
            throw HTTPServerError("\"\(host)\" is not an IP address; give one, such as 127.0.0.1 or [::1]")
        }
        self.host = host
        self.port = port
    }

    var isIPv6: Bool { host.contains(":") }

    /// Whether only this machine can reach it (127.0.0.0/8, ::1).
    public var isLoopback: Bool { host.hasPrefix("127.") || host == "::1" }

    /// As a URL's authority (and a request's `Host`) writes it.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// An HTTP/1.1 server on POSIX sockets, for the home screen: GET and POST with `Content-Length`
/// bodies, keep-alive, and Server-Sent Events.
///
/// One thread waits in `accept`; each connection gets a thread that waits in `poll`, so an idle
/// server is blocked in the kernel and wakes for nothing. Connections are bounded; one beyond the
/// bound is answered 503 and closed. A client slow to send its request (`requestTimeout` from its
/// first byte) is answered 408; one idle between requests longer than `idleTimeout` is closed. A
/// malformed request is answered 400, 413 or 431 and its connection closed; the server goes on.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPReply

    public struct Settings: Sendable {
        public var limits = HTTPLimits()
        public var maximumConnections = 64
        /// From a request's first byte to its last.
        public var requestTimeout: TimeInterval = 10
        /// Between requests on a kept-alive connection.
        public var idleTimeout: TimeInterval = 30
        /// For one write to the peer to make progress.
        public var writeTimeout: TimeInterval = 5

        public init() {}
    }

    /// Where it listens; the port is the one bound (the system's choice for port 0).
    public let address: ListenAddress
    public let settings: Settings
    private let handler: Handler
    private let listener: Int32
    private let state = Mutex<(stopped: Bool, connections: Set<Int32>)>((false, []))
    private let log: @Sendable (String) -> Void

    public init(
        address: ListenAddress, settings: Settings = Settings(), log: @escaping @Sendable (String) -> Void = { _ in },
        handler: @escaping Handler
    ) throws(HTTPServerError) {
        self.settings = settings
        self.handler = handler
        self.log = log
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw HTTPServerError("cannot make a socket: \(errnoText())") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var bound = address
        let result: Int32
        if address.isIPv6 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = address.port.bigEndian
            inet_pton(AF_INET6, address.host, &socketAddress.sin6_addr)
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            _ = withUnsafeMutablePointer(to: &socketAddress) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
            bound.port = UInt16(bigEndian: socketAddress.sin6_port)
        } else {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = address.port.bigEndian
            inet_pton(AF_INET, address.host, &socketAddress.sin_addr)
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &socketAddress) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
            bound.port = UInt16(bigEndian: socketAddress.sin_port)
        }
        guard result == 0, listen(descriptor, 128) == 0 else {
            let code = errno
            close(descriptor)
            let hint = code == EADDRINUSE ? " (another program listens there; choose another port, or 0 for any)" : ""
            throw HTTPServerError("cannot listen on \(address): \(errnoText(code))\(hint)")
        }
        listener = descriptor
        self.address = bound
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "widgets.web"
        thread.start()
    }

    deinit { stop() }

    /// Stops listening and ends every connection, streams included.
    public func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for descriptor in state.connections { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Connections open now, streams included.
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    private func acceptLoop() {
        while true {
            let connection = host_accept_cloexec(listener)
            if connection < 0 {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                if state.withLock({ $0.stopped }) { break }
                log("web: accept failed: \(errnoText(code))")
                if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) { usleep(200_000) }
                continue
            }
            let admitted: Bool? = state.withLock { state in
                if state.stopped { return nil }
                guard state.connections.count < settings.maximumConnections else { return false }
                state.connections.insert(connection)
                return true
            }
            switch admitted {
            case nil:
                close(connection)
                close(listener)
                return
            case false?:
                setTimeout(connection, SO_SNDTIMEO, 1)
                write(connection, Self.bytes(of: .text(503, "too many connections (\(settings.maximumConnections)); try again"), keepAlive: false))
                close(connection)
            case true?:
                setTimeout(connection, SO_SNDTIMEO, settings.writeTimeout)
                let thread = Thread { [self] in
                    serve(connection)
                    state.withLock { state in
                        state.connections.remove(connection)
                        close(connection)
                    }
                }
                thread.name = "widgets.web.connection"
                thread.stackSize = 512 * 1024
                thread.start()
            }
        }
        close(listener)
    }

    /// Serves one connection's requests until it closes, times out, sends a bad request, or
    /// becomes an event stream (which then holds it until either side ends).
    private func serve(_ descriptor: Int32) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var requestStarted: UInt64?
        // Whether what arrived since the last parse can complete a request: a client sending a byte
        // at a time is parsed when a line ends or its body is whole, not at every byte.
        var parseNeeded = false
        var wholeAt: Int?
        while true {
            let outcome = parseNeeded || buffer.isEmpty ? HTTPParser.parse(buffer, limits: settings.limits) : .incomplete(until: wholeAt)
            parseNeeded = false
            switch outcome {
            case .refused(let refusal):
                write(descriptor, Self.bytes(of: .text(refusal.status, refusal.reason), keepAlive: false))
                return
            case .request(let request, let consumed):
                buffer.removeFirst(consumed)
                requestStarted = buffer.isEmpty ? nil : Self.now()
                // A pipelined request may be whole already.
                parseNeeded = !buffer.isEmpty
                wholeAt = nil
                let keepAlive = request.keepsAlive
                switch handler(request) {
                case .response(let response):
                    let close = !keepAlive || response.header("connection")?.lowercased() == "close"
                    guard write(descriptor, Self.bytes(of: response, keepAlive: !close)), !close else { return }
                case .events(let head, let open):
                    guard write(descriptor, head.head(keepAlive: false, streaming: true) + head.body) else { return }
                    stream(descriptor, open)
                    return
                }
                continue
            case .incomplete(let until):
                wholeAt = until
            }
            // Waiting: for a request's first byte as long as a connection may idle, for the rest of
            // it what is left of its time.
            let timeout: TimeInterval
            if let started = requestStarted {
                timeout = settings.requestTimeout - Double(Self.now() - started) / 1e9
                if timeout <= 0 {
                    write(descriptor, Self.bytes(of: .text(408, "the request took longer than \(Int(settings.requestTimeout)) s to arrive"), keepAlive: false))
                    return
                }
            } else {
                timeout = settings.idleTimeout
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(timeout * 1000, Double(Int32.max)).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 { continue }  // timed out: the checks above answer it
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { return }
            if buffer.isEmpty, requestStarted == nil { requestStarted = Self.now() }
            buffer.append(contentsOf: chunk[..<count])
            if let wholeAt {
                parseNeeded = buffer.count >= wholeAt
            } else {
                parseNeeded = chunk[..<count].contains(0x0A) || buffer.count > settings.limits.headerBytes
            }
        }
    }

    /// Holds an event stream's connection: blocked in `poll` until the peer closes it (or the
    /// stream or the server ends it), then closes the stream.
    private func stream(_ descriptor: Int32, _ open: @Sendable (EventStream) -> Void) {
        let stream = EventStream(descriptor: descriptor)
        open(stream)
        var scratch = [UInt8](repeating: 0, count: 512)
        while !stream.isClosed {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, -1)
            if ready < 0, errno == EINTR { continue }
            // A page sends nothing on its stream: anything readable is its end, or ignored.
            if ready < 0 || recv(descriptor, &scratch, scratch.count, 0) <= 0 { break }
        }
        stream.finish()
    }

    static func bytes(of response: HTTPResponse, keepAlive: Bool) -> [UInt8] {
        response.head(keepAlive: keepAlive) + response.body
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// Sets a socket's send or receive timeout.
func setTimeout(_ descriptor: Int32, _ option: Int32, _ seconds: TimeInterval) {
    var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
    setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
}

/// Writes all of `bytes`, or fails (the peer gone, or not reading within the send timeout).
@discardableResult
func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { bytes in
        writeAll(bytes) { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    } == nil
}
