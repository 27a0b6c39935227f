import Foundation
import Glibc
import WidgetWire

/// One message between the host and a worker process.
///
/// On the wire: `[u32 length][u8 type][fields]`, the length counting what follows it, integers
/// little-endian. A request carries what the ABI's `widget_request_t` carries, with the C header's
/// numbers for the request kind, family and environment, and its configuration as the JSON the
/// bundle reads; an answer carries the bundle's bytes as it gave them (the host checks them). Both
/// are fields in a fixed order, so neither side parses JSON to route a request. Only the worker's
/// first message, what it loaded, is a JSON object.
enum WorkerMessage: Sendable {
    /// Worker to host, first and once: the bundle it loaded, its widgets and its problems.
    case hello(JSONObject)
    /// Host to worker: one request for one provider.
    case request(WorkerRequest)
    /// Host to worker: the host's time, by which the worker's deadlines are measured.
    case clock(now: Date)
    /// Worker to host: a request's answer.
    case answer(WorkerAnswer)

    /// The type byte on the wire.
    fileprivate enum Tag: UInt8 {
        case hello = 1, request, clock, answer
    }

    /// Bodies are bounded by the ABI's result limit, with room for the fields around them.
    static let maximumLength = PendingRequests.maximumResultBytes + (1 << 20)

    /// The message on the wire, its length first: its fields are counted, then written, in one
    /// allocation (a request and an answer are encoded on every round trip).
    func encoded() -> [UInt8] {
        switch self {
        case .hello(let object):
            var json = JSONWriter(reservingCapacity: 1024)
            json.write(.object(object))
            return MessageWriter.message(.hello) { $0.raw(json.bytes) }
        case .request(let request):
            var widget = request.widget
            var parameter = request.parameter
            return MessageWriter.message(.request) { writer in
                writer.integer(request.id)
                writer.integer(request.kind.abiValue)
                writer.integer(request.family.abiValue)
                writer.integer(request.isPreview ? 1 as UInt8 : 0)
                writer.integer(request.environment.abiColorScheme)
                writer.integer(request.environment.abiRenderingMode)
                writer.integer(request.environment.showsContainerBackground ? 1 as UInt8 : 0)
                writer.date(request.now)
                writer.date(request.due)
                writer.string(&widget)
                writer.integer(parameter == nil ? 0 as UInt8 : 1)
                if parameter != nil { writer.string(&parameter!) }
                writer.data(request.configuration)
            }
        case .clock(let now):
            return MessageWriter.message(.clock) { $0.date(now) }
        case .answer(let answer):
            var reason = ""
            var message = ""
            if case .error(let given, let text) = answer.outcome { (reason, message) = (given.rawValue, text) }
            return MessageWriter.message(.answer) { writer in
                writer.integer(answer.id)
                writer.integer(answer.stuck ? 1 as UInt8 : 0)
                writer.integer(answer.liveBytes ?? -1)
                writer.integer(answer.peakBytes ?? -1)
                switch answer.outcome {
                case .result(let bytes):
                    writer.integer(0 as UInt8)
                    writer.data(bytes)
                case .error:
                    writer.integer(1 as UInt8)
                    writer.string(&reason)
                    writer.string(&message)
                }
            }
        }
    }

    /// Decodes the fields after the length; throws what is wrong with them.
    init(fields: UnsafeRawBufferPointer) throws(ChannelError) {
        var reader = MessageReader(fields)
        let tagByte: UInt8 = try reader.integer("its type")
        guard let tag = Tag(rawValue: tagByte) else { throw .malformed("unknown message type \(tagByte)") }
        switch tag {
        case .hello:
            let json: JSONValue
            do {
                json = try JSONValue.parse(reader.rest().assumingMemoryBound(to: UInt8.self))
            } catch {
                throw .malformed("hello: \(error)")
            }
            guard case .object(let object) = json else { throw .malformed("hello: not a JSON object") }
            self = .hello(object)
            return
        case .request:
            let id: UInt64 = try reader.integer("a request's id")
            let kindValue: UInt32 = try reader.integer("a request's kind")
            guard let kind = RequestKind(abiValue: kindValue) else { throw .malformed("a request of unknown kind \(kindValue)") }
            let familyValue: UInt32 = try reader.integer("a request's family")
            guard let family = WidgetFamily(abiValue: familyValue) else { throw .malformed("a request for unknown family \(familyValue)") }
            let isPreview: UInt8 = try reader.integer("a request's preview flag")
            let colorScheme: UInt32 = try reader.integer("a request's colour scheme")
            let renderingMode: UInt32 = try reader.integer("a request's rendering mode")
            let background: UInt8 = try reader.integer("a request's container background flag")
            let now = try reader.date("a request's time")
            let due = try reader.date("a request's deadline")
            let widget = try reader.string("a request's widget kind")
            let parameter = try reader.optionalString("a request's parameter")
            let configuration = try reader.data("a request's configuration")
            self = .request(
                WorkerRequest(
                    id: id, kind: kind, widget: widget, family: family, isPreview: isPreview != 0,
                    environment: RenderingEnvironment(abiColorScheme: colorScheme, abiRenderingMode: renderingMode, showsContainerBackground: background != 0),
                    now: now, due: due, parameter: parameter, configuration: configuration))
        case .clock:
            self = .clock(now: try reader.date("the clock's time"))
        case .answer:
            let id: UInt64 = try reader.integer("an answer's id")
            let stuck: UInt8 = try reader.integer("an answer's stuck flag")
            let live: Int64 = try reader.integer("an answer's live bytes")
            let peak: Int64 = try reader.integer("an answer's peak bytes")
            let outcome: WorkerAnswer.Outcome
            switch try reader.integer("an answer's outcome") as UInt8 {
            case 0:
                outcome = .result(try reader.data("an answer's result"))
            case 1:
                let reasonText = try reader.string("an error's reason")
                // A reason this host does not know still fails the request, as the provider's failure.
                let reason = RequestError.Reason(rawValue: reasonText) ?? .providerFailed
                outcome = .error(reason, try reader.string("an error's message"))
            case let other:
                throw .malformed("an answer with unknown outcome \(other)")
            }
            self = .answer(
                WorkerAnswer(id: id, outcome: outcome, stuck: stuck != 0, liveBytes: live < 0 ? nil : live, peakBytes: peak < 0 ? nil : peak))
        }
        guard reader.isAtEnd else { throw .malformed("\(reader.remaining) \(reader.remaining == 1 ? "byte" : "bytes") after a \(tag) message") }
    }
}

