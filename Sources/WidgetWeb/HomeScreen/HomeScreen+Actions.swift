import FoundationEssentials
import Synchronization
import WidgetABI
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetWire

/// What the page does through the host: taps, adding, configuring, removing and ordering instances.
extension HomeScreen {
    func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", text: value.jsonText)
    }

    func failure(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object(JSONObject([("ok", .bool(false)), ("error", .string(message))])))
    }

    func body(_ request: HTTPRequest) -> JSONValue? {
        guard let text = String(bytes: request.body, encoding: .utf8) else { return nil }
        return try? JSONValue.parse(text)
    }

    /// A tap: the widget (`{"instance"}`), its Nth link or its Nth control, as `widgets tap` does.
    func tap(_ request: HTTPRequest) -> HTTPResponse {
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

    /// A press of a Control (`{"kind": K}`), or a toggle set (`"set": true`), as `widgets control`
    /// does. The kind is in the body, as written: a kind may hold any character a path would mangle.
    func pressControl(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = body(request), let kind = body["kind"]?.stringValue else {
            return failure(400, "expected a JSON object with \"kind\", and \"set\": true or false for a toggle set")
        }
        let press: ControlPress
        switch body["set"] {
        case .bool(let on)?: press = .set(on)
        case nil, .null?: press = .press
        default: return failure(400, "\"set\" must be true or false")
        }
        let answer = daemon.answer(.pressControl(kind: kind, press: press))
        if case .refused = answer { return json(422, answer.json) }
        return json(200, answer.json)
    }

    /// Adds an instance of a widget in a family, in its default configuration.
    func add(_ request: HTTPRequest) -> HTTPResponse {
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

    func remove(id: String) -> HTTPResponse {
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
    func order(_ request: HTTPRequest) -> HTTPResponse {
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
    func editor(id: String) -> HTTPResponse {
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
    func configure(id: String, _ request: HTTPRequest) -> HTTPResponse {
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
    func widgetGallery() -> JSONValue {
        let registry = daemon.registry
        let kinds = registry.widgets.map(\.kind)
        if let kept = gallery.withLock({ $0 }), kept.kinds == kinds { return kept.made }
        let renderers = self.renderers
        let made: JSONValue = waitingOnTask { () async -> JSONValue in
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
    func blocking(_ body: @escaping @Sendable () async throws -> HTTPResponse) -> HTTPResponse {
        let failure = failure
        return waitingOnTask { () async -> HTTPResponse in
            do {
                return try await body()
            } catch let error as ConfigurationError {
                // A form's error in the form's terms: the parameter's title, not its name.
                return failure(422, error.forPerson ?? error.description)
            } catch {
                return failure(422, "\(error)")
            }
        }
    }
}
