import Foundation
import Glibc
import Synchronization
import Testing
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTestSupport
import WidgetTimelines
import WidgetWire
@testable import WidgetWeb

/// A running host serving its home screen: the game sample's bundle in worker processes (its data in
/// a home of its own), its instances in a store of their own, the host's clock a manual one.
final class WebHome: @unchecked Sendable {
    let clock: ManualClock
    let data = Fixtures.temporaryDirectory("data")
    let state = Fixtures.temporaryDirectory("state")
    let registry: WidgetRegistry
    let store: InstanceStore
    let daemon: WidgetDaemon
    private(set) var home: HomeScreen
    private(set) var token = String(repeating: "5a", count: 32)
    let statuses = Changes()

    /// With the system sample too, the host's clock starts a minute from now: the sample bundles
    /// date their entries by their own clock (now), and its clock widget's are each minute from then.
    init(withClock: Bool = false, largestDrawing: Int = 4 << 20) async throws {
        clock = ManualClock(now: withClock ? Date().addingTimeInterval(60) : Date(timeIntervalSince1970: 1_800_000_000))
        var environment = widgetsEnvironment(dataHome: data, extra: ["XDG_RUNTIME_DIR": data.path])
        environment["PATH"] = Fixtures.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let reset = await runProcess(Fixtures.gameAppExecutable, ["reset"], environment: environment)
        precondition(reset.status == 0, reset.standardError)
        var isolation = ProcessIsolation(workerExecutable: Fixtures.workerExecutable)
        isolation.environment = ["XDG_DATA_HOME": data.path, "XDG_RUNTIME_DIR": data.path, "PATH": environment["PATH"]!]
        let bundles = ["libGameWidgets.so"] + (withClock ? ["libSystemWidgets.so"] : [])
        // Loading waits for workers: on a thread of its own, not the cooperative pool's.
        let (clock, settings) = (clock, isolation)
        registry = try await offThePool {
            WidgetRegistry.load(searchPath: [Fixtures.directory(bundles).path], clock: clock, isolation: .process(settings))
        }
        store = InstanceStore(directory: state)
        let detail = try await registry.configuration(kind: "com.mygame.character-detail", assignments: [])
        _ = try store.update { (list) throws(StateError) in
            _ = try list.add(kind: "com.mygame.leaderboard", family: .systemMedium, configuration: JSONObject())
            _ = try list.add(kind: "com.mygame.character-detail", family: .systemMedium, configuration: detail)
            _ = try list.add(kind: "com.mygame.game-status", family: .systemSmall, configuration: JSONObject())
            if withClock { _ = try list.add(kind: "org.widgets.system.clock", family: .systemSmall, configuration: JSONObject()) }
        }
        daemon = WidgetDaemon(registry: registry, store: store, budget: .development, describe: { _ in "" }, observer: statuses.record)
        try daemon.start(socketPath: nil)
        home = try HomeScreen.serve(
            daemon: daemon, address: ListenAddress(host: "127.0.0.1", port: 0), keptIn: state, token: token, largestDrawing: largestDrawing)
    }

    /// The home screen stopped and started again, as a host restart does: at the port kept, with
    /// `token` (a new one when the state's token was deleted).
    func restartHome(token newToken: String? = nil) throws {
        home.stop()
        if let newToken { token = newToken }
        home = try HomeScreen.serve(daemon: daemon, address: ListenAddress(host: "127.0.0.1", port: 0), keptIn: state, token: token)
    }

    func stop() {
        home.stop()
        daemon.stop()
        registry.shutDownWorkers()
    }

    var port: UInt16 { home.address.port }
    var authority: String { "127.0.0.1:\(port)" }

    /// A request as the page sends it: its Host, its cookie, and for a POST its Origin.
    func request(_ method: String, _ path: String, body: String? = nil, headers: [String] = [], on client: RawHTTP? = nil) async throws -> RawHTTP.Response {
        try await offThePool { try self.requestNow(method, path, body: body, headers: headers, on: client) }
    }

