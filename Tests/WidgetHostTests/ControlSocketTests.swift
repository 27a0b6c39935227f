import Foundation
import Testing
import WidgetTestSupport
import WidgetABI
import WidgetSupport
import WidgetTimelines
import WidgetHost
import WidgetWire

/// The control socket on its own: permissions, the peer check, malformed input, bursts.
@Suite struct ControlSocketTests {
    func socketPath() -> String { Fixtures.temporaryDirectory("runtime").path + "/widgets/control.sock" }

    func echoServer(_ path: String) throws -> ControlServer {
        try ControlServer(path: path) { request in ControlServer.success([("echo", request)]) }
    }

    @Test func malformedRequestsGetAnErrorAndTheConnectionGoesOn() throws {
        let path = socketPath()
        let server = try echoServer(path)
        defer { server.stop() }
        let client = try ControlClient(path: path)
        #expect(try client.sendRaw(Array("{not json\n".utf8))?.hasPrefix(#"{"ok":false,"error":"malformed request: invalid JSON at byte 1"#) == true)
        #expect(try client.sendRaw(Array("[1,2]\n".utf8)) == #"{"ok":false,"error":"malformed request: expected an object with a \"request\" member"}"#)
        #expect(try client.sendRaw(Array(#"{"kind":"x"}"#.utf8) + [10]) == #"{"ok":false,"error":"malformed request: expected an object with a \"request\" member"}"#)
        #expect(try client.sendRaw(Array("\u{FF}\n".utf8))?.contains("malformed request") == true)
        let answer = try client.send(.object(JSONObject([("request", .string("reload"))])))
        #expect(answer["echo"]?["request"]?.stringValue == "reload")
        // A line longer than the limit ends the connection, with a reason.
        let long = try ControlClient(path: path)
        let reply = try long.sendRaw([UInt8](repeating: UInt8(ascii: "a"), count: ControlSocket.maximumLineLength + 20_000))
        #expect(reply == #"{"ok":false,"error":"request longer than 65536 bytes; closing the connection"}"#)
    }

