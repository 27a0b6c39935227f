import Foundation
import Glibc
import Synchronization
import Testing
import WidgetTestSupport
@testable import WidgetWeb

/// The home screen's HTTP/1.1: its parser with bad input, and the server over real sockets.
@Suite struct HTTPParserTests {
    func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPParser.Outcome {
        HTTPParser.parse(Array(text.utf8), limits: limits)
    }

    func refusal(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPRefusal? {
        if case .refused(let refusal) = parse(text, limits: limits) { return refusal }
        return nil
    }

    @Test func aRequestIsReadWithItsPathQueryHeadersAndBody() throws {
        guard case .request(let request, let consumed) = parse("POST /a%20b?x=1&y=two+words&x=2 HTTP/1.1\r\nHost: h:1\r\nContent-Length: 5\r\nCookie: a=1; widgets_token=abc\r\n\r\nhelloGET") else {
            Issue.record("not read")
            return
        }
        #expect(request.method == "POST")
        #expect(request.path == "/a b")
        #expect(request.query == ["x": "1", "y": "two words"])
        #expect(request.header("HOST") == "h:1")
        #expect(request.cookie("widgets_token") == "abc")
        #expect(String(decoding: request.body, as: UTF8.self) == "hello")
        #expect(consumed == Array("POST /a%20b?x=1&y=two+words&x=2 HTTP/1.1\r\nHost: h:1\r\nContent-Length: 5\r\nCookie: a=1; widgets_token=abc\r\n\r\nhello".utf8).count)
        #expect(request.keepsAlive)
    }

    @Test func partsOfARequestWaitForTheRest() {
        for text in ["", "GET / HT", "GET / HTTP/1.1\r\nHost: h\r\n", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc"] {
            guard case .incomplete = parse(text) else {
                Issue.record("\(text.debugDescription) was not incomplete")
                continue
            }
        }
    }

    @Test func malformedRequestsAreRefusedWithTheirStatus() {
        #expect(refusal("GARBAGE\r\n\r\n")?.status == 400)
        #expect(refusal("GET /\r\nHost: h\r\n\r\n")?.status == 400)
        #expect(refusal("GET http://elsewhere/ HTTP/1.1\r\nHost: h\r\n\r\n")?.status == 400)
        #expect(refusal("GET / HTTP/2.0\r\nHost: h\r\n\r\n")?.status == 400)
        #expect(refusal("GET / HTTP/1.1\r\n\r\n")?.reason == "an HTTP/1.1 request needs exactly one Host header")
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")?.status == 400)
        #expect(refusal("GET / HTTP/1.1\r\nHost: h\r\nBad Name: x\r\n\r\n")?.status == 400)
        #expect(refusal("GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n")?.status == 400)
        #expect(refusal("GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n folded\r\n\r\n")?.status == 400)
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n")?.status == 400)
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n")?.status == 400)
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")?.status == 400)
        #expect(refusal("GET /%zz HTTP/1.1\r\nHost: h\r\n\r\n")?.status == 400)
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 65537\r\n\r\n")?.status == 413)
        #expect(refusal("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n")?.status == 413)
        let long = "GET / HTTP/1.1\r\nHost: h\r\nX: \(String(repeating: "a", count: 17000))\r\n\r\n"
        #expect(refusal(long)?.status == 431)
        // Past the limit without an end is refused at once, not waited on.
        #expect(refusal("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 17000))")?.status == 431)
    }

    @Test func emptyLinesBeforeTheRequestAreSkippedAndCostNoMoreThanTheirLength() {
        guard case .request(let request, _) = parse("\r\n\r\nGET /x HTTP/1.1\r\nHost: h\r\n\r\n") else {
            Issue.record("not read")
            return
        }
        #expect(request.path == "/x")
        // 16 KiB of empty lines: refused as too long, read once, not once per line.
        #expect(refusal(String(repeating: "\n", count: 17_000))?.status == 431)
    }

    /// Seeded, so a failure repeats. Every outcome is a request that took some of the bytes, a
    /// refusal with a status the server sends, or a wait for more; and a refusal stays one as more
    /// bytes come (a client cannot talk its way past it).
    @Test func fuzzedRequestsAreReadRefusedOrAwaitedNeverAnythingElse() {
        var generator = SeededGenerator(state: 0x4854_5450)
        let pieces = ["GET", "POST", " ", "/", "?", "=", "&", "%", "\r\n", "\n", ":", "Host", "Content-Length", "1", "99", "HTTP/1.1", "\0", "\u{FF}"]
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(text.utf8)
            switch HTTPParser.parse(bytes) {
            case .request(let request, let consumed):
                #expect(consumed > 0 && consumed <= bytes.count, "\(text.debugDescription)")
                #expect(request.path.hasPrefix("/") && ["HTTP/1.1", "HTTP/1.0"].contains(request.version), "\(text.debugDescription)")
            case .refused(let refusal):
                #expect([400, 413, 431].contains(refusal.status), "\(text.debugDescription)")
                if case .refused = HTTPParser.parse(bytes + Array("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) {} else {
                    Issue.record("more bytes turned a refusal into something else: \(text.debugDescription)")
                }
            case .incomplete(let until):
                #expect(until.map { $0 > bytes.count } ?? true, "\(text.debugDescription)")
            }
        }
    }
}

@Suite struct HTTPServerTests {
    /// A server answering every request with its method and path.
    func echo(_ settings: HTTPServer.Settings = HTTPServer.Settings()) throws -> HTTPServer {
        try HTTPServer(address: ListenAddress(host: "127.0.0.1", port: 0), settings: settings) { request in
            .response(.text(200, "\(request.method) \(request.path) \(request.body.count)"))
        }
    }

