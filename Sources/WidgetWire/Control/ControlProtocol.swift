/// The control protocol, typed: what the CLI, an app's `WidgetCenter` and the home screen ask the
/// running host, and what it answers. Each side encodes and decodes these values; nothing builds
/// or switches on the JSON by hand. One JSON object per line each way (see `ControlSocket`):
///
///     {"request":"reload","v":1,"kind":"com.mygame.game-status"}   -> {"ok":true,"reloaded":2,"deferred":[]}
///     {"request":"status","v":1}                                  -> {"ok":true,"instances":[...]}
///     anything refused                                             -> {"ok":false,"error":"..."}
///
/// Versioned as the worker protocol is: a request says its version (`"v"`, 1 when absent, as the
/// clients before it sent none); a host refuses a version newer than its own, naming both.
public enum ControlRequest: Equatable, Sendable {
    /// `WidgetCenter.reloadTimelines(ofKind:)` (`kind`), or `reloadAllTimelines()` (no kind) of an
    /// app (`app`: the bundles it reaches); `foreground` when the app is in front (outside the budget).
    case reload(kind: String?, app: AppIdentity?, foreground: Bool)
    /// The placed widgets and their configurations (`WidgetCenter.getCurrentConfigurations`).
    case configurations
    /// Read the instance store again (after `widgets add` wrote it).
    case sync
    /// A tap on what an instance shows: the widget, its Nth link, or its Nth button or toggle.
    case tap(instance: String, target: TapTarget)
    /// Open a URL as a tap on it would: in the bundle that claims its scheme, else the desktop.
    case open(url: String)
    /// Every instance's state, or one's.
    case status(id: String?)
    /// What an instance shows, as one line of text, drawn in another family.
    case text(id: String, family: WidgetFamily)
    /// The home screen's address with its token, when the host serves one.
    case home
    /// The events of some instances (all when `ids` is nil), after what each shows now.
    case watch(ids: [String]?)
    /// What some instances (all when `ids` is nil) show now as view trees, in the home screen's order,
    /// for a client that lays them out and draws them itself (`widgets desktop`).
    /// Asked for every instance (`ids` nil), `activities` adds each Live Activity (first, as a medium
    /// widget showing its Lock Screen view) and `controls` one medium tile of the Controls (last).
    case entries(ids: [String]?, activities: Bool = false, controls: Bool = false)
    /// Start a Live Activity of `type` (its attributes type's name) with its attributes and first
    /// content (`Activity.request`, `widgets activity start`).
    case activityStart(type: String, attributes: JSONValue, content: ActivityContentValue)
    /// New content for an activity (`Activity.update`).
    case activityUpdate(id: String, content: ActivityContentValue)
    /// End an activity, with its last content if given, leaving as `dismissal` says (`Activity.end`).
    case activityEnd(id: String, content: ActivityContentValue?, dismissal: ActivityDismissal)
    /// The activities the host keeps (of one type, or all), ended ones not yet dismissed too.
    case activities(type: String?)
    /// The Controls bundles offer, each with its state now (of one kind, or all).
    case controls(kind: String?)
    /// Press a Control (`widgets control KIND --press`, a bar's click, the page).
    case pressControl(kind: String, press: ControlPress)
    /// Ask Controls for their state again (`ControlCenter.shared.reloadControls(ofKind:)`); all when nil.
    case reloadControls(kind: String?)

    /// An activity's content: its state, when it turns stale, and its relevance among others.
    public struct ActivityContentValue: Equatable, Sendable {
        public var state: JSONValue
        public var staleDate: Double?
        public var relevance: Double

        public init(state: JSONValue, staleDate: Double? = nil, relevance: Double = 0) {
            self.state = state
            self.staleDate = staleDate
            self.relevance = relevance
        }

        var members: [(key: String, value: JSONValue)] {
            [("state", state), ("staleDate", staleDate.map(JSONValue.number) ?? .null), ("relevanceScore", .number(relevance))]
        }

