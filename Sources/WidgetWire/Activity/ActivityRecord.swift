/// A Live Activity as the running host keeps it: what an app started (its type, attributes and
/// state), where it is in its life, and what its bundle last drew of it. The control protocol's
/// activity answers carry these; the host saves them.
public struct ActivityRecord: Equatable, Sendable {
    /// ActivityKit's `ActivityState`, as far as the host tells them apart.
    public enum Phase: String, Sendable, CaseIterable {
        case active, stale, ended, dismissed
    }

    public var id: String
    /// The attributes type's name: the `ActivityConfiguration(for:)` that draws it.
    public var type: String
    public var attributes: JSONValue
    public var state: JSONValue
    /// When the content turns stale (seconds since 1970), if ever.
    public var staleDate: Double?
    public var relevance: Double
    public var phase: Phase
    public var started: Double
    public var updated: Double
    public var ended: Double?
    /// When an ended activity leaves every surface.
    public var dismissAt: Double?
    /// What its bundle drew of its current state; nil until drawn, or when drawing failed.
    public var presentations: WireActivityPresentations?
    /// Why the last drawing failed, if it did.
    public var failure: String?

    public init(
        id: String, type: String, attributes: JSONValue, state: JSONValue, staleDate: Double?, relevance: Double, phase: Phase,
        started: Double, updated: Double, ended: Double? = nil, dismissAt: Double? = nil, presentations: WireActivityPresentations? = nil,
        failure: String? = nil
    ) {
        self.id = id
        self.type = type
        self.attributes = attributes
        self.state = state
        self.staleDate = staleDate
        self.relevance = relevance
        self.phase = phase
        self.started = started
        self.updated = updated
        self.ended = ended
        self.dismissAt = dismissAt
        self.presentations = presentations
        self.failure = failure
    }

    /// Whether it is drawn stale: past its stale date, or marked so.
    public var isStale: Bool { phase == .stale }

    public var json: JSONValue {
        func date(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
        return .object(
            JSONObject([
                ("id", .string(id)), ("type", .string(type)), ("attributes", attributes), ("state", state), ("staleDate", date(staleDate)),
                ("relevanceScore", .number(relevance)), ("phase", .string(phase.rawValue)), ("started", .number(started)),
                ("updated", .number(updated)), ("ended", date(ended)), ("dismissAt", date(dismissAt)),
                ("presentations", presentations?.json ?? .null), ("failure", failure.map(JSONValue.string) ?? .null),
            ]))
    }

    /// A record as the host wrote it, checked.
    public init(json: JSONValue) throws(WireFormatError) {
        func text(_ name: String) throws(WireFormatError) -> String {
            guard let value = json[name]?.stringValue, !value.isEmpty else { throw WireFormatError(path: name, reason: "expected a non-empty string") }
            return value
        }
        func number(_ name: String) throws(WireFormatError) -> Double {
            guard let value = json[name]?.numberValue, value.isFinite else { throw WireFormatError(path: name, reason: "expected a number") }
            return value
        }
        func optionalNumber(_ name: String) throws(WireFormatError) -> Double? {
            guard let value = json[name], value != .null else { return nil }
            guard let number = value.numberValue, number.isFinite else { throw WireFormatError(path: name, reason: "expected a number or null") }
            return number
        }
        guard case .object = json else { throw WireFormatError(path: "", reason: "expected an object") }
        id = try text("id")
        type = try text("type")
        guard let attributes = json["attributes"], case .object = attributes else { throw WireFormatError(path: "attributes", reason: "expected an object") }
        guard let state = json["state"], case .object = state else { throw WireFormatError(path: "state", reason: "expected an object") }
        self.attributes = attributes
        self.state = state
        staleDate = try optionalNumber("staleDate")
        relevance = try optionalNumber("relevanceScore") ?? 0
        guard let phase = json["phase"]?.stringValue.flatMap(Phase.init(rawValue:)) else {
            throw WireFormatError(path: "phase", reason: "expected one of \(Phase.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.phase = phase
        started = try number("started")
        updated = try number("updated")
        ended = try optionalNumber("ended")
        dismissAt = try optionalNumber("dismissAt")
        if let drawn = json["presentations"], drawn != .null {
            do { presentations = try WireActivityPresentations(json: drawn) } catch { throw error.within("presentations") }
        } else {
            presentations = nil
        }
        failure = json["failure"]?.stringValue
    }
}

/// When an ended activity leaves (ActivityKit's `ActivityUIDismissalPolicy`).
public enum ActivityDismissal: Equatable, Sendable {
    /// As iOS: it stays up to four hours after it ended.
    case `default`
    case immediate
    /// At a date (seconds since 1970), and at most four hours after it ended.
    case after(Double)

    /// The longest an ended activity stays: four hours, as on iOS.
    public static let longest: Double = 4 * 3600

    public var json: JSONValue {
        switch self {
        case .default: .string("default")
        case .immediate: .string("immediate")
        case .after(let date): .number(date)
        }
    }

    public init?(json: JSONValue) {
        switch json {
        case .string("default"): self = .default
        case .string("immediate"): self = .immediate
        case .number(let date) where date.isFinite: self = .after(date)
        default: return nil
        }
    }
}
