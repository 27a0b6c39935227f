import Testing
import WidgetSupport
import WidgetWire

@testable import WidgetHost

/// The control socket's line protocol as a value: lines and times in, answers and ends out.
@Suite struct ControlConnectionTests {
    static let second: UInt64 = 1_000_000_000

    func lines(_ connection: inout ControlConnection) -> [String] {
        let text = String(decoding: connection.output, as: UTF8.self)
        connection.wrote(connection.output.count, now: 0)
        return text.split(separator: "\n").map(String.init)
    }

    func send(_ text: String, to connection: inout ControlConnection, at now: UInt64 = 0) {
        connection.received(Array(text.utf8)[...], now: now)
    }

    @Test func requestsAreAnsweredInOrderAndABadLineDoesNotEndTheConnection() {
        var connection = ControlConnection(now: 0)
        send("{\"request\":\"a\"}\nnot json\n{\"request\":\"b\"}\n", to: &connection)
        let first = connection.takeRequest()
        #expect(first?["request"] == .string("a"))
        #expect(connection.takeRequest() == nil, "one at a time")
        connection.answered(ControlServer.success(), stream: false, now: 0)
        // The bad line is answered here; the next request is ready.
        #expect(connection.takeRequest()?["request"] == .string("b"))
        connection.answered(ControlServer.success(), stream: false, now: 0)
        let answers = lines(&connection)
        #expect(answers.count == 3)
        #expect(answers[1].hasPrefix(#"{"ok":false,"error":"malformed request: "#), "\(answers[1])")
        #expect(connection.phase == .open)
    }

    @Test func bytesTricklingInDoNotKeepAConnectionOpen() {
        var connection = ControlConnection(now: 0, idleTimeout: 10 * Self.second)
        for second in 0..<9 { send("{", to: &connection, at: UInt64(second) * Self.second) }
        #expect(connection.deadline == 10 * Self.second, "only a complete request moves the deadline")
        connection.timePassed(now: 10 * Self.second)
        #expect(connection.phase == .closing)
        #expect(lines(&connection) == [#"{"ok":false,"error":"no complete request for 10 s; closing the connection"}"#])
    }

    @Test func anOverlongLineIsAnsweredAndEndsTheConnection() {
        var connection = ControlConnection(now: 0)
        send(String(repeating: "x", count: ControlSocket.maximumLineLength + 1), to: &connection)
        #expect(connection.phase == .closing)
        #expect(lines(&connection).first?.contains("request longer than 65536 bytes") == true)
    }

    @Test func aLastRequestWithoutItsNewlineIsAnsweredWhenThePeerStopsSending() {
        var connection = ControlConnection(now: 0)
        send("{\"request\":\"last\"}", to: &connection)
        #expect(connection.takeRequest() == nil)
        connection.inputEnded(now: 0)
        #expect(connection.takeRequest()?["request"] == .string("last"))
        connection.answered(ControlServer.success(), stream: false, now: 0)
        #expect(connection.phase == .closing, "answered, then done")
        var empty = ControlConnection(now: 0)
        empty.inputEnded(now: 0)
        #expect(empty.phase == .closed)
    }

    @Test func aWatchCarriesEventsAndIsNeverIdle() {
        var connection = ControlConnection(now: 0)
        send("{\"request\":\"watch\"}\n", to: &connection)
        _ = connection.takeRequest()
        connection.answered(ControlServer.success(), stream: true, now: 0)
        connection.streamed(ControlConnection.line(.object(JSONObject([("event", .string("reloaded"))]))), now: Self.second)
        #expect(lines(&connection) == [#"{"ok":true}"#, #"{"event":"reloaded"}"#])
        #expect(connection.idleSince == nil && connection.deadline == nil)
        send("ignored\n", to: &connection, at: 2 * Self.second)
        #expect(connection.takeRequest() == nil)
        connection.inputEnded(now: 3 * Self.second)
        #expect(connection.phase == .closed)
    }
}
