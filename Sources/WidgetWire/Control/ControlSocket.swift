import FoundationEssentials
import Glibc

/// The running host's control socket, through which apps (`WidgetCenter`) and the shell
/// (`widgets reload`, `widgets configurations`) reach it.
///
/// A Unix stream socket at `$XDG_RUNTIME_DIR/widgets/control.sock` (without `XDG_RUNTIME_DIR`,
/// `/tmp/widgets-<uid>/control.sock`), in a directory only its owner may enter, the socket itself
/// mode 0600; the host also checks each peer's uid (`SO_PEERCRED`). The protocol is one JSON object
/// per line each way: a request, then its answer, as many as the client likes on one connection;
/// `ControlRequest` and `ControlAnswer` are its messages.
public enum ControlSocket {
    /// The longest request line the host reads; a longer one is an error and ends the connection.
    public static let maximumLineLength = 64 * 1024

    /// The socket's directory: `$XDG_RUNTIME_DIR/widgets`, else `/tmp/widgets-<uid>`.
    public static func directory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/widgets" }
        return "/tmp/widgets-\(getuid())"
    }

    public static func path(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        directory(environment) + "/control.sock"
    }

    /// A new Unix stream socket (close-on-exec), and `operation` (`connect` or `bind`) applied to it
    /// with `path`'s address. The descriptor on success; on failure the descriptor is closed and the
    /// operation's errno returned.
    public static func open(
        _ path: String, _ operation: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws(ControlError) -> Result<Int32, Errno> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path), !bytes.contains(0) else {
            throw ControlError("the socket path \(path) is too long for a Unix socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ControlError("cannot make a socket for \(path): \(String(cString: strerror(errno)))") }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { operation(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            return .failure(Errno(code: code))
        }
        return .success(descriptor)
    }

    /// An errno value, as the error of `open`.
    public struct Errno: Error, Sendable, CustomStringConvertible {
        public let code: Int32
        public var description: String { String(cString: strerror(code)) }
    }

    /// Waits until a host may be listening again: a socket made in its directory (inotify), or at
    /// most a second (the directory not there yet, a socket made before the watch was set or not
    /// yet listening, a stale one left by a host that crashed).
    public static func waitForHost(path: String = path()) {
        let directory = path.pathDirectory
        let watcher = inotify_init1(Int32(IN_CLOEXEC))
        defer { if watcher >= 0 { close(watcher) } }
        guard watcher >= 0, inotify_add_watch(watcher, directory, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
            _ = poll(nil, 0, 1000)
            return
        }
        var ready = pollfd(fd: watcher, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, 1000)
    }

    /// Makes the socket's directory (mode 0700) if needed, and checks that it is a directory of ours
    /// that nobody else may enter: a directory in /tmp could have been made by someone else first.
    public static func prepareDirectory(_ path: String) throws(ControlError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw ControlError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { throw ControlError("cannot inspect \(path): \(String(cString: strerror(errno)))") }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw ControlError("\(path) is not a directory; remove it or set XDG_RUNTIME_DIR") }
        guard status.st_uid == getuid() else {
            throw ControlError("\(path) belongs to uid \(status.st_uid), not to this user (uid \(getuid())); refusing to use it")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw ControlError(
                "\(path) is open to other users (mode \(String(status.st_mode & 0o777, radix: 8))); it must be 0700")
        }
    }
}

/// A control socket error, one line.
public struct ControlError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    /// The host answered and refused the request (as against a host not there, or gone mid-way).
    public var isRefusal = false
    public init(_ description: String, isRefusal: Bool = false) {
        self.description = description
        self.isRefusal = isRefusal
    }
}

