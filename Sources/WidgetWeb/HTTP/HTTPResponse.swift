import FoundationEssentials

/// An answer: a status, headers and a body, sent with its `Content-Length`.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, contentType: String, text: String, headers: [(name: String, value: String)] = []) {
        self.init(status: status, headers: [("Content-Type", contentType)] + headers, body: Array(text.utf8))
    }

    /// A refusal or error: its reason as plain text.
    public static func text(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", text: text.hasSuffix("\n") ? text : text + "\n", headers: headers)
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The status line and headers, ending with the empty line; `Content-Length` unless `streaming`.
    func head(keepAlive: Bool, streaming: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        // Every answer says what it is and how it may be kept: nothing is sniffed, cached or framed.
        if header("cache-control") == nil { text += "Cache-Control: no-store\r\n" }
        text += "X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n"
        if !streaming { text += "Content-Length: \(body.count)\r\n" }
        text += keepAlive && !streaming ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        return Array((text + "\r\n").utf8)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 303: "See Other"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}

/// What the router gives back for a request: an answer, or a stream of Server-Sent Events that
/// holds the connection until either side ends it.
public enum HTTPReply: Sendable {
    case response(HTTPResponse)
    /// The head is sent (without a length), then `open` is called with the stream to write to.
    case events(HTTPResponse, open: @Sendable (EventStream) -> Void)
}
