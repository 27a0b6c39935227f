import Testing
import WidgetSupport
import WidgetTestSupport

@testable import WidgetWeb

/// The HTTP connection as a value: bytes and times in, answers and ends out. No socket, no waiting:
/// every timeout is a time handed to it.
@Suite struct HTTPConnectionTests {
    static let second: UInt64 = 1_000_000_000

    /// A connection opened at time 0, with the default timeouts (first request 5 s, a later one
    /// 10 s, idle 30 s, write 5 s).
    func connection() -> HTTPConnection { HTTPConnection(now: 0) }

    func text(_ output: [UInt8]) -> String { String(decoding: output, as: UTF8.self) }

    /// Answers the request the connection has ready with 200 and its path; returns the path.
    func answer(_ connection: inout HTTPConnection, at now: UInt64) -> String? {
        guard let request = connection.takeRequest() else { return nil }
        connection.answered(.text(200, request.path), stream: false, now: now)
        return request.path
    }

    /// Writes all that is queued, as a reading peer takes it; returns it.
    func drain(_ connection: inout HTTPConnection, at now: UInt64) -> String {
        let sent = text(connection.output)
        connection.wrote(connection.output.count, now: now)
        return sent
    }

    @Test func aClientThatSendsNothingIsClosedAfterTheFirstRequestsTime() {
        var connection = connection()
        #expect(connection.deadline == 5 * Self.second)
        #expect(connection.idleSince == 0)
        connection.timePassed(now: 5 * Self.second - 1)
        #expect(connection.phase == .open)
        connection.timePassed(now: 5 * Self.second)
        #expect(connection.phase == .closed, "nothing sent, nothing to answer: closed")
    }

    @Test func slowlorisIsAnswered408WhenTheFirstRequestsTimeIsUpHoweverItTrickles() {
        var connection = connection()
        // A byte a second, never a whole request: the clock started with the connection, not
        // with the latest byte.
        for (index, byte) in Array("GET / HTTP/1.1\r\nHost: x\r\nX-a: b\r\n".utf8).prefix(4).enumerated() {
            connection.received([byte], now: UInt64(index) * Self.second)
            #expect(connection.deadline == 5 * Self.second)
            #expect(connection.takeRequest() == nil)
        }
        #expect(connection.idleSince != nil, "a request that is not whole holds its slot without progress")
        connection.timePassed(now: 5 * Self.second)
        #expect(connection.phase == .closing)
        #expect(text(connection.output).hasPrefix("HTTP/1.1 408 "), "\(text(connection.output))")
    }

    @Test func aRequestInPiecesIsAnsweredWhenWholeAndPipelinedOnesInOrder() {
        var connection = connection()
        for piece in ["GET /a HT", "TP/1.1\r\nHost: x\r\n", "\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\nGET /c HTTP/1.1\r\nHo"] {
            connection.received(Array(piece.utf8)[...], now: Self.second)
        }
        #expect(connection.wantsInput == false, "a request is ready: the next ones wait in the socket")
        #expect(answer(&connection, at: Self.second) == "/a")
        #expect(answer(&connection, at: Self.second) == "/b", "the pipelined request, whole already")
        #expect(connection.takeRequest() == nil, "the third is not whole")
        #expect(connection.wantsInput)
        connection.received(Array("st: x\r\n\r\n".utf8)[...], now: 2 * Self.second)
        #expect(answer(&connection, at: 2 * Self.second) == "/c")
        let sent = drain(&connection, at: 2 * Self.second)
        #expect(sent.components(separatedBy: "HTTP/1.1 200 OK").count == 4, "\(sent)")
        #expect(sent.contains("Connection: keep-alive"))
    }