        init(json: JSONValue) throws(ControlProtocolError) {
            guard let state = json["state"], case .object = state else {
                throw ControlProtocolError("\"state\" must be an object: the activity's ContentState as JSON")
            }
            self.state = state
            switch json["staleDate"] {
            case nil, .null?: staleDate = nil
            case .number(let date)? where date.isFinite: staleDate = date
            default: throw ControlProtocolError("\"staleDate\" must be a date in seconds since 1970, or null")
            }
            switch json["relevanceScore"] {
            case nil, .null?: relevance = 0
            case .number(let score)? where score.isFinite: relevance = score
            default: throw ControlProtocolError("\"relevanceScore\" must be a number")
            }
        }
    }

    /// What a tap is on.
    public enum TapTarget: Equatable, Sendable {
        case widget
        /// The Nth link (`Link`), counting from 1 in drawing order.
        case link(Int)
        /// The Nth button or toggle, counting from 1.
        case control(Int)
    }

    /// The app a reload comes from, as iOS limits `reloadAllTimelines()` to the app's own widgets.
    public struct AppIdentity: Equatable, Sendable {
        public var identifier: String?
        public var groups: [String]

        public init(identifier: String?, groups: [String]) {
            self.identifier = identifier
            self.groups = groups
        }
    }

    /// This side's version of the protocol.
    public static let version = 1

    /// The request's name on the wire.
    public var name: String {
        switch self {
        case .reload: "reload"
        case .configurations: "configurations"
        case .sync: "sync"
        case .tap: "tap"
        case .open: "open"
        case .status: "status"
        case .text: "text"
        case .home: "home"
        case .watch: "watch"
        case .entries: "entries"
        case .activityStart: "activity-start"
        case .activityUpdate: "activity-update"
        case .activityEnd: "activity-end"
        case .activities: "activities"
        case .controls: "controls"
        case .pressControl: "control-press"
        case .reloadControls: "reload-controls"
        }
    }

