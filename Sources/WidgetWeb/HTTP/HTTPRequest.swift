import FoundationEssentials

/// One HTTP/1.1 request, as the server's parser read it: a method, an origin-form target, headers,
/// and a body of `Content-Length` bytes (no other framing is accepted).
public struct HTTPRequest: Sendable {
    public var method: String
    /// The target's path, percent-decoded (`/instances/3`), without its query.
    public var path: String
    /// The query's parameters, percent-decoded; the first of a repeated name wins.
    public var query: [String: String]
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// The headers in order, names in lower case.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, path: String, query: [String: String] = [:], version: String = "HTTP/1.1", headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The first header of a name (any case).
    public func header(_ name: String) -> String? {
        let name = name.lowercased()
        return headers.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var keepsAlive: Bool {
        let tokens = (header("connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingSpaces }
        return version == "HTTP/1.1" ? !tokens.contains("close") : tokens.contains("keep-alive")
    }

    /// The value of a cookie the request carries.
    public func cookie(_ name: String) -> String? {
        for header in headers where header.name == "cookie" {
            for pair in header.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingSpaces == name {
                    return parts[1].trimmingSpaces
                }
            }
        }
        return nil
    }
}

/// How much of a request the server reads before it refuses it.
public struct HTTPLimits: Sendable {
    /// The request line and headers together (431 beyond).
    public var headerBytes: Int
    /// The body (413 beyond).
    public var bodyBytes: Int

    public init(headerBytes: Int = 16 * 1024, bodyBytes: Int = 64 * 1024) {
        self.headerBytes = headerBytes
        self.bodyBytes = bodyBytes
    }
}

/// Why a request is refused: the status to answer with, and the reason, said in its body.
public struct HTTPRefusal: Error, Equatable, Sendable {
    public var status: Int
    public var reason: String

    public init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}

/// Reads requests from the bytes a connection has received so far.
public enum HTTPParser {
    public enum Outcome: Sendable {
        /// More bytes are needed: at least `until` in all, once the headers have said (a body's
        /// length), so a caller reading a slow client need not parse again before then.
        case incomplete(until: Int?)
        /// A whole request, and how many bytes it took (the next request, pipelined, follows).
        case request(HTTPRequest, consumed: Int)
        /// The bytes are no request this server takes; the connection is answered and closed.
        case refused(HTTPRefusal)
    }

    /// The methods the server knows; another gets 405 from the router, not 400.
    static let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    public static func parse(_ bytes: [UInt8], limits: HTTPLimits = HTTPLimits()) -> Outcome {
        // The header section ends at the first empty line (CRLF CRLF, or a bare LF LF).
        guard let end = headerEnd(bytes, within: limits.headerBytes) else {
            return bytes.count > limits.headerBytes
                ? .refused(HTTPRefusal(431, "the request line and headers are longer than \(limits.headerBytes) bytes")) : .incomplete(until: nil)
        }
        // Lines are split as bytes (a String would take CR LF for one character), and read as
        // Latin-1 (RFC 9110 §5.5): every byte is a character, none is refused.
        var lines = bytes[..<end.lineEnd].split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            Substring(String(bytes: line.last == 0x0D ? line.dropLast() : line, encoding: .isoLatin1) ?? "")
        }
        // Empty lines before the request line are ignored (RFC 9112 §2.2).
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        guard let requestLine = lines.first else { return .refused(HTTPRefusal(400, "no request line")) }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].utf8.allSatisfy({ tokenCharacters.contains($0) }) else {
            return .refused(HTTPRefusal(400, "malformed request line"))
        }
        let method = String(parts[0])
        let target = String(parts[1])
        let version = String(parts[2])
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .refused(HTTPRefusal(400, "unsupported protocol version \"\(version.prefix(20))\" (HTTP/1.1 and 1.0 are served)"))
        }
        guard target.hasPrefix("/"), let (path, query) = split(target: target) else {
            return .refused(HTTPRefusal(400, "the request target must be a path (\"/...\")"))
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            if line.first == " " || line.first == "\t" { return .refused(HTTPRefusal(400, "folded header lines are not accepted")) }
            guard let colon = line.firstIndex(of: ":") else { return .refused(HTTPRefusal(400, "a header line without a colon")) }
            let name = line[..<colon]
            guard !name.isEmpty, name.utf8.allSatisfy({ tokenCharacters.contains($0) }) else {
                return .refused(HTTPRefusal(400, "a malformed header name"))
            }
            let value = line[line.index(after: colon)...].trimmingAny(of: " \t")
            if value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) {
                return .refused(HTTPRefusal(400, "a control character in header \(name.lowercased())"))
            }
            headers.append((name.lowercased(), value))
        }
        let request = HTTPRequest(method: method, path: path, query: query, version: version, headers: headers)
        if version == "HTTP/1.1", headers.filter({ $0.name == "host" }).count != 1 {
            return .refused(HTTPRefusal(400, "an HTTP/1.1 request needs exactly one Host header"))
        }
        if request.header("transfer-encoding") != nil {
            return .refused(HTTPRefusal(400, "Transfer-Encoding is not accepted; send a Content-Length body"))
        }
        let lengths = Set(headers.filter { $0.name == "content-length" }.map(\.value))
        var length = 0
        if let given = lengths.first {
            guard lengths.count == 1, !given.isEmpty, given.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .refused(HTTPRefusal(400, "a malformed Content-Length"))
            }
            guard given.count <= 18, let value = Int(given), value <= limits.bodyBytes else {
                return .refused(HTTPRefusal(413, "the body is longer than \(limits.bodyBytes) bytes"))
            }
            length = value
        }
        guard bytes.count - end.bodyStart >= length else { return .incomplete(until: end.bodyStart + length) }
        var complete = request
        complete.body = Array(bytes[end.bodyStart..<end.bodyStart + length])
        return .request(complete, consumed: end.bodyStart + length)
    }

    /// Where the header section's last line ends and the body starts, if the empty line ending it
    /// is within `limit` bytes (and a few more for its own line break).
    static func headerEnd(_ bytes: [UInt8], within limit: Int) -> (lineEnd: Int, bodyStart: Int)? {
        let scan = min(bytes.count, limit + 4)
        var index = 0
        var lineStart = 0
        // Whether a byte other than CR or LF came yet: empty lines before the request line are skipped.
        var sawContent = false
        while index < scan {
            let byte = bytes[index]
            if byte == 0x0A {
                let line = index - lineStart - (index > lineStart && bytes[index - 1] == 0x0D ? 1 : 0)
                if line == 0, sawContent { return (lineStart, index + 1) }
                lineStart = index + 1
            } else if byte != 0x0D {
                sawContent = true
            }
            index += 1
        }
        return nil
    }

    /// A target's path and query, percent-decoded; nil for a bad escape or a path that leaves the root.
    static func split(target: String) -> (String, [String: String])? {
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = pieces[0].percentDecoded, !path.contains("\0") else { return nil }
        var query: [String: String] = [:]
        if pieces.count == 2 {
            for pair in pieces[1].split(separator: "&") {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = nameValue[0].replacing("+", with: " ").percentDecoded,
                    let value = (nameValue.count == 2 ? String(nameValue[1]) : "").replacing("+", with: " ").percentDecoded
                else { return nil }
                if query[name] == nil { query[name] = value }
            }
        }
        return (path, query)
    }
}