    func requestNow(_ method: String, _ path: String, body: String? = nil, headers: [String] = [], on client: RawHTTP? = nil) throws -> RawHTTP.Response {
        let client = try client ?? RawHTTP(port: port)
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(authority)\r\nAuthorization: Bearer \(token)\r\n"
        if method == "POST" { text += "Origin: http://\(authority)\r\n" }
        for header in headers { text += header + "\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        client.send(text + "\r\n" + (body ?? ""))
        guard let response = client.response() else { throw RawHTTPError("no answer to \(method) \(path)") }
        return response
    }

    /// A page's event stream, after its first picture.
    func events() async throws -> (RawHTTP, hello: JSONValue) {
        try await offThePool { try self.eventsNow() }
    }

    func eventsNow() throws -> (RawHTTP, hello: JSONValue) {
        let client = try RawHTTP(port: port)
        client.send("GET /events HTTP/1.1\r\nHost: \(authority)\r\nAuthorization: Bearer \(token)\r\n\r\n")
        guard client.streamHead()?.status == 200, let hello = client.event(), hello.name == "hello" else { throw RawHTTPError("no event stream") }
        return (client, try JSONValue.parse(hello.data))
    }

    func ids() throws -> [String] { try store.load().instances.map(\.id) }

    /// Waits for every instance's first timeline.
    func waitForTimelines() async -> Bool {
        let count = (try? store.load().instances.count) ?? 0
        return await blocking { self.statuses.wait(timeout: 60) { _ in self.daemon.engine.instances.allSatisfy { self.daemon.engine.status(id: $0.id)?.timelines ?? 0 >= 1 } && self.daemon.engine.instances.count == count } }
    }
}

@Suite(.serialized) struct HomeScreenTests {
    /// A card names the symbols its drawing has no shape or glyph for (the page puts them in the
    /// card's tooltip); a drawing without such symbols says nothing of them.
    @Test func aCardNamesTheSymbolsNotDrawnHere() {
        let view = ViewNode("hstack", children: [
            ViewNode("image", attributes: JSONObject([("systemName", .string("heart.fill"))])),
            ViewNode("image", attributes: JSONObject([("systemName", .string("zzz.not.a.symbol"))])),
        ])
        let notes = HomeScreen.notes(on: view)
        #expect(notes.count == 1 && notes.first?.key == "unknownSymbols" && notes.first?.value == .array([.string("zzz.not.a.symbol")]))
        #expect(HomeScreen.notes(on: ViewNode("image", attributes: JSONObject([("systemName", .string("star"))]))).isEmpty)
    }

    /// The page's address survives a restart: the port chosen the first time is kept and asked for
    /// again; taken by another program meanwhile, another is chosen, kept, and the move said.
    @Test func thePortIsChosenOnceAndKept() throws {
        let (registry, state) = (WidgetRegistry(), Fixtures.temporaryDirectory("state"))
        let daemon = WidgetDaemon(registry: registry, store: InstanceStore(directory: state))
        let loopback = ListenAddress(host: "127.0.0.1", port: 0)
        let first = try HomeScreen.serve(daemon: daemon, address: loopback, keptIn: state, token: "t")
        let port = first.address.port
        #expect(port != 0)
        #expect(try String(contentsOf: state.appendingPathComponent("web-port"), encoding: .utf8) == "\(port)\n")
        first.stop()
        // Started again: the same port. (Tests run side by side: should another test's server have
        // been given the port meanwhile, the move is said, which is the next case's behaviour.)
        let moved = LockedList<String>()
        let second = try HomeScreen.serve(daemon: daemon, address: loopback, keptIn: state, token: "t") { moved.append($0) }
        #expect(second.address.port == port || moved.values.contains { $0.contains("port \(port) cannot be had again") }, "the same address after a restart")
        let kept = second.address.port
        // While it runs the port is taken: a third finds another, keeps it, and says so.
        let lines = LockedList<String>()
        let third = try HomeScreen.serve(daemon: daemon, address: loopback, keptIn: state, token: "t") { lines.append($0) }
        defer { second.stop(); third.stop() }
        #expect(third.address.port != kept)
        #expect(try String(contentsOf: state.appendingPathComponent("web-port"), encoding: .utf8) == "\(third.address.port)\n")
        #expect(lines.values.contains { $0.hasPrefix("warning: the home screen's port \(kept) cannot be had again (") && $0.hasSuffix("open pages must be opened again ('widgets home')") }, "\(lines.values)")
        // A port given is used as it is, and not kept (one free a moment ago; taken meanwhile by
        // another test's server, the serving fails, and nothing is kept either).
        let probe = try HomeScreen(daemon: daemon, address: loopback, token: "t")
        let free = probe.address.port
        probe.stop()
        if let given = try? HomeScreen.serve(daemon: daemon, address: ListenAddress(host: "127.0.0.1", port: free), keptIn: state, token: "t") {
            #expect(given.address.port == free)
            given.stop()
        }
        #expect(try String(contentsOf: state.appendingPathComponent("web-port"), encoding: .utf8) == "\(third.address.port)\n")
    }

