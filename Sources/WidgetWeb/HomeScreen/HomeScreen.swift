import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import WidgetABI
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// The home screen in a browser (`widgets run --web`): every instance the running host shows, laid
/// out in its family's size, drawn by the SVG renderer and updated in place through Server-Sent
/// Events; taps, configuration, adding, removing and reordering go through the host.
///
/// Every request for data or an action must carry the token in its `Authorization` header
/// (`Bearer TOKEN`). The page (`/`, its script and style, which hold no secret) takes the token from
/// its address's fragment (`/#token=...`, which the browser never sends anywhere), keeps it in the
/// tab's session storage (its origin's alone: another port is another origin) and sends it itself,
/// reading its event stream with `fetch`. A cookie would not do: browsers send a cookie to every
/// port of a host, so another local user's server on another port would receive it. The `Host`
/// header must name the address served (a page of another site reaching it through DNS rebinding
/// names its own), and a POST must come from the page's own `Origin`. docs/WEB.md says the whole of it.
public final class HomeScreen: @unchecked Sendable {
    public let daemon: WidgetDaemon
    private let token: String
    let renderers: (light: SVGRenderer, dark: SVGRenderer)
    private var server: HTTPServer!
    /// The pages open now, and the host's event subscription while any is.
    private let pages = Mutex<(streams: [ObjectIdentifier: EventStream], subscription: Int?)>(([:], nil))
    /// Events are turned into cards here, one at a time and in order, off the engine's thread.
    private let queue = DispatchQueue(label: "widgets.web.cards")
    /// The gallery of every widget, made on first asking (it asks every provider for a snapshot), and
    /// again when the widgets loaded change (a bundle installed or removed while the host runs).
    let gallery = Mutex<(kinds: [String], made: JSONValue)?>(nil)
    private let log: @Sendable (String) -> Void

