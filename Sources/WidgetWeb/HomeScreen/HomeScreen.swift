import Foundation
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
    private let renderers: (light: SVGRenderer, dark: SVGRenderer)
    private var server: HTTPServer!
    /// The pages open now, and the host's event subscription while any is.
    private let pages = Mutex<(streams: [ObjectIdentifier: EventStream], subscription: Int?)>(([:], nil))
    /// Events are turned into cards here, one at a time and in order, off the engine's thread.
    private let queue = DispatchQueue(label: "widgets.web.cards")
    /// The gallery of every widget, made on first asking (it asks every provider for a snapshot), and
    /// again when the widgets loaded change (a bundle installed or removed while the host runs).
    private let gallery = Mutex<(kinds: [String], made: JSONValue)?>(nil)
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

    /// The token kept in `directory` (`web-token`, readable by its owner only), made on first use:
    /// a bookmark of the page and its cookie stay good across restarts of the host.
    public static func token(in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("web-token")
        if let saved = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            saved.count >= 32, saved.allSatisfy(\.isHexDigit)
        {
            return saved
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let made = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
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
    static let publicPaths: Set<String> = ["/", "/home.js", "/home.css"]

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
        return parts[1].trimmingCharacters(in: .whitespaces)
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
        case ["events"]: return only("GET") { events() }
        case ["widgets"]: return only("GET") { .response(json(200, widgetGallery())) }
        case ["tap"]: return only("POST") { .response(tap(request)) }
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
                stream.send(event: "hello", data: JSONValue.object(JSONObject([("cards", .array(cards)), ("order", order)])).jsonText)
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

    // MARK: - Actions

    private func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", text: value.jsonText)
    }

    private func failure(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object(JSONObject([("ok", .bool(false)), ("error", .string(message))])))
    }

    private func body(_ request: HTTPRequest) -> JSONValue? {
        guard let text = String(bytes: request.body, encoding: .utf8) else { return nil }
        return try? JSONValue.parse(text)
    }

    /// A tap: the widget (`{"instance"}`), its Nth link or its Nth control, as `widgets tap` does.
    private func tap(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = body(request), body["instance"]?.stringValue != nil else {
            return failure(400, "expected a JSON object with \"instance\" and at most one of \"link\" and \"button\"")
        }
        var members: [(key: String, value: JSONValue)] = [("request", .string("tap"))]
        for name in ["instance", "link", "button"] { if let value = body[name] { members.append((name, value)) } }
        // The page's tap is read as a control request is, by the same checks.
        let answer: ControlAnswer
        do {
            answer = daemon.answer(try ControlRequest(json: .object(JSONObject(members))))
        } catch {
            answer = .refused(error.description)
        }
        if case .refused = answer { return json(422, answer.json) }
        return json(200, answer.json)
    }

    /// Adds an instance of a widget in a family, in its default configuration.
    private func add(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = body(request), let kind = body["kind"]?.stringValue, let familyName = body["family"]?.stringValue else {
            return failure(400, "expected a JSON object with \"kind\" and \"family\"")
        }
        guard let family = WidgetFamily(rawValue: familyName) else { return failure(422, "no family \"\(familyName.prefix(100))\"") }
        let registry = daemon.registry
        let store = daemon.store
        return blocking { [self] () async throws -> HTTPResponse in
            _ = try registry.widget(kind: kind, family: family)
            let configuration = try await registry.configuration(kind: kind, assignments: [])
            let instance = try store.update { (list) throws(StateError) in try list.add(kind: kind, family: family, configuration: configuration) }
            try daemon.synchronize()
            return json(201, .object(JSONObject([("ok", .bool(true)), ("id", .string(instance.id))])))
        }
    }

    private func remove(id: String) -> HTTPResponse {
        do {
            try daemon.store.update { list throws(StateError) in
                guard let index = list.instances.firstIndex(where: { $0.id == id }) else { throw list.missing(id: id) }
                list.instances.remove(at: index)
            }
            try daemon.synchronize()
            return json(200, .object(JSONObject([("ok", .bool(true))])))
        } catch {
            return failure(422, "\(error)")
        }
    }

    /// Puts the instances in the order given (kept in the instance store).
    private func order(_ request: HTTPRequest) -> HTTPResponse {
        guard let ids = body(request)?["order"]?.arrayValue, ids.allSatisfy({ $0.stringValue != nil }) else {
            return failure(400, "expected a JSON object with \"order\": an array of instance ids")
        }
        do {
            try daemon.store.update { list throws(StateError) in try list.order(ids.compactMap(\.stringValue)) }
            try daemon.synchronize()
            return json(200, .object(JSONObject([("ok", .bool(true))])))
        } catch {
            return failure(422, "\(error)")
        }
    }

    /// What "Edit Widget" shows: each parameter, its type, its value now, and its choices (an enum's
    /// cases, or what the provider offers now).
    private func editor(id: String) -> HTTPResponse {
        guard let instance = daemon.instances.first(where: { $0.id == id }) else { return failure(404, "no instance \"\(id.prefix(100))\"") }
        let registry = daemon.registry
        return blocking { [self] () async throws -> HTTPResponse in
            guard let widget = registry.widget(kind: instance.kind) else {
                throw ConfigurationError(description: "instance \(id) is a \"\(instance.kind)\", and no loaded bundle provides it")
            }
            guard let schema = widget.configuration else {
                return json(200, .object(JSONObject([("ok", .bool(true)), ("title", .string(widget.displayName)), ("parameters", .array([]))])))
            }
            var parameters: [JSONValue] = []
            for parameter in schema.parameters {
                var choices = parameter.cases
                if parameter.hasDynamicOptions {
                    choices = try await registry.options(kind: instance.kind, parameter: parameter.name, configuration: instance.configuration).options
                }
                let value = instance.configuration[parameter.name]
                parameters.append(
                    .object(
                        JSONObject([
                            ("name", .string(parameter.name)), ("title", .string(parameter.title)), ("type", .string(parameter.type.rawValue)),
                            ("optional", .bool(parameter.isOptional)),
                            ("range", parameter.range.map { .array([.number($0.lowerBound), .number($0.upperBound)]) } ?? .null),
                            ("list", .bool(parameter.isList)),
                            // A list's values separated by commas, as they are set.
                            ("value", .string(value.map { $0 == .null ? "" : $0.arrayValue?.map(\.displayText).joined(separator: ",") ?? $0.displayText } ?? "")),
                            ("default", parameter.defaultValue.map { .string($0.displayText) } ?? .null),
                            ("choices", (parameter.type == .enumeration || parameter.hasDynamicOptions) ? .array(choices.map { option in
                                .object(JSONObject([("value", .string(option.value.displayText)), ("title", .string(option.title))]))
                            }) : .null),
                        ])))
            }
            return json(
                200,
                .object(
                    JSONObject([
                        ("ok", .bool(true)), ("title", .string(schema.title.isEmpty ? widget.displayName : schema.title)),
                        ("description", .string(schema.description)), ("parameters", .array(parameters)),
                    ])))
        }
    }

    /// Saves "Edit Widget": `{"values": {"name": "text", ...}}`, checked as `widgets configure
    /// --set name=text` checks it; on any bad value nothing is saved and the answer names it.
    private func configure(id: String, _ request: HTTPRequest) -> HTTPResponse {
        guard let values = body(request)?["values"]?.objectValue, values.members.allSatisfy({ $0.value.stringValue != nil }) else {
            return failure(400, "expected a JSON object with \"values\": an object of parameter names and texts")
        }
        guard let instance = daemon.instances.first(where: { $0.id == id }) else { return failure(404, "no instance \"\(id.prefix(100))\"") }
        let assignments = values.members.map { "\($0.key)=\($0.value.stringValue ?? "")" }
        let registry = daemon.registry
        let store = daemon.store
        return blocking { [self] () async throws -> HTTPResponse in
            guard registry.widget(kind: instance.kind) != nil else {
                throw ConfigurationError(description: "instance \(id) is a \"\(instance.kind)\", and no loaded bundle provides it: nothing was changed")
            }
            let checked = try await registry.configuration(kind: instance.kind, base: instance.configuration, assignments: assignments)
            let assigned = Set(values.members.map(\.key))
            let saved = try store.update { list throws(StateError) in try list.configure(id: id, checked: checked, assigned: assigned) }
            try daemon.synchronize()
            return json(200, .object(JSONObject([("ok", .bool(true)), ("configuration", .object(saved))])))
        }
    }

    /// "Add Widget": every widget in every family it supports, drawn from a snapshot in its default
    /// configuration (as a new instance would be), and the author's previews. Made once.
    private func widgetGallery() -> JSONValue {
        let registry = daemon.registry
        let kinds = registry.widgets.map(\.kind)
        if let kept = gallery.withLock({ $0 }), kept.kinds == kinds { return kept.made }
        let renderers = renderers
        let made: JSONValue = Self.waiting { () async -> JSONValue in
            var widgets: [JSONValue] = []
            for (number, widget) in registry.widgets.enumerated() {
                var configuration = "{}"
                if widget.configuration != nil, let defaults = try? await registry.configuration(kind: widget.kind, assignments: []) {
                    configuration = JSONValue.object(defaults).jsonText
                }
                var families: [JSONValue] = []
                for family in widget.families {
                    var members: [(key: String, value: JSONValue)] = [("family", .string(family.rawValue))]
                    if let result = try? await registry.request(
                        .snapshot, kind: widget.kind, family: family, configuration: configuration, environment: renderers.light.environment(for: family)),
                        let entry = result.entries.first
                    {
                        for (name, renderer) in [("light", renderers.light), ("dark", renderers.dark)] {
                            members.append(
                                (name, .string(renderer.render(
                                    entry.view, family: family, idPrefix: "g\(number)-\(family.rawValue)-\(name)-",
                                    contentMarginsDisabled: widget.contentMarginsDisabled))))
                        }
                    }
                    families.append(.object(JSONObject(members)))
                }
                // The author's previews (`#Preview`, ABI 1.5), as Xcode's canvas shows them.
                var previews: [JSONValue] = []
                if widget.bundle.abiVersion.minor >= RequestKind.previews.introducedInMinor, let first = widget.families.first,
                    let result = try? await registry.request(.previews, kind: widget.kind, environment: renderers.light.environment(for: first))
                {
                    for (index, preview) in result.previews.enumerated() {
                        guard let entry = preview.entries.first else { continue }
                        var members: [(key: String, value: JSONValue)] = [
                            ("family", .string(preview.family.rawValue)), ("name", .string(preview.name ?? "Preview \(index + 1)")),
                        ]
                        for (name, renderer) in [("light", renderers.light), ("dark", renderers.dark)] {
                            members.append(
                                (name, .string(renderer.render(
                                    entry.view, family: preview.family, now: Date(timeIntervalSince1970: entry.date),
                                    idPrefix: "g\(number)-p\(index)-\(name)-", contentMarginsDisabled: widget.contentMarginsDisabled))))
                        }
                        previews.append(.object(JSONObject(members)))
                    }
                }
                widgets.append(
                    .object(
                        JSONObject([
                            ("kind", .string(widget.kind)), ("title", .string(widget.displayName.isEmpty ? widget.kind : widget.displayName)),
                            ("description", .string(widget.description)), ("families", .array(families)), ("previews", .array(previews)),
                        ])))
            }
            return .object(JSONObject([("ok", .bool(true)), ("widgets", .array(widgets))]))
        }
        gallery.withLock { $0 = (kinds, made) }
        return made
    }

    /// Runs async work from a connection's own thread (never the cooperative pool's) and answers
    /// with its response, or 422 naming the error.
    private func blocking(_ body: @escaping @Sendable () async throws -> HTTPResponse) -> HTTPResponse {
        let failure = failure
        return Self.waiting { () async -> HTTPResponse in
            do { return try await body() } catch { return failure(422, "\(error)") }
        }
    }

    static func waiting<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
