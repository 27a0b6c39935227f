import WidgetSupport
import WidgetWire

/// One control socket connection's protocol, as a value (a `ConnectionMachine`): one JSON object
/// per line each way, requests answered in order. A line that is not a request object is answered
/// with the error and the connection goes on; a line over `ControlSocket.maximumLineLength` is
/// answered and ends the connection. A connection that sends no complete request for
/// `idleTimeout` (bytes trickling in do not count) is told so and closed; a last request without
/// its newline is answered when the peer stops sending. After `watch` the connection carries the
/// host's events, one per line, until either side ends it.
package struct ControlConnection: ConnectionMachine {
    package typealias Request = JSONValue
    package typealias Answer = JSONValue

    private enum Stage {
        case waiting(since: UInt64)
        case ready(JSONValue)
        case answering
        case streaming
    }

    package let idleTimeout: UInt64
    package let writeTimeout: UInt64
    private var stage: Stage
    private var buffer: [UInt8] = []
    private var outgoing = OutgoingBytes()
    package var output: [UInt8] { outgoing.bytes }
    package private(set) var phase = ConnectionPhase.open
    private var inputDone = false

    package init(now: UInt64, idleTimeout: UInt64 = 10_000_000_000, writeTimeout: UInt64 = 5_000_000_000) {
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        stage = .waiting(since: now)
    }

    /// A value as one line of the protocol.
    package static func line(_ value: JSONValue) -> [UInt8] { Array(value.jsonText.utf8) + [UInt8(ascii: "\n")] }

    package var wantsInput: Bool {
        switch stage {
        case .waiting, .streaming: phase == .open && !inputDone
        case .ready, .answering: false
        }
    }

    package var deadline: UInt64? {
        var due: UInt64?
        if case .waiting(let since) = stage, phase == .open { due = since + idleTimeout }
        if let writing = outgoing.deadline(writeTimeout) { due = min(due ?? .max, writing) }
        return due
    }

    package var idleSince: UInt64? {
        if case .waiting(let since) = stage { return since }
        return nil
    }

    package mutating func received(_ bytes: ArraySlice<UInt8>, now: UInt64) {
        guard phase == .open else { return }
        if case .streaming = stage { return }  // what a watcher sends is ignored
        buffer.append(contentsOf: bytes)
        nextRequest(now: now)
    }

    /// Takes the next line, when waiting for one: a request to answer, or a refusal answered here.
    private mutating func nextRequest(now: UInt64) {
        while phase == .open, case .waiting = stage {
            guard let end = buffer.firstIndex(of: UInt8(ascii: "\n")) else {
                if buffer.count > ControlSocket.maximumLineLength {
                    finish(with: ControlServer.failure("request longer than \(ControlSocket.maximumLineLength) bytes; closing the connection"), now: now)
                } else if inputDone {
                    // The peer is done sending: a last request without its newline is still answered.
                    if buffer.isEmpty {
                        phase = output.isEmpty ? .closed : .closing
                    } else {
                        let last = buffer
                        buffer = []
                        take(last, now: now)
                    }
                }
                return
            }
            let line = Array(buffer[..<end])
            buffer.removeSubrange(...end)
            take(line, now: now)
        }
    }

    private mutating func take(_ line: [UInt8], now: UInt64) {
        switch Self.request(line) {
        case .success(let request): stage = .ready(request)
        case .failure(let refusal): enqueue(Self.line(refusal.answer), now: now)
        }
    }

    /// A request line parsed, or the answer that refuses it.
    static func request(_ line: [UInt8]) -> Result<JSONValue, JSONRefusal> {
        let request: JSONValue
        do {
            request = try JSONValue.parse(line)
        } catch {
            return .failure(JSONRefusal(ControlServer.failure("malformed request: \(error)")))
        }
        guard case .object = request, request["request"]?.stringValue != nil else {
            return .failure(JSONRefusal(ControlServer.failure("malformed request: expected an object with a \"request\" member")))
        }
        return .success(request)
    }

    package mutating func takeRequest() -> JSONValue? {
        guard phase == .open, case .ready(let request) = stage else { return nil }
        stage = .answering
        return request
    }

    package mutating func answered(_ answer: JSONValue, stream: Bool, now: UInt64) {
        guard phase == .open, case .answering = stage else { return }
        enqueue(Self.line(answer), now: now)
        if stream {
            stage = .streaming
            buffer = []
            return
        }
        stage = .waiting(since: now)
        nextRequest(now: now)
    }

    package mutating func streamed(_ bytes: [UInt8], now: UInt64) {
        guard phase == .open, case .streaming = stage else { return }
        enqueue(bytes, now: now)
    }

    package mutating func wrote(_ count: Int, now: UInt64) {
        outgoing.sent(count, now: now)
    }

    package mutating func inputEnded(now: UInt64) {
        guard phase == .open else { return }
        inputDone = true
        switch stage {
        case .streaming: phase = .closed
        case .waiting: nextRequest(now: now)
        case .ready, .answering: break  // answered, then the line after it is looked at
        }
    }

    package mutating func timePassed(now: UInt64) {
        guard phase != .closed else { return }
        if let writing = outgoing.deadline(writeTimeout), now >= writing {
            phase = .closed  // the peer does not read
            return
        }
        if phase == .open, case .waiting(let since) = stage, now >= since + idleTimeout {
            finish(with: ControlServer.failure("no complete request for \(timeSpan(Double(idleTimeout) / 1e9)); closing the connection"), now: now)
        }
    }

    private mutating func enqueue(_ bytes: [UInt8], now: UInt64) {
        outgoing.append(bytes, now: now)
    }

    private mutating func finish(with answer: JSONValue, now: UInt64) {
        enqueue(Self.line(answer), now: now)
        phase = .closing
    }
}

/// The answer that refuses a line.
struct JSONRefusal: Error {
    let answer: JSONValue
    init(_ answer: JSONValue) { self.answer = answer }
}