/// A request for one provider, as the host sends it to the bundle's worker.
struct WorkerRequest: Sendable {
    var id: UInt64
    var kind: RequestKind
    /// The widget's kind.
    var widget: String
    var family: WidgetFamily
    var isPreview: Bool
    var environment: RenderingEnvironment
    /// The host's time when it sent the request, and the request's deadline on the host's clock.
    var now: Date
    var due: Date
    /// The parameter's name, the URL or the intent, for the request kinds that carry one.
    var parameter: String?
    /// The configuration, as the JSON the bundle reads.
    var configuration: [UInt8]
}

/// A worker's answer to one request.
struct WorkerAnswer: Sendable {
    enum Outcome: Sendable {
        /// The bundle's bytes as it gave them.
        case result([UInt8])
        case error(RequestError.Reason, String)
    }

    var id: UInt64
    var outcome: Outcome
    /// The call is still inside the bundle after its deadline: only ending the worker takes it back.
    var stuck: Bool
    /// The provider's memory after the call (nil when the worker has no memory guard).
    var liveBytes: Int64?
    var peakBytes: Int64?
}

/// Writes one message's fields in order. `message` runs the same writing twice: first only
/// counting the bytes, then storing them in a buffer of that size, so the size cannot disagree with
/// the fields.
private struct MessageWriter {
    /// Nil while counting.
    private let base: UnsafeMutableRawPointer?
    private(set) var offset = 0

    /// A whole message: its length, its type, and the fields `write` writes.
    static func message(_ tag: WorkerMessage.Tag, _ write: (inout MessageWriter) -> Void) -> [UInt8] {
        var counter = MessageWriter(base: nil)
        write(&counter)
        let total = 4 + 1 + counter.offset
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            var writer = MessageWriter(base: UnsafeMutableRawPointer(buffer.baseAddress!))
            writer.integer(UInt32(1 + counter.offset))
            writer.integer(tag.rawValue)
            write(&writer)
            count = total
        }
    }

    private init(base: UnsafeMutableRawPointer?) { self.base = base }

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        base.map { ($0 + offset).storeBytes(of: value.littleEndian, as: T.self) }
        offset += MemoryLayout<T>.size
    }

    mutating func date(_ date: Date) { integer(date.timeIntervalSince1970.bitPattern) }

    mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        if let base, let source = bytes.baseAddress { (base + offset).copyMemory(from: source, byteCount: bytes.count) }
        offset += bytes.count
    }

    mutating func raw(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw($0) }
    }

    mutating func data(_ data: [UInt8]) {
        integer(UInt32(data.count))
        raw(data)
    }

    /// Its UTF-8, counted; `inout` only to read a native string's bytes in place.
    mutating func string(_ string: inout String) {
        string.withUTF8 { utf8 in
            integer(UInt32(utf8.count))
            raw(UnsafeRawBufferPointer(utf8))
        }
    }
}

/// Reads one message's fields in order, each checked against what is left.
private struct MessageReader {
    private let fields: UnsafeRawBufferPointer
    private var offset = 0

    init(_ fields: UnsafeRawBufferPointer) { self.fields = fields }

    var remaining: Int { fields.count - offset }
    var isAtEnd: Bool { offset == fields.count }

    private mutating func take(_ count: Int, _ what: String) throws(ChannelError) -> UnsafeRawBufferPointer {
        guard count <= remaining else { throw .malformed("\(what) is cut short") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: fields[offset..<offset + count])
    }

