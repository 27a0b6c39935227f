import Foundation
import Glibc

/// A client that writes whatever bytes a test gives it to a server's socket and reads what comes
/// back: for requests no well-behaved client would send, and for reading an event stream.
final class RawHTTP: @unchecked Sendable {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, host: String = "127.0.0.1") throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw RawHTTPError("cannot connect to port \(port): \(String(cString: strerror(errno)))")
        }
        // A test fails rather than hangs when the server says nothing (CI machines stall: 30 s).
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private var isOpen = true

    /// Closes the connection, as a page that goes away does.
    func hangUp() {
        guard isOpen else { return }
        isOpen = false
        close(descriptor)
    }

    deinit { hangUp() }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Reads until `done` holds for what has arrived, the peer closes, or the read times out.
    @discardableResult
    private func fill(until done: ([UInt8]) -> Bool) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !done(buffer) {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { return false }
            buffer.append(contentsOf: chunk[..<count])
        }
        return true
    }

    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: String
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    /// The next whole response (its body by `Content-Length`), or nil when the connection ends first.
    func response() -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        func headEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 0...(bytes.count - 4) where Array(bytes[index..<index + 4]) == separator { return index }
            return nil
        }
        guard fill(until: { headEnd($0) != nil }), let end = headEnd(buffer) else { return nil }
        let head = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0
        guard fill(until: { $0.count >= end + 4 + length }) else { return nil }
        let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
        buffer.removeFirst(end + 4 + length)
        return Response(status: status, headers: headers, body: body)
    }

    /// The head of a streaming response (no length): status and headers.
    func streamHead() -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard fill(until: { bytes in bytes.count >= 4 && (0...(bytes.count - 4)).contains { Array(bytes[$0..<$0 + 4]) == separator } }) else { return nil }
        let end = (0...(buffer.count - 4)).first { Array(buffer[$0..<$0 + 4]) == separator }!
        let head = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(end + 4)
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Response(status: Int(head[0].split(separator: " ")[1]) ?? 0, headers: headers, body: "")
    }

    /// The next Server-Sent Event: its name and its data (lines joined), or nil when the stream ends.
    func event() -> (name: String, data: String)? {
        let separator: [UInt8] = [10, 10]
        func end(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 2 else { return nil }
            return (0...(bytes.count - 2)).first { bytes[$0] == 10 && bytes[$0 + 1] == 10 }
        }
        guard fill(until: { end($0) != nil }), let stop = end(buffer) else { return nil }
        let text = String(decoding: buffer[..<stop], as: UTF8.self)
        buffer.removeFirst(stop + separator.count)
        var name = "message"
        var data: [String] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
        }
        return (name, data.joined(separator: "\n"))
    }

    /// Whether the server has closed the connection (reads end with nothing more).
    func isClosedByPeer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return false }
        }
    }
}

struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