    @Test func addressesAreParsedAndBadOnesNamed() throws {
        #expect(try ListenAddress(parsing: "127.0.0.1:8080") == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(try ListenAddress(parsing: "8080") == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(try ListenAddress(parsing: "localhost:0") == ListenAddress(host: "127.0.0.1", port: 0))
        #expect(try ListenAddress(parsing: "[::1]:9").description == "[::1]:9")
        #expect(try ListenAddress(parsing: "0.0.0.0:80").isLoopback == false)
        #expect(throws: HTTPServerError.self) { try ListenAddress(parsing: "example.com:80") }
        #expect(throws: HTTPServerError.self) { try ListenAddress(parsing: "127.0.0.1:70000") }
    }

    @Test func keptAliveConnectionsServeRequestAfterRequest() throws {
        let server = try echo()
        defer { server.stop() }
        let client = try RawHTTP(port: server.address.port)
        client.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nPOST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        let first = try #require(client.response())
        #expect(first.status == 200)
        #expect(first.body == "GET /one 0\n")
        #expect(first.header("connection") == "keep-alive")
        #expect(first.header("x-content-type-options") == "nosniff")
        let second = try #require(client.response())
        #expect(second.body == "POST /two 3\n")
        // A request sent in pieces, its body a byte at a time, is answered once it is whole.
        for piece in ["POST /fo", "ur HTTP/1.1\r\nHo", "st: x\r\nContent-Length: 3\r\n", "\r\n", "a", "b", "c"] { client.send(piece) }
        #expect(client.response()?.body == "POST /four 3\n")
        client.send("GET /three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(client.response()?.header("connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test func badRequestsAreAnsweredAndTheServerGoesOn() throws {
        let server = try echo()
        defer { server.stop() }
        let cases: [(String, Int)] = [
            ("NOT HTTP AT ALL\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n\r\n", 413),
            ("GET / HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "b", count: 20000))\r\n\r\n", 431),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ]
        for (request, status) in cases {
            let client = try RawHTTP(port: server.address.port)
            client.send(request)
            let response = try #require(client.response(), "\(request.prefix(40))")
            #expect(response.status == status, "\(request.prefix(40))")
            #expect(client.isClosedByPeer(), "a refused request's connection is closed")
        }
        let after = try RawHTTP(port: server.address.port)
        after.send("GET /still HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(after.response()?.body == "GET /still 0\n")
    }

    @Test func aClientThatStopsHalfwayIsTimedOut() throws {
        // Through a real socket, in real time: a short timeout (HTTPConnectionTests has the rest).
        var settings = HTTPServer.Settings()
        settings.firstRequestTimeout = 0.3
        let server = try echo(settings)
        defer { server.stop() }
        let client = try RawHTTP(port: server.address.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n")
        let response = try #require(client.response())
        #expect(response.status == 408)
        #expect(client.isClosedByPeer())
        #expect(server.connectionCount == 0 || client.isClosedByPeer())
    }

    /// A server whose `/events` holds its connection (a stream), and which echoes anything else.
    func streaming(_ settings: HTTPServer.Settings) throws -> HTTPServer {
        try HTTPServer(address: ListenAddress(host: "127.0.0.1", port: 0), settings: settings) { request in
            if request.path == "/events" { return .events(HTTPResponse(status: 200)) { _ in } }
            return .response(.text(200, "\(request.method) \(request.path) \(request.body.count)"))
        }
    }

    @Test func whenEverySlotIsTakenTheConnectionIdleLongestGivesWay() throws {
        var settings = HTTPServer.Settings()
        settings.maximumConnections = 2
        let server = try streaming(settings)
        defer { server.stop() }
        let first = try RawHTTP(port: server.address.port)
        first.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(first.response()?.status == 200)
        let second = try RawHTTP(port: server.address.port)
        second.send("GET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(second.response()?.status == 200)
        // Both idle between requests: the first, idle longer, makes room for a third.
        let third = try RawHTTP(port: server.address.port)
        third.send("GET /3 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(third.response()?.body == "GET /3 0\n")
        #expect(first.isClosedByPeer())
        second.send("GET /still HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(second.response()?.body == "GET /still 0\n")
    }

    @Test func whenEverySlotIsBusyOneBeyondIsTurnedAway() throws {
        var settings = HTTPServer.Settings()
        settings.maximumConnections = 2
        let server = try streaming(settings)
        defer { server.stop() }
        let pages = try (0..<2).map { _ in try RawHTTP(port: server.address.port) }
        for page in pages {
            page.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(page.streamHead()?.status == 200)
        }
        let turned = try RawHTTP(port: server.address.port)
        let answer = try #require(turned.response())
        #expect(answer.status == 503)
        #expect(answer.body.contains("too many connections (2), all busy"), "\(answer.body)")
        #expect(turned.isClosedByPeer())
        // A slot freed is a slot taken again.
        pages[0].hangUp()
        var admitted = false
        for _ in 0..<200 where !admitted {
            let again = try RawHTTP(port: server.address.port)
            again.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
            admitted = again.response()?.status == 200
            if !admitted { usleep(10_000) }  // the loop has not seen the page go yet
        }
        #expect(admitted)
    }

    /// A request that came with its connection is under way before the next connection of a burst
    /// needs a slot: a burst of newcomers evicts the idle ones, never a request that had arrived.
    @Test func aRequestInABurstOfConnectionsIsServed() throws {
        var settings = HTTPServer.Settings()
        settings.maximumConnections = 4
        settings.maximumPerPeer = 4
        let server = try streaming(settings)
        defer { server.stop() }
        for round in 0..<20 {
            let idle = try (0..<4).map { _ in try RawHTTP(port: server.address.port) }
            for connection in idle { connection.send("GET /slow") }
            let client = try RawHTTP(port: server.address.port)
            client.send("GET /wanted HTTP/1.1\r\nHost: x\r\n\r\n")
            let burst = try (0..<8).map { _ in try RawHTTP(port: server.address.port) }
            #expect(client.response()?.body == "GET /wanted 0\n", "round \(round)")
            _ = (idle, burst)
        }
    }

    @Test func onePeerHoldsNoMoreThanItsShare() throws {
        var settings = HTTPServer.Settings()
        settings.maximumConnections = 10
        settings.maximumPerPeer = 2
        let server = try streaming(settings)
        defer { server.stop() }
        let pages = try (0..<2).map { _ in try RawHTTP(port: server.address.port) }
        for page in pages {
            page.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(page.streamHead()?.status == 200)
        }
        // This process is one peer (its user): a third connection of its own is over its share.
        let third = try RawHTTP(port: server.address.port)
        let answer = try #require(third.response())
        #expect(answer.status == 503)
        #expect(answer.body.contains("too many connections from this client (2)"), "\(answer.body)")
    }

    @Test func anEventStreamDeliversInOrderAndEndsWhenThePageGoes() throws {
        let opened = Mutex<EventStream?>(nil)
        let closed = DispatchSemaphore(value: 0)
        let server = try HTTPServer(address: ListenAddress(host: "127.0.0.1", port: 0)) { _ in
            .events(HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")])) { stream in
                stream.onClose { closed.signal() }
                opened.withLock { $0 = stream }
                stream.send(event: "hello", data: "first\nsecond")
            }
        }
        defer { server.stop() }
        let client = try RawHTTP(port: server.address.port)
        client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try #require(client.streamHead())
        #expect(head.status == 200)
        #expect(head.header("content-length") == nil)
        let hello = try #require(client.event())
        #expect(hello.name == "hello")
        #expect(hello.data == "first\nsecond")
        let stream = try #require(opened.withLock { $0 })
        for number in 1...50 { stream.send(event: "n", data: "\(number)") }
        for number in 1...50 { #expect(client.event()?.data == "\(number)") }
        client.hangUp()
        #expect(closed.wait(timeout: .now() + 30) == .success)
        #expect(!stream.send(data: "after"))
    }
}