    static let names = "reload, configurations, sync, tap, open, status, text, home, watch, entries, activity-start, activity-update, activity-end, activities, controls, control-press, reload-controls"

    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("request", .string(name)), ("v", .number(Double(Self.version)))]
        switch self {
        case .reload(let kind, let app, let foreground):
            if let kind { members.append(("kind", .string(kind))) }
            if let app {
                var scope: [(key: String, value: JSONValue)] = []
                if let identifier = app.identifier { scope.append(("identifier", .string(identifier))) }
                if !app.groups.isEmpty { scope.append(("groups", .array(app.groups.map(JSONValue.string)))) }
                members.append(("app", .object(JSONObject(scope))))
            }
            if foreground { members.append(("foreground", .bool(true))) }
        case .configurations, .sync, .home:
            break
        case .tap(let instance, let target):
            members.append(("instance", .string(instance)))
            switch target {
            case .widget: break
            case .link(let number): members.append(("link", .number(Double(number))))
            case .control(let number): members.append(("button", .number(Double(number))))
            }
        case .open(let url):
            members.append(("url", .string(url)))
        case .status(let id):
            if let id { members.append(("id", .string(id))) }
        case .text(let id, let family):
            members += [("id", .string(id)), ("family", .string(family.rawValue))]
        case .watch(let ids):
            if let ids { members.append(("ids", .array(ids.map(JSONValue.string)))) }
        case .entries(let ids, let activities, let controls):
            if let ids { members.append(("ids", .array(ids.map(JSONValue.string)))) }
            if activities { members.append(("activities", .bool(true))) }
            if controls { members.append(("controls", .bool(true))) }
        case .activityStart(let type, let attributes, let content):
            members += [("type", .string(type)), ("attributes", attributes)] + content.members
        case .activityUpdate(let id, let content):
            members += [("id", .string(id))] + content.members
        case .activityEnd(let id, let content, let dismissal):
            members += [("id", .string(id))] + (content?.members ?? []) + [("dismissal", dismissal.json)]
        case .activities(let type):
            if let type { members.append(("type", .string(type))) }
        case .controls(let kind), .reloadControls(let kind):
            if let kind { members.append(("kind", .string(kind))) }
        case .pressControl(let kind, let press):
            members.append(("kind", .string(kind)))
            switch press {
            case .press: members.append(("press", .bool(true)))
            case .set(let on): members.append(("set", .bool(on)))
            }
        }
        return .object(JSONObject(members))
    }

    /// A request as a client sent it, checked: every member of its kind well typed. The error says
    /// what is wrong in words a client's author can act on.
    public init(json: JSONValue) throws(ControlProtocolError) {
        guard case .object = json, let name = json["request"]?.stringValue else {
            throw ControlProtocolError("malformed request: expected an object with a \"request\" member")
        }
        if let given = json["v"] {
            guard let version = given.numberValue.flatMap({ Int(exactly: $0) }), version >= 1 else {
                throw ControlProtocolError("\"v\" must be the protocol version, a whole number from 1")
            }
            guard version <= Self.version else {
                throw ControlProtocolError(
                    "the request is of control protocol version \(version); this host speaks version \(Self.version) (a newer widgets sent it: run the host of the same version)")
            }
        }
        func string(_ member: String) throws(ControlProtocolError) -> String? {
            guard let value = json[member], value != .null else { return nil }
            guard let text = value.stringValue else { throw ControlProtocolError("\"\(member)\" must be a string") }
            return text
        }
        func required(_ member: String) throws(ControlProtocolError) -> String {
            guard let text = try string(member) else { throw ControlProtocolError("\"\(member)\" must be a string") }
            return text
        }
        switch name {
        case "reload":
            let kind = try string("kind")
            if let kind, kind.isEmpty { throw ControlProtocolError("\"kind\" must be a non-empty string") }
            var app: AppIdentity?
            if let scope = json["app"], scope != .null {
                let identifier = scope["identifier"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                let groups = (scope["groups"]?.arrayValue ?? []).compactMap(\.stringValue).filter { !$0.isEmpty }
                if identifier != nil || !groups.isEmpty { app = AppIdentity(identifier: identifier, groups: groups) }
            }
            self = .reload(kind: kind, app: app, foreground: json["foreground"]?.boolValue == true)
        case "configurations": self = .configurations
        case "sync": self = .sync
        case "home": self = .home
        case "tap":
            guard let instance = json["instance"]?.stringValue else { throw ControlProtocolError("\"instance\" must be a string") }
            // Numbers from a peer are checked, never trusted to fit an Int.
            let link = json["link"].map { $0.numberValue.flatMap { Int(exactly: $0) } ?? 0 }
            let button = json["button"].map { $0.numberValue.flatMap { Int(exactly: $0) } ?? 0 }
            switch (link, button) {
            case (nil, nil): self = .tap(instance: instance, target: .widget)
            case (let link?, nil) where link >= 1: self = .tap(instance: instance, target: .link(link))
            case (nil, let button?) where button >= 1: self = .tap(instance: instance, target: .control(button))
            default: throw ControlProtocolError("give at most one of \"link\" and \"button\", a whole number from 1")
            }
        case "open":
            self = .open(url: try required("url"))
        case "status":
            self = .status(id: try string("id"))
        case "text":
            let id = try required("id")
            guard let family = json["family"]?.stringValue.flatMap(WidgetFamily.init(rawValue:)) else {
                throw ControlProtocolError("\"family\" must be one of \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self = .text(id: id, family: family)
        case "watch", "entries":
            var ids: [String]?
            if let given = json["ids"], given != .null {
                guard let array = given.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
                    throw ControlProtocolError("\"ids\" must be an array of instance ids")
                }
                ids = array.compactMap(\.stringValue)
            }
            self =
                name == "watch"
                ? .watch(ids: ids) : .entries(ids: ids, activities: json["activities"]?.boolValue == true, controls: json["controls"]?.boolValue == true)
        case "activity-start":
            let type = try required("type")
            guard !type.isEmpty else { throw ControlProtocolError("\"type\" must name an activity type (its attributes type)") }
            guard let attributes = json["attributes"], case .object = attributes else {
                throw ControlProtocolError("\"attributes\" must be an object: the activity's attributes as JSON")
            }
            self = .activityStart(type: type, attributes: attributes, content: try ActivityContentValue(json: json))
        case "activity-update":
            self = .activityUpdate(id: try required("id"), content: try ActivityContentValue(json: json))
        case "activity-end":
            let id = try required("id")
            let content: ActivityContentValue? = json["state"].map { $0 == .null } == false ? try ActivityContentValue(json: json) : nil
            var dismissal = ActivityDismissal.default
            if let given = json["dismissal"], given != .null {
                guard let policy = ActivityDismissal(json: given) else {
                    throw ControlProtocolError("\"dismissal\" must be \"default\", \"immediate\" or a date in seconds since 1970")
                }
                dismissal = policy
            }
            self = .activityEnd(id: id, content: content, dismissal: dismissal)
        case "activities":
            self = .activities(type: try string("type"))
        case "controls":
            self = .controls(kind: try string("kind"))
        case "reload-controls":
            self = .reloadControls(kind: try string("kind"))
        case "control-press":
            let kind = try required("kind")
            switch (json["press"], json["set"]) {
            case (.bool(true)?, nil): self = .pressControl(kind: kind, press: .press)
            case (nil, .bool(let on)?): self = .pressControl(kind: kind, press: .set(on))
            default: throw ControlProtocolError("give \"press\": true, or \"set\": true or false")
            }
        default:
            throw ControlProtocolError("unknown request \"\(name.onOneLine.cut(to: 200))\" (\(Self.names))")
        }
    }
}

/// A request refused for its form, or an answer that is not one.
public struct ControlProtocolError: Error, Equatable, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What the host answers, typed by what was asked. `.refused` is the answer to any request the
/// host could not carry out, with why.
public enum ControlAnswer: Equatable, Sendable {
    case refused(String)
    /// Reloads asked of `count` instances; those the budget holds back, with the date each may.
    case reloaded(count: Int, deferred: [DeferredReload])
    case configurations([PlacedInstance])
    case synced(changed: Int)
    /// A URL opened (by a tap on a link or by `open`), and by what: a bundle's file name, or the
    /// desktop's opener.
    case opened(url: String, by: String)
    /// A button's or toggle's intent performed; the instance reloads.
    case performed(intent: String)
    /// Each instance's state, as `status` events are (see `EventHub`).
    case status([JSONValue])
    case text(String, family: WidgetFamily)
    case home(url: String)
    /// A watch begins: what each watched instance shows now, as `current` events.
    case watching(current: [JSONValue])
    /// What instances show, in the home screen's order: each an object with `id`, `kind`, `family`,
    /// `phase`, `view` (the entry's view tree, or null), `entryDate`, `contentMarginsDisabled`,
    /// `failure` and `asOf` (see `WidgetDaemon.entries`).
    case entries([JSONValue])
    /// An activity as the host keeps it after a start, update or end.
    case activity(ActivityRecord)
    /// The activities the host keeps.
    case activities([ActivityRecord])
    /// Controls and their states (after a press or a reload, too).
    case controls([ControlEntry])

    public struct DeferredReload: Equatable, Sendable {
        public var id: String
        /// An ISO 8601 date.
        public var until: String

        public init(id: String, until: String) {
            self.id = id
            self.until = until
        }
    }

    /// A placed widget and its configuration.
    public struct PlacedInstance: Equatable, Sendable {
        public var id: String
        public var kind: String
        public var family: WidgetFamily
        public var configuration: JSONObject

        public init(id: String, kind: String, family: WidgetFamily, configuration: JSONObject) {
            self.id = id
            self.kind = kind
            self.family = family
            self.configuration = configuration
        }

        public var json: JSONValue {
            .object(JSONObject([
                ("id", .string(id)), ("kind", .string(kind)), ("family", .string(family.rawValue)), ("configuration", .object(configuration)),
            ]))
        }
    }

    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("ok", .bool(true))]
        switch self {
        case .refused(let message):
            return .object(JSONObject([("ok", .bool(false)), ("error", .string(message))]))
        case .reloaded(let count, let deferred):
            members += [
                ("reloaded", .number(Double(count))),
                ("deferred", .array(deferred.map { .object(JSONObject([("id", .string($0.id)), ("until", .string($0.until))])) })),
            ]
        case .configurations(let list):
            members.append(("configurations", .array(list.map(\.json))))
        case .synced(let changed): members.append(("changed", .number(Double(changed))))
        case .opened(let url, let by): members += [("opened", .string(url)), ("bundle", .string(by))]
        case .performed(let intent): members += [("performed", .string(intent)), ("reloading", .bool(true))]
        case .status(let instances): members.append(("instances", .array(instances)))
        case .text(let text, let family): members += [("text", .string(text)), ("family", .string(family.rawValue))]
        case .home(let url): members.append(("url", .string(url)))
        case .watching(let current): members.append(("current", .array(current)))
        case .entries(let list): members.append(("entries", .array(list)))
        case .activity(let record): members.append(("activity", record.json))
        case .activities(let list): members.append(("activities", .array(list.map(\.json))))
        case .controls(let list): members.append(("controls", .array(list.map(\.json))))
        }
        return .object(JSONObject(members))
    }

    /// The host's answer to `request`, read: `.refused` for `{"ok":false}`, else the answer of the
    /// request's kind, each member checked.
    public init(json: JSONValue, answering request: ControlRequest) throws(ControlProtocolError) {
        guard case .object = json, let ok = json["ok"]?.boolValue else {
            throw ControlProtocolError("the answer is not an object with \"ok\"")
        }
        guard ok else {
            self = .refused(json["error"]?.stringValue ?? "refused without saying why")
            return
        }
        func bad(_ member: String) -> ControlProtocolError {
            ControlProtocolError("the answer to \(request.name) has no valid \"\(member)\"")
        }
        func count(_ member: String) throws(ControlProtocolError) -> Int {
            guard let number = json[member]?.numberValue.flatMap({ Int(exactly: $0) }) else { throw bad(member) }
            return number
        }
        func text(_ member: String) throws(ControlProtocolError) -> String {
            guard let text = json[member]?.stringValue else { throw bad(member) }
            return text
        }
        func list(_ member: String) throws(ControlProtocolError) -> [JSONValue] {
            guard let list = json[member]?.arrayValue else { throw bad(member) }
            return list
        }
        switch request {
        case .reload:
            let deferred = try list("deferred").map { item throws(ControlProtocolError) -> DeferredReload in
                guard let id = item["id"]?.stringValue, let until = item["until"]?.stringValue else { throw bad("deferred") }
                return DeferredReload(id: id, until: until)
            }
            self = .reloaded(count: try count("reloaded"), deferred: deferred)
        case .configurations:
            self = .configurations(
                try list("configurations").map { item throws(ControlProtocolError) -> PlacedInstance in
                    guard let id = item["id"]?.stringValue, let kind = item["kind"]?.stringValue,
                        let family = item["family"]?.stringValue.flatMap(WidgetFamily.init(rawValue:)),
                        let configuration = item["configuration"]?.objectValue
                    else { throw bad("configurations") }
                    return PlacedInstance(id: id, kind: kind, family: family, configuration: configuration)
                })
        case .sync:
            self = .synced(changed: try count("changed"))
        case .tap, .open:
            if let intent = json["performed"]?.stringValue {
                self = .performed(intent: intent)
            } else {
                self = .opened(url: try text("opened"), by: try text("bundle"))
            }
        case .status:
            self = .status(try list("instances"))
        case .text:
            guard let family = json["family"]?.stringValue.flatMap(WidgetFamily.init(rawValue:)) else { throw bad("family") }
            self = .text(try text("text"), family: family)
        case .home:
            self = .home(url: try text("url"))
        case .watch:
            self = .watching(current: try list("current"))
        case .entries:
            self = .entries(try list("entries"))
        case .activityStart, .activityUpdate, .activityEnd:
            guard let record = json["activity"] else { throw bad("activity") }
            do { self = .activity(try ActivityRecord(json: record)) } catch { throw ControlProtocolError("the answer's activity is invalid: \(error)") }
        case .activities:
            var records: [ActivityRecord] = []
            for item in try list("activities") {
                do { records.append(try ActivityRecord(json: item)) } catch { throw ControlProtocolError("an activity of the answer is invalid: \(error)") }
            }
            self = .activities(records)
        case .controls, .pressControl, .reloadControls:
            var entries: [ControlEntry] = []
            for item in try list("controls") {
                do { entries.append(try ControlEntry(json: item)) } catch { throw ControlProtocolError("a control of the answer is invalid: \(error)") }
            }
            self = .controls(entries)
        }
    }
}