    /// Serves the home screen of `daemon` at `address`, for light and dark in `renderingMode`
    /// (nil: each family's own). `token` is the secret every request must show
    /// (`HomeScreen.token(in:)` keeps one in the state directory).
    public init(
        daemon: WidgetDaemon, address: ListenAddress, token: String, renderingMode: RenderingEnvironment.RenderingMode? = nil,
        settings: HTTPServer.Settings = HTTPServer.Settings(), largestDrawing: Int = 4 << 20,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(HTTPServerError) {
        self.daemon = daemon
        self.largestDrawing = largestDrawing
        self.token = token
        self.log = log
        renderers = (SVGRenderer(appearance: .light, renderingMode: renderingMode), SVGRenderer(appearance: .dark, renderingMode: renderingMode))
        server = try HTTPServer(address: address, settings: settings, log: log) { [weak self] request in
            self?.answer(request) ?? .response(.text(503, "the host is stopping"))
        }
    }

    /// The page's address with its token: what `widgets run --web` prints and `widgets home` opens.
    public var url: String { "http://\(server.address)/#token=\(token)" }
    public var address: ListenAddress { server.address }
    /// Pages open now.
    public var pageCount: Int { pages.withLock { $0.streams.count } }
    /// Connections open now, pages' streams included.
    public var connectionCount: Int { server.connectionCount }

    public func stop() {
        server.stop()
        let subscription = pages.withLock { state in
            defer { state.subscription = nil }
            return state.subscription
        }
        if let subscription { daemon.events.unsubscribe(subscription) }
    }

    /// Serves the home screen at an address that stays the same from one start of the host to the
    /// next, so that an open page and a bookmark find it again: given port 0, the port chosen the
    /// first time is kept in `directory` (`web-port`) and asked for again at each start; taken by
    /// then (another program), another is chosen, kept, and the change said through `log`. A port
    /// given is used as it is.
    public static func serve(
        daemon: WidgetDaemon, address: ListenAddress, keptIn directory: URL, token: String,
        renderingMode: RenderingEnvironment.RenderingMode? = nil, largestDrawing: Int = 4 << 20,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(HTTPServerError) -> HomeScreen {
        func start(_ address: ListenAddress) throws(HTTPServerError) -> HomeScreen {
            try HomeScreen(daemon: daemon, address: address, token: token, renderingMode: renderingMode, largestDrawing: largestDrawing, log: log)
        }
        guard address.port == 0 else { return try start(address) }
        let file = directory.appendingPathComponent("web-port")
        let kept = (try? String(contentsOf: file, encoding: .utf8)).flatMap { UInt16($0.trimmingSpacesAndNewlines) }
        var home: HomeScreen?
        if let kept, kept != 0 {
            do {
                home = try start(ListenAddress(host: address.host, port: kept))
            } catch {
                log("warning: the home screen's port \(kept) cannot be had again (\(error)); it moves to another, and open pages must be opened again ('widgets home')")
            }
        }
        let serving: HomeScreen
        if let home { serving = home } else { serving = try start(address) }
        if serving.address.port != kept {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data("\(serving.address.port)\n".utf8).write(to: file, options: .atomic)
            } catch {
                log("warning: cannot keep the home screen's port in \(file.path) (\(error)); it may change at the next start")
            }
        }
        return serving
    }

    /// The token kept in `directory` (`web-token`, readable by its owner only), made on first use:
    /// a bookmark of the page and an open page stay good across restarts of the host.
    public static func token(in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("web-token")
        if let saved = try? String(contentsOf: file, encoding: .utf8).trimmingSpacesAndNewlines,
            saved.count >= 32, saved.allSatisfy(\.isHexDigit)
        {
            return saved
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let made = (0..<32).map { _ in cFormat("%02x", UInt32(UInt8.random(in: 0...255, using: &generator))) }.joined()
        // Made readable by its owner only from the start (no moment with the umask's mode), then renamed.
        let temporary = directory.appendingPathComponent(".web-token.\(getpid())")
        unlink(temporary.path)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw HTTPServerError("cannot write \(file.path): \(errnoText())") }
        let bytes = Array((made + "\n").utf8)
        let failure = bytes.withUnsafeBytes { raw in writeAll(raw) { Glibc.write(descriptor, $0.baseAddress, $0.count) } }
        close(descriptor)
        if let failure {
            unlink(temporary.path)
            throw HTTPServerError("cannot write \(file.path): \(errnoText(failure))")
        }
        guard rename(temporary.path, file.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw HTTPServerError("cannot write \(file.path): \(errnoText(code))")
        }
        return made
    }

    // MARK: - Requests

    /// The page and what it is made of: no secret is in them, so they are served without the token
    /// (the page takes it from its address's fragment).
    static let publicPaths: Set<String> = ["/", "/home.js", "/home.css", "/favicon.svg"]

    /// Checks a request's host, token and origin, then routes it.
    func answer(_ request: HTTPRequest) -> HTTPReply {
        guard request.method == "GET" || request.method == "POST" else {
            return .response(.text(405, "\(request.method.onOneLine.cut(to: 20)) is not served here (GET and POST are)", headers: [("Allow", "GET, POST")]))
        }
        // DNS rebinding: a page of another site that reaches this address names its own host.
        guard let host = request.header("host"), acceptedHosts.contains(host.lowercased()) else {
            return .response(.text(400, "the Host header must be \(server.address) (this server's own address)", headers: [("Connection", "close")]))
        }
        if request.method == "GET", Self.publicPaths.contains(request.path) { return route(request) }
        // The font the widgets are measured in, so a browser without it draws the same widths.
        if request.method == "GET", request.path.hasPrefix("/fonts/") { return .response(font(String(request.path.dropFirst("/fonts/".count)))) }
        guard let given = Self.bearer(request), Self.same(given, token) else { return .response(forbidden) }
        if request.method == "POST" {
            guard let origin = request.header("origin"), origin == "http://\(host)" else {
                return .response(.text(403, "a POST must come from this page (its Origin must be http://\(host))"))
            }
        }
        return route(request)
    }

    /// The `Host` headers this server answers: its address, and `localhost` for a loopback one.
    private var acceptedHosts: Set<String> {
        var hosts: Set<String> = [server.address.description.lowercased()]
        if server.address.isLoopback { hosts.insert("localhost:\(server.address.port)") }
        return hosts
    }

    /// Refused for want of the token: the connection closes with it, so a client without the token
    /// holds no slot.
    private var forbidden: HTTPResponse {
        .text(403, "this page needs its token: open the address 'widgets home' prints (or 'widgets run --web' printed)", headers: [("Connection", "close")])
    }

    /// The token an `Authorization: Bearer TOKEN` header carries.
    static func bearer(_ request: HTTPRequest) -> String? {
        guard let value = request.header("authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingSpaces
    }

    /// Compares secrets in time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func route(_ request: HTTPRequest) -> HTTPReply {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        func only(_ method: String, _ body: () -> HTTPReply) -> HTTPReply {
            request.method == method ? body() : .response(.text(405, "\(request.path.onOneLine.cut(to: 200)) takes \(method) only", headers: [("Allow", method)]))
        }
        if parts.count == 3, parts[0] == "instances" {
            let id = parts[1]
            switch parts[2] {
            case "edit": return only("GET") { .response(editor(id: id)) }
            case "configure": return only("POST") { .response(configure(id: id, request)) }
            case "remove": return only("POST") { .response(remove(id: id)) }
            default: break
            }
        }
        switch parts {
        case []: return only("GET") { .response(HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", text: HomePage.html, headers: HomePage.policy)) }
        case ["home.js"]: return only("GET") { .response(HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", text: HomePage.script)) }
        case ["home.css"]: return only("GET") { .response(HTTPResponse(status: 200, contentType: "text/css; charset=utf-8", text: HomePage.style)) }
        case ["favicon.svg"]: return only("GET") { .response(HTTPResponse(status: 200, contentType: "image/svg+xml", text: HomePage.icon)) }
        case ["events"]: return only("GET") { events() }
        case ["widgets"]: return only("GET") { .response(json(200, widgetGallery())) }
        case ["tap"]: return only("POST") { .response(tap(request)) }
        case ["controls", "press"]: return only("POST") { .response(pressControl(request)) }
        case ["instances"]: return only("POST") { .response(add(request)) }
        case ["order"]: return only("POST") { .response(order(request)) }
        default: return .response(.text(404, "nothing at \(request.path.onOneLine.cut(to: 200))"))
        }
    }

    // MARK: - Events

    /// A page's stream: first every instance and the order, then each change as it happens.
    private func events() -> HTTPReply {
        let head = HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8")])
        return .events(head) { [weak self] stream in
            guard let self else { return stream.close() }
            let key = ObjectIdentifier(stream)
            let subscribe = pages.withLock { state -> Bool in
                state.streams[key] = stream
                return state.subscription == nil
            }
            if subscribe { self.subscribe() }
            stream.onClose { [weak self] in self?.closed(key) }
            // After subscribing: a change from now on follows this first picture, on the same queue.
            queue.async { [self] in
                let cards = daemon.instances.map { card(for: $0.id) ?? .null }.filter { $0 != .null }
                let activities = daemon.activities.list().map(activityCard)
                let controls = daemon.controls.currentAll().map(controlCard)
                stream.send(
                    event: "hello",
                    data: JSONValue.object(
                        JSONObject([("cards", .array(cards)), ("order", order), ("activities", .array(activities)), ("controls", .array(controls))])
                    ).jsonText)
            }
        }
    }

    private func subscribe() {
        let token = daemon.events.subscribe(ids: nil) { [weak self] event in
            guard let self else { return false }
            queue.async { self.publish(event) }
            return true
        }
        pages.withLock { $0.subscription = token }
        if token == nil { log("web: the host has too many watchers; pages update when one leaves") }
    }

    private func closed(_ key: ObjectIdentifier) {
        let unsubscribe: Int? = pages.withLock { state in
            state.streams[key] = nil
            guard state.streams.isEmpty, let token = state.subscription else { return nil }
            state.subscription = nil
            return token
        }
        // No page open: the host makes no cards and no texts for the page.
        if let unsubscribe { daemon.events.unsubscribe(unsubscribe) }
    }

    /// Turns one host event into what the pages need, and sends it to each.
    private func publish(_ event: JSONValue) {
        guard let name = event["event"]?.stringValue, let id = event["id"]?.stringValue else { return }
        var messages: [(String, JSONValue)] = []
        switch name {
        case "removed":
            messages = [("removed", .object(JSONObject([("id", .string(id))]))), ("order", .object(JSONObject([("order", order)])))]
        case "moved", "added":
            if let card = card(for: id) { messages.append(("card", card)) }
            messages.append(("order", .object(JSONObject([("order", order)]))))
        case "activity":
            if let record = daemon.activities.list().first(where: { $0.id == id }) { messages.append(("activity", activityCard(record))) }
        case "activity-removed":
            messages.append(("activity-removed", .object(JSONObject([("id", .string(id))]))))
        case "control":
            messages.append(("control", controlCard(daemon.controls.current(id))))
        default:
            if let card = card(for: id) { messages.append(("card", card)) }
        }
        let streams = pages.withLock { Array($0.streams.values) }
        for (event, data) in messages {
            let text = data.jsonText
            for stream in streams { stream.send(event: event, data: text) }
        }
    }

    private var order: JSONValue { .array(daemon.instances.map { .string($0.id) }) }

    /// What a page draws for an instance: its widget in light and dark, and what is said about it.
    func card(for id: String) -> JSONValue? {
        guard let instance = daemon.instances.first(where: { $0.id == id }) else { return nil }
        let status = daemon.engine.status(id: id)
        let widget = daemon.registry.widget(kind: instance.kind)
        let now = daemon.registry.clock.now()
        let size = instance.family.displaySize
        func date(_ date: Date?) -> JSONValue { date.map { .number($0.timeIntervalSince1970) } ?? .null }
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("kind", .string(instance.kind)), ("family", .string(instance.family.rawValue)),
            ("title", .string(widget.map { $0.displayName.isEmpty ? $0.kind : $0.displayName } ?? instance.kind)),
            ("width", .number(size.width)), ("height", .number(size.height)), ("now", .number(now.timeIntervalSince1970)),
            ("phase", .string(status?.phase.rawValue ?? "loading")), ("configurable", .bool(widget?.configuration != nil)),
        ]
        var tooLarge: String?
        if let status, let entry = status.entry, status.phase == .showing {
            let shownAt = max(now, Date(timeIntervalSince1970: entry.date))
            let margins = widget?.contentMarginsDisabled ?? false
            for (name, renderer) in [("light", renderers.light), ("dark", renderers.dark)] {
                let svg = renderer.render(
                    entry.view, family: instance.family, now: shownAt, idPrefix: "\(Self.idSafe(id))-\(name)-", contentMarginsDisabled: margins,
                    interactive: true)
                // What one card may cost every page it is sent to.
                guard svg.utf8.count <= largestDrawing else {
                    tooLarge = "its drawing is \(svg.utf8.count >> 10) KiB, more than the \(largestDrawing >> 10) KiB a card may send; not shown"
                    members.removeAll { $0.key == "light" }
                    break
                }
                members.append((name, .string(svg)))
            }
            members += Self.notes(on: entry.view)
        }
        if let status {
            members += [
                ("failure", (tooLarge ?? status.lastFailure).map(JSONValue.string) ?? .null),
                // The last good entry, shown since the last reload failed: "as of" its date.
                ("asOf", status.lastFailure != nil ? date(status.entry.map { Date(timeIntervalSince1970: $0.date) }) : .null),
                ("nextEntry", date(status.nextEntryDate)), ("nextReload", date(status.nextReload)),
                ("reason", status.nextReloadReason.map { .string($0.rawValue) } ?? .null), ("deferred", .bool(status.deferredByBudget)),
                ("reloading", .bool(status.reloading)), ("invalidated", .bool(status.invalidated)),
            ]
        }
        return .object(JSONObject(members))
    }

    /// What the page shows of a Live Activity: its Lock Screen presentation drawn in light and dark
    /// (a medium widget's size), its phase, and the island's texts.
    func activityCard(_ record: ActivityRecord) -> JSONValue {
        let now = daemon.registry.clock.now()
        let size = WidgetFamily.systemMedium.displaySize
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(record.id)), ("type", .string(record.type)), ("phase", .string(record.phase.rawValue)), ("stale", .bool(record.isStale)),
            ("width", .number(size.width)), ("height", .number(size.height)), ("failure", record.failure.map(JSONValue.string) ?? .null),
        ]
        if let drawn = record.presentations {
            for (name, renderer) in [("light", renderers.light), ("dark", renderers.dark)] {
                let svg = renderer.render(drawn.lockScreen, family: .systemMedium, now: now, idPrefix: "\(Self.idSafe(record.id))-\(name)-")
                guard svg.utf8.count <= largestDrawing else { break }
                members.append((name, .string(svg)))
            }
            let text = { (view: ViewNode?) in view.map(Self.words) ?? "" }
            members.append(("compact", .string([text(drawn.compactLeading), text(drawn.compactTrailing)].filter { !$0.isEmpty }.joined(separator: " "))))
        }
        return .object(JSONObject(members))
    }

    /// What the page shows of a Control: a button or a toggle, its text, its state.
    func controlCard(_ entry: ControlEntry) -> JSONValue {
        let text = entry.control?.text(describe: Self.words) ?? entry.name
        return .object(
            JSONObject([
                ("kind", .string(entry.kind)), ("name", .string(entry.name)), ("template", .string(entry.control?.template.rawValue ?? "button")),
                ("text", .string(text)), ("isOn", .bool(entry.control?.isOn ?? false)), ("disabled", .bool(entry.control?.disabled ?? false)),
                ("failure", entry.failure.map(JSONValue.string) ?? .null),
            ]))
    }

    /// A view's texts, in reading order, without its symbols: what a page's button or caption says in
    /// the page's own font (which has no SF Symbols).
    static func words(_ view: ViewNode) -> String {
        var words: [String] = []
        func walk(_ node: ViewNode) {
            if node.view == "text", let text = node.attributes["text"]?.stringValue { words.append(text) }
            for child in node.children { walk(child) }
        }
        walk(view)
        return words.joined(separator: " ")
    }

    /// What a card says of a drawing besides the drawing: the symbols drawn by nothing here
    /// (`unknownSymbols`), so that the neutral square standing in for each is explained.
    static func notes(on view: ViewNode) -> [(key: String, value: JSONValue)] {
        let unknown = SymbolGlyphs.unknown(in: view)
        return unknown.isEmpty ? [] : [("unknownSymbols", .array(unknown.map(JSONValue.string)))]
    }

    /// The most bytes one drawing of a card may have, 4 MiB by default: what one card may cost each
    /// page it is sent to (an entry within `WireLimits` draws in far less).
    let largestDrawing: Int

    /// One of Inter's files (`Inter-SemiBold.otf`), from where the host reads it (`SystemFont`);
    /// only those names, so nothing else of the disk is reachable. 404 without the font.
    func font(_ name: String) -> HTTPResponse {
        guard SystemFont.fileNames.contains(name) else { return .text(404, "no font \(name.onOneLine.cut(to: 100))") }
        guard let bytes = SystemFont.contents(of: name) else {
            return .text(404, "\(name) is not installed here (Debian's fonts-inter has it)")
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "font/otf"), ("Cache-Control", "max-age=86400")], body: bytes)
    }

    /// An id as part of an XML id: letters, digits, `-` and `_` kept.
    static func idSafe(_ id: String) -> String {
        "i" + String(id.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }
}
