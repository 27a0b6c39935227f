/// The result of a placeholder, snapshot or timeline request, as it crosses the ABI:
///
///     {"entries": [{"date": 1763750000, "relevance": {"score": 1, "duration": 0}, "view": {...}}],
///      "policy": {"kind": "atEnd"} | {"kind": "after", "date": 1763750900} | {"kind": "never"}}
///
/// Dates are seconds since 1970-01-01 00:00:00 UTC. `policy` is present in timeline results only.
public struct WireTimeline: Equatable, Sendable {
    public var entries: [WireEntry]
    public var policy: WireReloadPolicy?

    public init(entries: [WireEntry], policy: WireReloadPolicy?) {
        self.entries = entries
        self.policy = policy
    }
}

public struct WireEntry: Equatable, Sendable {
    /// Seconds since 1970.
    public var date: Double
    public var relevance: WireRelevance?
    public var view: ViewNode

    public init(date: Double, relevance: WireRelevance? = nil, view: ViewNode) {
        self.date = date
        self.relevance = relevance
        self.view = view
    }
}

public struct WireRelevance: Equatable, Sendable {
    public var score: Double
    /// Seconds the score holds; 0 means until the next entry.
    public var duration: Double

    public init(score: Double, duration: Double) {
        self.score = score
        self.duration = duration
    }
}

public enum WireReloadPolicy: Equatable, Sendable {
    case atEnd
    case after(Double)
    case never
}

extension WireTimeline {
    public var json: JSONValue {
        var object = JSONObject([("entries", .array(entries.map(\.json)))])
        if let policy { object["policy"] = policy.json }
        return .object(object)
    }

    /// Encodes straight to bytes, what a bundle hands the host: the same text as `json.jsonText`,
    /// without building the intermediate value.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128 * max(1, entries.count))
        writer.writeRaw("{\"entries\":[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            writer.writeRaw("{\"date\":")
            writer.write(entry.date)
            if let relevance = entry.relevance {
                writer.writeRaw(",\"relevance\":{\"score\":")
                writer.write(relevance.score)
                writer.writeRaw(",\"duration\":")
                writer.write(relevance.duration)
                writer.bytes.append(UInt8(ascii: "}"))
            }
            writer.writeRaw(",\"view\":")
            writer.write(entry.view)
            writer.bytes.append(UInt8(ascii: "}"))
        }
        writer.bytes.append(UInt8(ascii: "]"))
        if let policy {
            writer.writeRaw(",\"policy\":")
            writer.write(policy.json)
        }
        writer.bytes.append(UInt8(ascii: "}"))
        return writer.bytes
    }

    /// Decodes and checks the structure (not the semantics: ordering and policy sense are the host's
    /// validation). Every fault names where it is.
    public init(json: JSONValue) throws(WireFormatError) {
        guard case .object(let object) = json else { throw WireFormatError(path: "", reason: "result is not a JSON object") }
        guard let entriesValue = object["entries"] else { throw WireFormatError(path: "", reason: "missing \"entries\"") }
        guard case .array(let array) = entriesValue else { throw WireFormatError(path: "entries", reason: "not an array") }
        var entries: [WireEntry] = []
        entries.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            entries.append(try WireEntry(json: element, path: "entries[\(index)]"))
        }
        let policy: WireReloadPolicy? =
            switch object["policy"] {
            case nil, .null?: nil
            case let value?: try WireReloadPolicy(json: value)
            }
        self.init(entries: entries, policy: policy)
    }

    public init(bytes: UnsafeBufferPointer<UInt8>) throws(WireFormatError) {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch { throw WireFormatError(path: "", reason: error.description) }
        try self.init(json: value)
    }
}

extension WireEntry {
    public var json: JSONValue {
        var object = JSONObject([("date", .number(date))])
        if let relevance {
            object["relevance"] = .object(
                JSONObject([("score", .number(relevance.score)), ("duration", .number(relevance.duration))]))
        }
        object["view"] = view.json
        return .object(object)
    }

    public init(json: JSONValue, path: String) throws(WireFormatError) {
        guard case .object(let object) = json else { throw WireFormatError(path: path, reason: "not an object") }
        guard let dateValue = object["date"] else { throw WireFormatError(path: path, reason: "missing \"date\"") }
        guard let date = dateValue.numberValue else { throw WireFormatError(path: "\(path).date", reason: "not a number") }
        var relevance: WireRelevance?
        if let value = object["relevance"], value != .null {
            guard let score = value["score"]?.numberValue else {
                throw WireFormatError(path: "\(path).relevance", reason: "missing numeric \"score\"")
            }
            let duration = value["duration"]?.numberValue ?? 0
            guard duration >= 0 else {
                throw WireFormatError(path: "\(path).relevance.duration", reason: "negative duration \(duration)")
            }
            relevance = WireRelevance(score: score, duration: duration)
        }
        guard let viewValue = object["view"] else { throw WireFormatError(path: path, reason: "missing \"view\"") }
        self.init(date: date, relevance: relevance, view: try ViewNode(json: viewValue, path: "\(path).view"))
    }
}

extension WireReloadPolicy {
    public var json: JSONValue {
        switch self {
        case .atEnd: .object(JSONObject([("kind", .string("atEnd"))]))
        case .never: .object(JSONObject([("kind", .string("never"))]))
        case .after(let date): .object(JSONObject([("kind", .string("after")), ("date", .number(date))]))
        }
    }

    public init(json: JSONValue) throws(WireFormatError) {
        guard let kind = json["kind"]?.stringValue else {
            throw WireFormatError(path: "policy", reason: "missing \"kind\" (atEnd, after or never)")
        }
        switch kind {
        case "atEnd": self = .atEnd
        case "never": self = .never
        case "after":
            guard let date = json["date"]?.numberValue else {
                throw WireFormatError(path: "policy", reason: "\"after\" without a numeric \"date\"")
            }
            self = .after(date)
        default:
            throw WireFormatError(path: "policy.kind", reason: "unknown policy \"\(kind)\" (atEnd, after or never)")
        }
    }
}