    mutating func integer<T: FixedWidthInteger>(_ what: String) throws(ChannelError) -> T {
        T(littleEndian: try take(MemoryLayout<T>.size, what).loadUnaligned(as: T.self))
    }

    mutating func date(_ what: String) throws(ChannelError) -> Date {
        let seconds = Double(bitPattern: try integer(what))
        guard seconds.isFinite else { throw .malformed("\(what) is not a finite time") }
        return Date(timeIntervalSince1970: seconds)
    }

    mutating func data(_ what: String) throws(ChannelError) -> [UInt8] {
        let count = Int(try integer(what) as UInt32)
        return Array(try take(count, what))
    }

    mutating func string(_ what: String) throws(ChannelError) -> String {
        let count = Int(try integer(what) as UInt32)
        return String(decoding: try take(count, what), as: UTF8.self)
    }

    mutating func optionalString(_ what: String) throws(ChannelError) -> String? {
        switch try integer(what) as UInt8 {
        case 0: return nil
        case 1: return try string(what)
        case let other: throw .malformed("\(what) has an unknown presence flag \(other)")
        }
    }

    mutating func rest() -> UnsafeRawBufferPointer {
        defer { offset = fields.count }
        return UnsafeRawBufferPointer(rebasing: fields[offset...])
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

/// Whether a reader waiting for input spins before it sleeps: only while input has been coming
/// within `window` of the reader starting to wait, as a worker's requests do when a host asks one
/// after another.
///
/// On this machine's virtual processors most of a round trip to a worker is spent waking threads:
/// an idle processor halts, and the request that wakes it waits for the hypervisor. A worker that
/// keeps polling for a moment after it answers is awake when the next request comes. The spin is
/// bounded: a wait that outlasts the window ends it, so a worker asked now and then spins at most
/// `window` after each answer and then sleeps in `poll` until it is asked again.
struct SpinPolicy {
    static let window: Duration = .microseconds(50)
    private(set) var spins = false

    /// How long the last wait lasted, from its start until input came.
    mutating func waited(_ duration: Duration) {
        spins = duration <= Self.window
    }
}

/// A connected socket carrying messages both ways. Writes from several threads are whole messages,
/// one at a time; reads are made by one thread at a time.
final class WorkerChannel: @unchecked Sendable {
    let descriptor: Int32
    private let writeLock = NSLock()
    // `@exclusivity(unchecked)`: state only touched by the one reading thread (docs/ISOLATION.md, "Cost").
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private(set) var spinning = SpinPolicy()
    /// What each read goes into, made once (reads are by one thread).
    @exclusivity(unchecked) private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Sends one message; false when the other side is gone. Never raises SIGPIPE.
    @discardableResult
    func send(_ message: WorkerMessage) -> Bool {
        let bytes = message.encoded()
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

    /// The next whole message, blocking until it has arrived. Throws `.closed` at the end of the stream.
    ///
    /// It waits in `poll`, not in `recv`: a thread blocked in `recv` on a Unix socket sleeps on the
    /// same wait queue as a writer waiting for room, so it is woken, for nothing, each time the other
    /// side reads what this side sent (every answer, for a worker). `poll` wakes only for input.
    func receive() throws(ChannelError) -> WorkerMessage {
        while true {
            if let message = try nextBufferedMessage() { return message }
            try awaitInput()
            try fillOnce()
        }
    }

    /// Blocks until there is something to read, or the other side has closed. Spins first while
    /// `spinning` says the input has been coming quickly.
    private func awaitInput() throws(ChannelError) {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let began = ContinuousClock.now
        if spinning.spins {
            while ContinuousClock.now - began < SpinPolicy.window {
                if poll(&waiting, 1, 0) > 0 {
                    spinning.waited(ContinuousClock.now - began)
                    return
                }
                // Whatever else is ready to run on this processor goes first.
                sched_yield()
            }
        }
        while poll(&waiting, 1, -1) < 0 {
            if errno != EINTR { throw .system("cannot wait on the worker channel: \(errnoText())") }
        }
        spinning.waited(ContinuousClock.now - began)
    }

    /// A message already buffered, if a whole one is.
    func nextBufferedMessage() throws(ChannelError) -> WorkerMessage? {
        let available = buffer.count - start
        guard available >= 4 else { return nil }
        let length = buffer.withUnsafeBytes { raw in
            Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
        }
        guard length <= WorkerMessage.maximumLength else {
            throw .malformed("a message of \(length) bytes exceeds the limit of \(WorkerMessage.maximumLength)")
        }
        guard available >= 4 + length else { return nil }
        let fieldsStart = start + 4
        let message = try buffer.withUnsafeBytes { raw in
            Result { () throws(ChannelError) in try WorkerMessage(fields: UnsafeRawBufferPointer(rebasing: raw[fieldsStart..<fieldsStart + length])) }
        }.get()
        start = fieldsStart + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return message
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
