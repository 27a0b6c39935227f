import WidgetSupport

/// One HTTP/1.1 connection's protocol, as a value (a `ConnectionMachine`): requests read from the
/// bytes that arrive (pipelined ones in order, one at a time), answers queued, keep-alive, event
/// streams, and every timeout:
///
/// - **the first request** must be whole within `firstRequest` of the connection's start: a client
///   that connects and sends nothing, or sends slowly (slowloris), holds a slot no longer;
/// - **a later request** must be whole within `request` of its first byte;
/// - **between requests** a kept-alive connection may idle for `idle`;
/// - **queued output** must make progress within `write` (a peer that stops reading is dropped).
///
/// A client that sent part of a request when its time ran out is answered 408; a malformed request
/// is answered with its status (400, 413, 431) and the connection closed.
package struct HTTPConnection: ConnectionMachine {
    package typealias Request = HTTPRequest
    package typealias Answer = HTTPResponse

    package struct Timeouts: Sendable {
        package var firstRequest: UInt64 = 5_000_000_000
        package var request: UInt64 = 10_000_000_000
        package var idle: UInt64 = 30_000_000_000
        package var write: UInt64 = 5_000_000_000
        /// The most a stream may have queued and unsent before it is dropped.
        package var streamBacklog = 16 << 20

        package init() {}
    }

    private enum Stage {
        /// No byte of the next request yet, since `since`; until `deadline`.
        case waiting(since: UInt64, deadline: UInt64, first: Bool)
        /// Part of a request, since `started`; whole by `deadline`.
        case reading(started: UInt64, deadline: UInt64)
        /// A whole request, not yet taken by the loop.
        case ready(HTTPRequest)
        /// Its answer is being made.
        case answering(keepAlive: Bool)
        /// Carrying a stream of events until either side ends it.
        case streaming
    }

    package let limits: HTTPLimits
    package let timeouts: Timeouts
    private var stage: Stage
    private var buffer: [UInt8] = []
    private var outgoing = OutgoingBytes()
    package var output: [UInt8] { outgoing.bytes }
    package private(set) var phase = ConnectionPhase.open
    /// The peer has shut its side: once the request being answered is, the connection ends.
    private var inputDone = false
    /// Whether what arrived since the last parse can complete a request: a client sending a byte at
    /// a time is parsed when a line ends or its body is whole, not at every byte.
    private var parseNeeded = false
    private var wholeAt: Int?

    package init(now: UInt64, limits: HTTPLimits = HTTPLimits(), timeouts: Timeouts = Timeouts()) {
        self.limits = limits
        self.timeouts = timeouts
        stage = .waiting(since: now, deadline: now + timeouts.firstRequest, first: true)
    }

    package var wantsInput: Bool {
        switch stage {
        case .waiting, .reading, .streaming: phase == .open
        case .ready, .answering: false
        }
    }

    package var deadline: UInt64? {
        var due: UInt64?
        switch stage {
        case .waiting(_, let deadline, _), .reading(_, let deadline): due = deadline
        case .ready, .answering, .streaming: break
        }
        if let writing = outgoing.deadline(timeouts.write) { due = min(due ?? .max, writing) }
        return due
    }

    package var idleSince: UInt64? {
        switch stage {
        case .waiting(let since, _, _): since
        // A request that is not whole holds its slot without progress, as much as silence does.
        case .reading(let started, _): started
        case .ready, .answering, .streaming: nil
        }
    }

    package mutating func received(_ bytes: ArraySlice<UInt8>, now: UInt64) {
        guard phase == .open else { return }
        switch stage {
        case .streaming:
            return  // a page sends nothing on its stream
        case .ready, .answering:
            buffer.append(contentsOf: bytes)  // pipelined: read when this one is answered
            return
        case .waiting(_, let deadline, let first):
            // The first request's clock started with the connection; a later one's with its first byte.
            stage = .reading(started: now, deadline: first ? deadline : now + timeouts.request)
        case .reading:
            break
        }
        buffer.append(contentsOf: bytes)
        if let wholeAt {
            parseNeeded = parseNeeded || buffer.count >= wholeAt
        } else {
            parseNeeded = parseNeeded || bytes.contains(0x0A) || buffer.count > limits.headerBytes
        }
        parse(now: now)
    }

    private mutating func parse(now: UInt64) {
        guard case .reading = stage, parseNeeded else { return }
        parseNeeded = false
        switch HTTPParser.parse(buffer, limits: limits) {
        case .refused(let refusal):
            finish(with: .text(refusal.status, refusal.reason), now: now)
        case .request(let request, let consumed):
            buffer.removeFirst(consumed)
            wholeAt = nil
            stage = .ready(request)
        case .incomplete(let until):
            wholeAt = until
        }
    }

    package mutating func takeRequest() -> HTTPRequest? {
        guard phase == .open, case .ready(let request) = stage else { return nil }
        stage = .answering(keepAlive: request.keepsAlive)
        return request
    }

    package mutating func answered(_ answer: HTTPResponse, stream: Bool, now: UInt64) {
        guard phase == .open, case .answering(let keepAlive) = stage else { return }
        if stream {
            enqueue(answer.head(keepAlive: false, streaming: true) + answer.body, now: now)
            stage = .streaming
            return
        }
        let close = !keepAlive || inputDone || answer.header("connection")?.lowercased() == "close"
        enqueue(answer.head(keepAlive: !close) + answer.body, now: now)
        if close {
            phase = .closing
            return
        }
        stage = .waiting(since: now, deadline: now + timeouts.idle, first: false)
        if !buffer.isEmpty {
            // A pipelined request may be whole already.
            stage = .reading(started: now, deadline: now + timeouts.request)
            parseNeeded = true
            wholeAt = nil
            parse(now: now)
        }
    }

    package mutating func streamed(_ bytes: [UInt8], now: UInt64) {
        guard phase == .open, case .streaming = stage else { return }
        enqueue(bytes, now: now)
        if output.count > timeouts.streamBacklog { phase = .closed }
    }

    package mutating func wrote(_ count: Int, now: UInt64) {
        outgoing.sent(count, now: now)
    }

    package mutating func inputEnded(now: UInt64) {
        guard phase == .open else { return }
        inputDone = true
        switch stage {
        case .streaming, .waiting:
            phase = output.isEmpty ? .closed : .closing
        case .reading:
            // Part of a request and no more to come: nothing to answer.
            phase = .closed
        case .ready, .answering:
            break  // answered, then closed
        }
    }

    package mutating func timePassed(now: UInt64) {
        guard phase != .closed else { return }
        if let writing = outgoing.deadline(timeouts.write), now >= writing {
            phase = .closed  // the peer does not read
            return
        }
        guard phase == .open else { return }
        switch stage {
        case .waiting(_, let deadline, _) where now >= deadline:
            phase = output.isEmpty ? .closed : .closing
        case .reading(_, let deadline) where now >= deadline:
            finish(with: .text(408, "the request did not arrive in time"), now: now)
        default:
            break
        }
    }

    private mutating func enqueue(_ bytes: [UInt8], now: UInt64) {
        outgoing.append(bytes, now: now)
    }

    /// Answers with `response` and ends the connection.
    private mutating func finish(with response: HTTPResponse, now: UInt64) {
        enqueue(response.head(keepAlive: false) + response.body, now: now)
        phase = .closing
    }
}
