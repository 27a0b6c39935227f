import Foundation
import Glibc
import WidgetWire

/// One message between the host and a worker process: a JSON header, and optionally a body of raw
/// bytes (a configuration, or a result in the ABI's JSON encoding).
///
/// On the wire: `[u32 header length][u32 body length][header][body]`, lengths little-endian. The
/// encoding is the ABI's: headers and bodies are the JSON a bundle reads and writes.
struct WorkerFrame: Sendable {
    var header: JSONObject
    var body: [UInt8] = []

    /// Bodies are bounded by the ABI's result limit, with room for the header around them.
    static let maximumLength = PendingRequests.maximumResultBytes + (1 << 20)

    subscript(key: String) -> JSONValue? { header[key] }
    var operation: String { header["op"]?.stringValue ?? "" }
    var id: UInt64? { header["id"]?.numberValue.flatMap { UInt64(exactly: $0) } }

    func encoded() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256)
        writer.write(.object(header))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + writer.bytes.count + body.count)
        for length in [UInt32(writer.bytes.count), UInt32(body.count)] {
            withUnsafeBytes(of: length.littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes += writer.bytes
        bytes += body
        return bytes
    }
}

/// Why the channel to a worker stopped.
enum ChannelError: Error, CustomStringConvertible {
    case closed
    case system(String)
    case malformed(String)

    var description: String {
        switch self {
        case .closed: "the other side closed the channel"
        case .system(let text): text
        case .malformed(let text): "malformed message: \(text)"
        }
    }
}

/// A connected socket carrying frames both ways. Writes from several threads are whole frames, one
/// at a time; reads are made by one thread.
final class WorkerChannel: @unchecked Sendable {
    let descriptor: Int32
    private let writeLock = NSLock()
    private var buffer: [UInt8] = []
    private var start = 0
    /// What each read goes into, made once (reads are by one thread).
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Sends one frame; false when the other side is gone. Never raises SIGPIPE.
    @discardableResult
    func send(_ frame: WorkerFrame) -> Bool {
        let bytes = frame.encoded()
        return writeLock.withLock {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if written < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += written
                }
                return true
            }
        }
    }

    /// The next whole frame, blocking until it has arrived. Throws `.closed` at the end of the stream.
    func receive() throws(ChannelError) -> WorkerFrame {
        while true {
            if let frame = try nextBufferedFrame() { return frame }
            try fillOnce()
        }
    }

    /// A frame already buffered, if a whole one is.
    func nextBufferedFrame() throws(ChannelError) -> WorkerFrame? {
        let available = buffer.count - start
        guard available >= 8 else { return nil }
        let (headerLength, bodyLength) = buffer.withUnsafeBytes { raw in
            (Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt32.self))),
             Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self))))
        }
        guard headerLength + bodyLength <= WorkerFrame.maximumLength else {
            throw .malformed("a frame of \(headerLength + bodyLength) bytes exceeds the limit")
        }
        guard available >= 8 + headerLength + bodyLength else { return nil }
        let headerStart = start + 8
        let bodyStart = headerStart + headerLength
        let header: JSONValue
        do {
            header = try buffer.withUnsafeBufferPointer { all throws(JSONSyntaxError) in
                try JSONValue.parse(UnsafeBufferPointer(rebasing: all[headerStart..<bodyStart]))
            }
        } catch {
            throw .malformed("header: \(error)")
        }
        guard case .object(let object) = header else { throw .malformed("header is not an object") }
        let body = Array(buffer[bodyStart..<bodyStart + bodyLength])
        start = bodyStart + bodyLength
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return WorkerFrame(header: object, body: body)
    }

    func fillOnce() throws(ChannelError) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk.prefix(count))
                return
            }
            if count == 0 { throw .closed }
            if errno == EINTR { continue }
            throw .system("cannot read from the worker channel: \(errnoText())")
        }
    }

    /// Ends both directions: a reader blocked on the other side sees the end of the stream.
    func shutDown() {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    deinit {
        close(descriptor)
    }
}

/// The name and meaning of a signal that ended a process.
func signalDescription(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        SIGSEGV: "SIGSEGV (segmentation fault)",
        SIGABRT: "SIGABRT (abort)",
        SIGILL: "SIGILL (illegal instruction: a Swift runtime trap such as fatalError or a failed precondition)",
        SIGTRAP: "SIGTRAP (trace trap: a Swift runtime trap)",
        SIGBUS: "SIGBUS (bus error)",
        SIGFPE: "SIGFPE (arithmetic error)",
        SIGKILL: "SIGKILL (killed)",
        SIGTERM: "SIGTERM (terminated)",
    ]
    return names[signal] ?? "signal \(signal)"
}