/// A connection to the running host: requests sent one at a time, each waiting for its answer.
public final class ControlClient {
    /// The socket's path, for the errors.
    public let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to the host's socket. The error says when no host is running.
    public init(path: String = ControlSocket.path(), timeout: TimeInterval = 10) throws(ControlError) {
        self.path = path
        switch try ControlSocket.open(path, connect) {
        case .success(let connected):
            descriptor = connected
        case .failure(let failure):
            switch failure.code {
            case ENOENT, ECONNREFUSED:
                throw ControlError("no widget host is running (nothing listens on \(path)); start one with 'widgets run'")
            case EACCES:
                throw ControlError("permission denied on \(path): the host runs as another user")
            default:
                throw ControlError("cannot connect to \(path): \(failure)")
            }
        }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(descriptor) }

    /// Closes the connection now (a watcher going away); the descriptor itself goes with the client.
    public func close() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Sends one request and returns the host's answer; an answer with `"ok": false` is thrown as
    /// its error.
    public func send(_ request: JSONValue) throws(ControlError) -> JSONValue {
        var line = Array(request.jsonText.utf8)
        line.append(UInt8(ascii: "\n"))
        do {
            try sendAll(line)
        } catch {
            // The host may have answered and closed before reading (a refused peer): say what it said.
            if let early = try? readLine(), let message = (try? JSONValue.parse(early))?["error"]?.stringValue {
                throw ControlError(message)
            }
            throw error
        }
        let answerLine = try readLine()
        let answer: JSONValue
        do {
            answer = try JSONValue.parse(answerLine)
        } catch {
            throw ControlError("the widget host at \(path) answered something that is not JSON: \(error)")
        }
        guard answer["ok"]?.boolValue == true else {
            throw ControlError(answer["error"]?.stringValue ?? "the widget host at \(path) refused the request without saying why", isRefusal: true)
        }
        return answer
    }

    /// Asks the host `request`, and reads its answer as one to that request. A refusal is thrown,
    /// with the host's reason.
    public func send(_ request: ControlRequest) throws(ControlError) -> ControlAnswer {
        let json = try send(request.json)
        do {
            return try ControlAnswer(json: json, answering: request)
        } catch {
            throw ControlError("the widget host at \(path) answered \(request.name) with something else: \(error)")
        }
    }

    /// Sends raw bytes (for tests of malformed input) and returns the next answer line, if any.
    public func sendRaw(_ bytes: [UInt8]) throws(ControlError) -> String? {
        try sendAll(bytes)
        do {
            return String(decoding: try readLine(), as: UTF8.self)
        } catch {
            return nil
        }
    }

    /// Sends raw bytes, says it will send no more (the write half closed), and returns the answer
    /// line, if one comes: a last request without its newline (for tests).
    public func sendLast(_ bytes: [UInt8]) throws(ControlError) -> String? {
        try sendAll(bytes)
        shutdown(descriptor, Int32(SHUT_WR))
        do {
            return String(decoding: try readLine(), as: UTF8.self)
        } catch {
            return nil
        }
    }

    /// Waits for the next line the host sends (an event, after a `watch` request), as long as it
    /// takes or at most `timeout`; nil when the host closes the connection (it stopped).
    public func nextEvent(timeout: TimeInterval? = nil) throws(ControlError) -> JSONValue? {
        let wait = timeout ?? 0
        var limit = timeval(tv_sec: Int(wait), tv_usec: Int((wait - wait.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                do {
                    return try JSONValue.parse(line)
                } catch {
                    throw ControlError("the widget host at \(path) sent something that is not JSON: \(error)")
                }
            }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw ControlError("the widget host at \(path) sent nothing in time") }
                throw ControlError("cannot read from the widget host at \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    private func sendAll(_ bytes: [UInt8]) throws(ControlError) {
        let error = bytes.withUnsafeBytes { bytes in
            writeAll(bytes) { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        if let error { throw ControlError("cannot send to the widget host at \(path): \(String(cString: strerror(error)))") }
    }

    private func readLine() throws(ControlError) -> [UInt8] {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw ControlError("the widget host at \(path) did not answer in time") }
                throw ControlError("cannot read from the widget host at \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { throw ControlError("the widget host at \(path) closed the connection") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}
