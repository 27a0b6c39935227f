import FoundationEssentials
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
/// bodies, keep-alive, pipelining, and Server-Sent Events.
///
/// Each connection is an `HTTPConnection` (the protocol as a value: its timeouts and limits are
/// there), served by a `ConnectionLoop` on one thread that waits in `poll`: an idle server is
/// blocked in the kernel and wakes for nothing. Connections are bounded overall and per peer (a
/// user on this machine, by the kernel's socket table; an address elsewhere); when every slot is
/// taken, a new client takes the place of the connection that has held one longest without a whole
/// request, and one beyond that is answered 503. A malformed request is answered 400, 413 or 431
/// and its connection closed; the server goes on.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPReply

    public struct Settings: Sendable {
        public var limits = HTTPLimits()
        public var maximumConnections = 64
        /// The most one peer (a user, or an address) may hold.
        public var maximumPerPeer = 32
        /// From a connection's start to its first whole request.
        public var firstRequestTimeout: TimeInterval = 5
        /// From a later request's first byte to its last.
        public var requestTimeout: TimeInterval = 10
        /// Between requests on a kept-alive connection.
        public var idleTimeout: TimeInterval = 30
        /// For queued output to make progress.
        public var writeTimeout: TimeInterval = 5

        public init() {}

        var timeouts: HTTPConnection.Timeouts {
            var timeouts = HTTPConnection.Timeouts()
            timeouts.firstRequest = Self.nanoseconds(firstRequestTimeout)
            timeouts.request = Self.nanoseconds(requestTimeout)
            timeouts.idle = Self.nanoseconds(idleTimeout)
            timeouts.write = Self.nanoseconds(writeTimeout)
            return timeouts
        }

        static func nanoseconds(_ seconds: TimeInterval) -> UInt64 { UInt64(max(0, seconds) * 1e9) }
    }

    /// Where it listens; the port is the one bound (the system's choice for port 0).
    public let address: ListenAddress
    public let settings: Settings
    private let loop: ConnectionLoop<HTTPConnection>

    public init(
        address: ListenAddress, settings: Settings = Settings(), log: @escaping @Sendable (String) -> Void = { _ in },
        handler: @escaping Handler
    ) throws(HTTPServerError) {
        self.settings = settings
        let listening: (descriptor: Int32, port: UInt16)
        do {
            listening = try ListeningSocket.tcp(host: address.host, port: address.port)
        } catch {
            throw HTTPServerError(error.description)
        }
        var bound = address
        bound.port = listening.port
        self.address = bound
        var loopSettings = ConnectionLoop<HTTPConnection>.Settings()
        loopSettings.maximumConnections = settings.maximumConnections
        loopSettings.maximumPerPeer = settings.maximumPerPeer
        let (limits, timeouts) = (settings.limits, settings.timeouts)
        do {
            loop = try ConnectionLoop(
                listener: listening.descriptor, settings: loopSettings, name: "widgets.web", log: log,
                admit: { .admit(peer: ListeningSocket.peerName(of: $0)) },
                turnedAway: { reason in Self.bytes(of: .text(503, reason + "; try again"), keepAlive: false) },
                machine: { HTTPConnection(now: $0, limits: limits, timeouts: timeouts) },
                handler: { request in
                    switch handler(request) {
                    case .response(let response):
                        return ConnectionLoop<HTTPConnection>.Reply(response)
                    case .events(let head, let open):
                        return ConnectionLoop<HTTPConnection>.Reply(head) { sink in open(EventStream(sink)) }
                    }
                })
        } catch {
            close(listening.descriptor)
            throw HTTPServerError(error.description)
        }
    }

    deinit { stop() }

    /// Stops listening and ends every connection, streams included.
    public func stop() { loop.stop() }

    /// Connections open now, streams included.
    public var connectionCount: Int { loop.connectionCount }

    static func bytes(of response: HTTPResponse, keepAlive: Bool) -> [UInt8] {
        response.head(keepAlive: keepAlive) + response.body
    }
}