    @Test func theTokenIsKeptForItsOwnerAloneAndLastsAcrossRestarts() throws {
        let state = Fixtures.temporaryDirectory("state")
        let token = try HomeScreen.token(in: state)
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        var info = stat()
        #expect(stat(state.appendingPathComponent("web-token").path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try HomeScreen.token(in: state) == token, "a bookmark and its cookie stay good")
        try "not a token".write(to: state.appendingPathComponent("web-token"), atomically: true, encoding: .utf8)
        let fresh = try HomeScreen.token(in: state)
        #expect(fresh != token && fresh.count == 64, "a damaged token file is replaced")
    }

    @Test func everyRequestNeedsTheTokenTheServersHostAndForAPostItsOrigin() async throws {
        let web = try await WebHome()
        defer { web.stop() }
        func raw(_ text: String) async throws -> RawHTTP.Response {
            let port = web.port
            return try await offThePool {
                let client = try RawHTTP(port: port)
                client.send(text)
                guard let response = client.response() else { throw RawHTTPError("no answer") }
                return response
            }
        }
        let host = "Host: \(web.authority)"
        let bearer = "Authorization: Bearer \(web.token)"
        // The page, its script and style hold no secret: served to anyone who names this address.
        let page = try await raw("GET / HTTP/1.1\r\n\(host)\r\n\r\n")
        #expect(page.status == 200)
        #expect(page.header("content-security-policy")?.contains("script-src 'self'") == true)
        #expect(page.body.contains("<script src=\"/home.js\""))
        #expect(try await raw("GET /home.js HTTP/1.1\r\n\(host)\r\n\r\n").status == 200)
        // The font the widgets are measured in, for a browser without it; Inter's files and no other.
        let font = try await raw("GET /fonts/Inter-SemiBold.otf HTTP/1.1\r\n\(host)\r\n\r\n")
        if SystemFont.isAvailable {
            #expect(font.status == 200 && font.header("content-type") == "font/otf")
            #expect(font.header("content-length") == "\(SystemFont.contents(of: "Inter-SemiBold.otf")!.count)")
        } else {
            #expect(font.status == 404 && font.body.contains("fonts-inter"))
        }
        #expect(page.header("content-security-policy")?.contains("font-src 'self'") == true)
        // A drawing's blend mode is a class the style sets (the policy allows no inline style).
        #expect(try await raw("GET /home.css HTTP/1.1\r\n\(host)\r\n\r\n").body.contains(".blend-color-dodge { mix-blend-mode: color-dodge; }"))
        for path in ["/fonts/../web-token", "/fonts/web-token", "/fonts/Inter-Regular.otf/../../web-token"] {
            let refused = try await raw("GET \(path) HTTP/1.1\r\n\(host)\r\n\r\n")
            #expect(refused.status == 404 && refused.body.hasPrefix("no font"), "\(path)")
        }
        #expect(page.header("set-cookie") == nil, "no cookie: a browser would send it to every port of this host")
        #expect(web.home.url == "http://\(web.authority)/#token=\(web.token)", "the token in the fragment, which the browser sends nowhere")
        // Everything else needs the token in the Authorization header; a cookie carrying it counts for nothing.
        for path in ["/events", "/widgets", "/instances/x/edit"] {
            let refused = try await raw("GET \(path) HTTP/1.1\r\n\(host)\r\nCookie: widgets_token=\(web.token)\r\n\r\n")
            #expect(refused.status == 403, "\(path)")
            #expect(refused.header("connection") == "close", "a client without the token holds no slot")
        }
        #expect(try await raw("GET /widgets HTTP/1.1\r\n\(host)\r\nAuthorization: Bearer \(String(repeating: "0", count: 64))\r\n\r\n").status == 403)
        #expect(try await raw("GET /widgets HTTP/1.1\r\n\(host)\r\nAuthorization: Basic \(web.token)\r\n\r\n").status == 403)
        #expect(try await raw("GET /widgets HTTP/1.1\r\n\(host)\r\n\(bearer)\r\n\r\n").status == 200)
        // DNS rebinding: another site's name for this address is refused, token or not.
        #expect(try await raw("GET /widgets HTTP/1.1\r\nHost: evil.example:\(web.port)\r\n\(bearer)\r\n\r\n").status == 400)
        #expect(try await raw("GET / HTTP/1.1\r\nHost: evil.example:\(web.port)\r\n\r\n").status == 400)
        #expect(try await raw("GET /widgets HTTP/1.1\r\nHost: localhost:\(web.port)\r\n\(bearer)\r\n\r\n").status == 200)
        // A POST from another origin (a form on another site) is refused before anything is done.
        let before = try web.ids()
        let foreign = try await raw(
            "POST /instances HTTP/1.1\r\n\(host)\r\n\(bearer)\r\nOrigin: http://evil.example\r\nContent-Length: 2\r\n\r\n{}")
        #expect(foreign.status == 403)
        #expect(try await raw("POST /instances HTTP/1.1\r\n\(host)\r\n\(bearer)\r\nContent-Length: 2\r\n\r\n{}").status == 403)
        #expect(try web.ids() == before)
        // What a refusal says of the request is cut and on one line.
        let long = "/" + String(repeating: "a", count: 10_000)
        let missing = try await web.request("GET", long)
        #expect(missing.status == 404)
        #expect(missing.body.count < 400, "\(missing.body.count) bytes")
        #expect(try await web.request("GET", "/nothing").status == 404)
        #expect(try await web.request("GET", "/tap").status == 405)
        #expect(try await web.request("PUT", "/").status == 405)
        #expect(try await web.request("POST", "/tap", body: "not json").status == 400)
    }