    /// Idle connections holding every slot shut no one out: a new client takes the place of the one
    /// idle the longest.
    @Test func idleConnectionsNeverShutAFreshClientOut() throws {
        let path = socketPath()
        let server = try echoServer(path)
        defer { server.stop() }
        var open: [ControlClient] = []
        for _ in 0..<ControlServer.maximumConnections {
            let client = try ControlClient(path: path)
            _ = try client.send(.object(JSONObject([("request", .string("ping"))])))  // served, then idle
            open.append(client)
        }
        let fresh = try ControlClient(path: path)
        #expect(try fresh.send(.object(JSONObject([("request", .string("ping"))])))["echo"]?["request"] == .string("ping"))
        #expect(throws: ControlError.self, "the connection idle the longest made room") {
            try open[0].send(.object(JSONObject([("request", .string("ping"))])))
        }
        #expect(try open[1].send(.object(JSONObject([("request", .string("ping"))])))["ok"] == .bool(true), "the others are served")
    }

    /// A connection that sends no complete request is closed after the idle timeout, with a reason;
    /// bytes trickling in do not keep it open.
    @Test func aConnectionThatSendsNoCompleteRequestIsClosed() throws {
        let path = socketPath()
        let server = try ControlServer(path: path, idleTimeout: 0.3) { request in ControlServer.success([("echo", request)]) }
        defer { server.stop() }
        let client = try ControlClient(path: path)
        #expect(try client.sendRaw(Array(#"{"request":"#.utf8)) == #"{"ok":false,"error":"no complete request for 0.3 s; closing the connection"}"#)
    }

    /// A last request whose newline never comes is answered when the peer stops sending.
    @Test func aLastRequestWithoutItsNewlineIsAnswered() throws {
        let path = socketPath()
        let server = try echoServer(path)
        defer { server.stop() }
        let answer = try ControlClient(path: path).sendLast(Array(#"{"request":"last"}"#.utf8))
        #expect(answer == #"{"ok":true,"echo":{"request":"last"}}"#)
    }

    @Test func aSecondHostIsRefusedAndAStaleSocketIsReplaced() throws {
        let path = socketPath()
        let server = try echoServer(path)
        #expect(throws: ControlError("a widget host is already running (it listens on \(path))")) { try echoServer(path) }
        server.stop()
        // A socket file left behind by a host that was killed: nothing listens, so it is replaced.
        if case .success(let descriptor) = try ControlSocket.open(path, bind) { close(descriptor) } else { Issue.record("cannot bind \(path)") }
        let again = try echoServer(path)
        defer { again.stop() }
        #expect(try ControlClient(path: path).send(.object(JSONObject([("request", .string("x"))])))["ok"]?.boolValue == true)
    }

    @Test func aDirectoryOthersCanEnterIsRefused() throws {
        let directory = Fixtures.temporaryDirectory("runtime").path + "/widgets"
        mkdir(directory, 0o755)
        chmod(directory, 0o755)
        #expect(throws: ControlError("\(directory) is open to other users (mode 755); it must be 0700")) {
            try ControlServer(path: directory + "/control.sock") { _ in .null }
        }
    }

    @Test(.enabled(if: getuid() == 0, "needs root, to connect as another user"))
    func anotherUserIsRefusedEvenWhenThePermissionsAreLoosened() async throws {
        let path = socketPath()
        let server = try echoServer(path)
        defer { server.stop() }
        // Loosen what the host set, as a careless admin might: the uid check still holds.
        chmod((path as NSString).deletingLastPathComponent, 0o755)
        chmod(path, 0o666)
        let runtime = ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        let result = await runProcess(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Fixtures.widgetsExecutable, "reload"],
            environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        #expect(result.standardError == "widgets: error: refused: this host belongs to uid 0\n")
        #expect(server.refusedPeers.count == 1)
        #expect(server.refusedPeers.first?.hasPrefix("refused a connection from uid 65534") == true)
    }

    @Test func aBurstOfTenThousandReloadRequestsCoalescesIntoOneReload() async throws {
        let clock = ManualClock()
        let plugins = Fixtures.directory(["good"])
        let registry = WidgetRegistry.load(searchPath: [plugins.path], clock: clock, isolation: .queue)
        let store = InstanceStore(directory: Fixtures.temporaryDirectory("state"))
        _ = try store.update { (list) throws(StateError) in try list.add(kind: "fixture.good", family: .systemSmall, configuration: JSONObject()) }
        let statuses = StatusLog()
        let daemon = WidgetDaemon(registry: registry, store: store, observer: statuses.record)
        let path = socketPath()
        try daemon.start(socketPath: path)
        defer { daemon.stop() }
        #expect(await blocking { statuses.wait { $0.timelines == 1 } })

        // Ten thousand requests: 9 000 on one connection, 1 000 on connections of their own.
        let connection = try ControlClient(path: path)
        for _ in 0..<9_000 {
            #expect(try connection.send(.object(JSONObject([("request", .string("reload")), ("kind", .string("fixture.good"))])))["reloaded"] == .number(1))
        }
        await withTaskGroup(of: String?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    await blocking {
                        // The first failure of the hundred, with its reason.
                        for _ in 0..<100 {
                            do {
                                _ = try ControlClient(path: path).send(.object(JSONObject([("request", .string("reload"))])))
                            } catch {
                                return "\(error)"
                            }
                        }
                        return nil
                    }
                }
            }
            for await failure in group { #expect(failure == nil) }
        }
        // They wait, as one, for the minimum interval after the first timeline.
        var requests: Int { daemon.engine.counters.requests.values.reduce(0) { (sum: Int, count: Int) in sum + count } }
        #expect(requests == 1)
        #expect(daemon.engine.status(id: "good-1")?.deferredByBudget == true)
        // A reload's answer says so, and until when.
        let answer = try ControlClient(path: path).send(.object(JSONObject([("request", .string("reload"))])))
        let deferred = try #require(answer["deferred"]?.arrayValue)
        #expect(deferred.count == 1)
        #expect(deferred.first?["id"] == .string("good-1"))
        #expect(deferred.first?["until"]?.stringValue == ISODate.text(daemon.engine.status(id: "good-1")!.nextReload!))
        clock.advance(by: 300)
        #expect(await blocking { statuses.wait { $0.timelines == 2 } })
        #expect(requests == 2, "the first timeline, then one reload for them all")
    }

}