    @Test func aKeptAliveConnectionIdlesThenCloses() {
        var connection = connection()
        connection.received(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...], now: Self.second)
        #expect(connection.idleSince == nil, "a whole request: progress")
        _ = answer(&connection, at: Self.second)
        _ = drain(&connection, at: Self.second)
        #expect(connection.idleSince == Self.second)
        #expect(connection.deadline == 31 * Self.second, "idle for 30 s from the answer")
        // A later request's clock starts with its first byte: 10 s.
        connection.received(Array("GET /".utf8)[...], now: 20 * Self.second)
        #expect(connection.deadline == 30 * Self.second)
        connection.received(Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...], now: 29 * Self.second)
        _ = answer(&connection, at: 29 * Self.second)
        _ = drain(&connection, at: 29 * Self.second)
        connection.timePassed(now: 59 * Self.second - 1)
        #expect(connection.phase == .open)
        connection.timePassed(now: 59 * Self.second)
        #expect(connection.phase == .closed)
    }

    @Test func aPeerThatStopsReadingIsDropped() {
        var connection = connection()
        connection.received(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...], now: 0)
        _ = answer(&connection, at: 0)
        connection.wrote(10, now: Self.second)
        #expect(connection.deadline == 6 * Self.second, "5 s for the rest to make progress")
        connection.timePassed(now: 6 * Self.second)
        #expect(connection.phase == .closed)
    }

    @Test func malformedRequestsAreAnsweredAndEndTheConnection() {
        var connection = connection()
        connection.received(Array("NOT HTTP AT ALL\r\n\r\n".utf8)[...], now: 0)
        #expect(connection.phase == .closing)
        #expect(text(connection.output).hasPrefix("HTTP/1.1 400 "))
        var large = self.connection()
        large.received(Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "b", count: 20_000)).utf8)[...], now: 0)
        #expect(text(large.output).hasPrefix("HTTP/1.1 431 "))
    }

    @Test func anAnswerSayingCloseOrAClientThatHalfClosedEndsIt() {
        var connection = connection()
        connection.received(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...], now: 0)
        let request = connection.takeRequest()
        #expect(request != nil)
        connection.inputEnded(now: 0)
        #expect(connection.phase == .open, "its request is still answered")
        connection.answered(.text(200, "ok"), stream: false, now: 0)
        #expect(connection.phase == .closing)
        #expect(text(connection.output).contains("Connection: close"))
        var refused = self.connection()
        refused.received(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...], now: 0)
        _ = refused.takeRequest()
        refused.answered(.text(403, "no", headers: [("Connection", "close")]), stream: false, now: 0)
        #expect(refused.phase == .closing)
    }

    @Test func aStreamCarriesEventsUntilThePageGoesOrFallsTooFarBehind() {
        var timeouts = HTTPConnection.Timeouts()
        timeouts.streamBacklog = 100
        var connection = HTTPConnection(now: 0, timeouts: timeouts)
        connection.received(Array("GET /events HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...], now: 0)
        _ = connection.takeRequest()
        connection.answered(HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")]), stream: true, now: 0)
        #expect(connection.idleSince == nil, "a stream is never evicted as idle")
        #expect(connection.deadline != nil, "its head waits to be written")
        let head = drain(&connection, at: 0)
        #expect(!head.contains("Content-Length"))
        #expect(connection.deadline == nil, "an open stream waits for ever")
        connection.streamed(Array("data: 1\n\n".utf8), now: 1)
        #expect(drain(&connection, at: 1) == "data: 1\n\n")
        for _ in 0..<20 { connection.streamed(Array("data: 1\n\n".utf8), now: 2) }
        #expect(connection.phase == .closed, "more than 100 bytes unsent")
        var gone = self.connection()
        gone.received(Array("GET /events HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...], now: 0)
        _ = gone.takeRequest()
        gone.answered(HTTPResponse(status: 200), stream: true, now: 0)
        _ = drain(&gone, at: 0)
        gone.inputEnded(now: 1)
        #expect(gone.phase == .closed)
    }

    /// Bytes in any order and any cut, at any time: the connection answers each whole request it
    /// reads with one response or ends with one refusal, and never answers more than it was asked.
    @Test func randomTrafficAlwaysGetsWellFormedResponses() {
        var generator = SeededGenerator(state: 0x5EED)
        let pieces = ["GET / HTTP/1.1\r\nHost: x\r\n\r\n", "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", "GET", " ", "\r\n", "\n",
                      "Host: x", "HTTP/1.0", "Content-Length: 99999999\r\n", "\u{0}", "X: y\r\n", ":"]
        for _ in 0..<500 {
            var connection = connection()
            var now: UInt64 = 0
            var asked = 0
            for _ in 0..<Int.random(in: 1...30, using: &generator) {
                now += UInt64.random(in: 0...(3 * Self.second), using: &generator)
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: connection.timePassed(now: now)
                case 1: connection.inputEnded(now: now)
                default: connection.received(Array(pieces.randomElement(using: &generator)!.utf8)[...], now: now)
                }
                while let request = connection.takeRequest() {
                    asked += 1
                    connection.answered(.text(200, request.path), stream: false, now: now)
                }
                guard connection.phase == .open else { break }
            }
            // The output is whole responses, one after another, each framed by its length.
            var rest = Substring(text(connection.output))
            var responses = 0
            while !rest.isEmpty {
                guard let headEnd = rest.range(of: "\r\n\r\n") else {
                    Issue.record("a response without a whole head: \(rest.prefix(60).debugDescription)")
                    break
                }
                let head = rest[..<headEnd.lowerBound].split(separator: "\r\n")
                let status = head.first.flatMap { $0.hasPrefix("HTTP/1.1 ") ? Int($0.dropFirst(9).prefix(3)) : nil } ?? 0
                #expect([200, 400, 408, 413, 431].contains(status), "\(head.first ?? "")")
                let length = head.compactMap { $0.hasPrefix("Content-Length: ") ? Int($0.dropFirst(16)) : nil }.first ?? -1
                #expect(length >= 0, "every answer says its length")
                let body = rest[headEnd.upperBound...]
                guard length >= 0, body.utf8.count >= length else { break }
                rest = Substring(String(decoding: Array(body.utf8).dropFirst(length), as: UTF8.self))
                responses += 1
            }
            #expect(responses <= asked + 1, "one answer per request, and at most one refusal")
        }
    }
}