    @Test func aPageGetsEveryInstanceThenEachChangeAsItHappens() async throws {
        let web = try await WebHome()
        defer { web.stop() }
        #expect(await web.waitForTimelines())
        let (stream, hello) = try await web.events()
        let ids = try web.ids()
        #expect(hello["order"] == .array(ids.map(JSONValue.string)))
        let cards = try #require(hello["cards"]?.arrayValue)
        #expect(cards.count == 3)
        let leaderboard = try #require(cards.first { $0["kind"] == .string("com.mygame.leaderboard") })
        #expect(leaderboard["family"] == .string("systemMedium"))
        #expect(leaderboard["width"] == .number(338))
        let light = try #require(leaderboard["light"]?.stringValue)
        #expect(light.contains(#"<a href="mygame://player/ada" data-link="1">"#), "links carry their number for the tap")
        #expect(leaderboard["dark"]?.stringValue?.contains("#000000") == true || leaderboard["dark"]?.stringValue?.contains("#1c1c1e") == true)
        let detail = try #require(cards.first { $0["kind"] == .string("com.mygame.character-detail") })
        #expect(detail["configurable"] == .bool(true))
        #expect(detail["light"]?.stringValue?.contains("data-button=\"1\"") == true, "the Heal button is tappable")
        #expect(detail["light"]?.stringValue?.contains("Power Panda") == true)
        #expect(web.home.pageCount == 1)

        // A reload asked by an app (WidgetCenter): the page hears the timeline it brings.
        let status = try #require(ids.last)
        _ = web.daemon.answer(.reload(kind: "com.mygame.game-status", app: nil, foreground: false))
        var heard = false
        while let event = try await offThePool({ stream.event() }) {
            let data = try JSONValue.parse(event.data)
            if event.name == "card", data["id"] == .string(status), data["phase"] == .string("showing"), data["reloading"] == .bool(false) {
                heard = true
                break
            }
        }
        #expect(heard)

        // The page goes: the host stops making cards for it.
        stream.hangUp()
        #expect(try await eventually(within: 30) { web.home.pageCount == 0 && web.daemon.events.subscriberCount == 0 })
    }

    /// A card whose drawing is over what one card may send is sent without it, saying why.
    @Test func aDrawingOverWhatACardMaySendIsNotSent() async throws {
        let web = try await WebHome(largestDrawing: 1024)
        defer { web.stop() }
        #expect(await web.waitForTimelines())
        let (stream, hello) = try await web.events()
        defer { stream.hangUp() }
        let cards = try #require(hello["cards"]?.arrayValue)
        let leaderboard = try #require(cards.first { $0["kind"] == .string("com.mygame.leaderboard") })
        #expect(leaderboard["light"] == nil && leaderboard["dark"] == nil)
        let failure = try #require(leaderboard["failure"]?.stringValue)
        #expect(failure.hasPrefix("its drawing is ") && failure.hasSuffix(" KiB, more than the 1 KiB a card may send; not shown"), "\(failure)")
    }

    @Test func tapsOpenLinksAndPerformIntentsThroughTheHost() async throws {
        let web = try await WebHome()
        defer { web.stop() }
        #expect(await web.waitForTimelines())
        let ids = try web.ids()
        let link = try await web.request("POST", "/tap", body: #"{"instance":"\#(ids[0])","link":2}"#)
        #expect(link.status == 200, "\(link.body)")
        #expect(try JSONValue.parse(link.body)["opened"] == .string("mygame://player/grace"))
        let button = try await web.request("POST", "/tap", body: #"{"instance":"\#(ids[1])","button":1}"#)
        #expect(button.status == 200, "\(button.body)")
        #expect(try JSONValue.parse(button.body)["performed"]?.stringValue?.isEmpty == false)
        let show = await runProcess(Fixtures.gameAppExecutable, ["show"], environment: ["XDG_DATA_HOME": web.data.path, "XDG_RUNTIME_DIR": web.data.path])
        #expect(show.standardOutput.contains("Power Panda: health 90"), "\(show.standardOutput)")
        let wrong = try await web.request("POST", "/tap", body: #"{"instance":"\#(ids[0])","button":9}"#)
        #expect(wrong.status == 422)
        #expect(try JSONValue.parse(wrong.body)["error"]?.stringValue?.isEmpty == false)
    }

    @Test func editWidgetSavesThroughTheSameValidationAsConfigure() async throws {
        let web = try await WebHome()
        defer { web.stop() }
        #expect(await web.waitForTimelines())
        let id = try web.ids()[1]
        let form = try await web.request("GET", "/instances/\(id)/edit")
        #expect(form.status == 200, "\(form.body)")
        let parameter = try #require(JSONValue.parse(form.body)["parameters"]?.arrayValue?.first)
        #expect(parameter["name"] == .string("character"))
        let choices = try #require(parameter["choices"]?.arrayValue)
        #expect(choices.contains { $0["value"] == .string("Unipony") }, "the provider's options")
        let before = try web.store.load().instance(id: id)?.configuration

        let bad = try await web.request("POST", "/instances/\(id)/configure", body: #"{"values":{"character":"Nobody"}}"#)
        #expect(bad.status == 422)
        // Said in the form's terms: the parameter's title, no internal names.
        #expect(try JSONValue.parse(bad.body)["error"]?.stringValue?.hasPrefix("Character: 'Nobody' is not one of its choices") == true, "\(bad.body)")
        #expect(try web.store.load().instance(id: id)?.configuration == before, "nothing saved on a bad value")
        let unknown = try await web.request("POST", "/instances/\(id)/configure", body: #"{"values":{"colour":"red"}}"#)
        #expect(unknown.status == 422)

        let unipony = try #require(choices.first { $0["value"] == .string("Unipony") }?["value"]?.stringValue)
        let good = try await web.request("POST", "/instances/\(id)/configure", body: #"{"values":{"character":"\#(unipony)"}}"#)
        #expect(good.status == 200, "\(good.body)")
        #expect(try web.store.load().instance(id: id)?.configuration["character"]?.displayText == unipony)
        #expect(await blocking { web.statuses.wait(timeout: 60) { _ in
            web.daemon.engine.status(id: id)?.entry.map { PlainTextText.of($0.view) }?.contains("Unipony") == true
        } })
    }

    @Test func addingRemovingAndReorderingKeepTheOrderInTheStore() async throws {
        let web = try await WebHome()
        defer { web.stop() }
        let (stream, _) = try await web.events()
        let added = try await web.request("POST", "/instances", body: #"{"kind":"com.mygame.leaderboard","family":"systemSmall"}"#)
        #expect(added.status == 201, "\(added.body)")
        let id = try #require(JSONValue.parse(added.body)["id"]?.stringValue)
        #expect(try web.ids().last == id)
        #expect(try await web.request("POST", "/instances", body: #"{"kind":"com.mygame.leaderboard","family":"accessoryInline"}"#).status == 422)
        #expect(try await web.request("POST", "/instances", body: #"{"kind":"no.such.widget","family":"systemSmall"}"#).status == 422)

        // Watchers of the host (`widgets watch`) hear each instance that changed place.
        let moved = Mutex<[String: Int]>([:])
        let watcher = web.daemon.events.subscribe(ids: nil) { event in
            if event["event"] == .string("moved"), let id = event["id"]?.stringValue, let position = event["position"]?.numberValue {
                moved.withLock { $0[id] = Int(position) }
            }
            return true
        }
        let reversed = try web.ids().reversed().map { "\"\($0)\"" }.joined(separator: ",")
        #expect(try await web.request("POST", "/order", body: #"{"order":[\#(reversed)]}"#).status == 200)
        #expect(try web.ids().first == id)
        #expect(moved.withLock { $0 } == Dictionary(uniqueKeysWithValues: try web.ids().enumerated().map { ($1, $0) }), "every instance changed place")
        web.daemon.events.unsubscribe(watcher!)
        let order = try web.ids()
        #expect(try await web.request("POST", "/order", body: #"{"order":["nope"]}"#).status == 422)
        #expect(try web.ids() == order, "a bad order changes nothing")

        // The page hears the new card and the new order (the order as it is when it is sent).
        var names: [String] = []
        while let event = try await offThePool({ stream.event() }) {
            names.append(event.name)
            if event.name == "order", try JSONValue.parse(event.data)["order"]?.arrayValue?.first == .string(id) { break }
        }
        #expect(names.contains("card"), "\(names)")
        #expect(names.last == "order", "\(names)")

        #expect(try await web.request("POST", "/instances/\(id)/remove", body: "{}").status == 200)
        #expect(try !web.ids().contains(id))
        #expect(try await web.request("POST", "/instances/\(id)/remove", body: "{}").status == 422)
        while let event = try await offThePool({ stream.event() }), event.name != "removed" {}
        // The removal is followed by the order without it.
        let after = try #require(try await offThePool { stream.event() })
        #expect(after.name == "order")
        #expect(try JSONValue.parse(after.data)["order"]?.arrayValue?.contains(.string(id)) == false)
    }
}

/// Wakes a waiting test at each status the host reports.
final class Changes: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    func record(_ id: String, _ status: InstanceStatus) {
        condition.withLock {
            count += 1
            condition.broadcast()
        }
    }

    /// Blocks until `holds`, checked at each report; false after `timeout` s of real time (a broken
    /// test fails rather than hangs).
    func wait(timeout: TimeInterval, _ holds: (()) -> Bool) -> Bool {
        let giveUp = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !holds(()) {
            if !condition.wait(until: giveUp) { return holds(()) }
        }
        return true
    }
}

/// A view's texts, joined: what a test looks for in an entry.
enum PlainTextText {
    static func of(_ view: ViewNode) -> String {
        ([view["text"]?.stringValue ?? ""] + view.children.map(of)).joined(separator: " ")
    }
}

extension HomeScreenTests {
    /// Another user holding every connection it can, each sending a byte now and then and never a
    /// whole request (slowloris, 500 connections, reconnecting those closed), cannot lock the page
    /// out: its connections are its share and no more, each closed when its first request's time is
    /// up, and the page's own requests are served.
    @Test(.enabled(if: getuid() == 0, "needs root, to attack as another user"), .timeLimit(.minutes(3)))
    func thePageStaysReachableWhileAnotherUserHoldsFiveHundredSlowConnections() async throws {
        let web = try await WebHome()
        defer { web.stop() }
        let script = """
            trap '' PIPE
            declare -a fds
            open() { if exec {fd}<>/dev/tcp/127.0.0.1/\(web.port); then fds[$1]=$fd; else fds[$1]=; fi; } 2>/dev/null
            for i in $(seq 0 499); do open $i; done
            echo ready
            while true; do
              for i in $(seq 0 499); do
                fd=${fds[$i]}
                if [ -z "$fd" ] || ! printf 'G' >&$fd 2>/dev/null; then
                  if [ -n "$fd" ]; then exec {fd}>&-; fi
                  open $i
                fi
              done
              sleep 0.2
            done
            """
        let attacker = try RunningProcess(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/bash", "-c", script], environment: ["PATH": "/usr/bin:/bin"])
        defer {
            // SIGKILL: the shell inherited the test thread's mask, SIGTERM blocked.
            kill(attacker.process.processIdentifier, SIGKILL)
            attacker.process.waitForExit()
        }
        #expect(await blocking { attacker.waitForLine(limit: 60) { $0 == "ready" } }, "\(attacker.output)")
        var served = 0
        for _ in 0..<60 {
            if (try? await web.request("GET", "/widgets"))?.status == 200 { served += 1 }
        }
        #expect(served == 60, "\(served) of 60 requests served")
        #expect(web.home.connectionCount <= 64)
    }
}
