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

    /// Decodes a value, as `init(bytes:)` decodes its text.
    public init(json: JSONValue) throws(WireFormatError) {
        let bytes = Array(json.jsonText.utf8)
        let result: Result<WireTimeline, WireFormatError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(WireFormatError) { return .success(try WireTimeline(bytes: buffer)) } catch { return .failure(error) }
        }
        self = try result.get()
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

}

extension WireReloadPolicy {
    public var json: JSONValue {
        switch self {
        case .atEnd: .object(JSONObject([("kind", .string("atEnd"))]))
        case .never: .object(JSONObject([("kind", .string("never"))]))
        case .after(let date): .object(JSONObject([("kind", .string("after")), ("date", .number(date))]))
        }
    }

    /// Faults are reported relative to the policy object (the decoder adds `policy`).
    public init(json: JSONValue) throws(WireFormatError) {
        try self.init(kind: json["kind"]?.stringValue, date: json["date"]?.numberValue)
    }

    static let missingKind = "missing \"kind\" (atEnd, after or never)"

    /// The policy a `kind` member names, with the `date` an `after` needs; or what is wrong.
    init(kind: String?, date: Double?) throws(WireFormatError) {
        guard let kind else { throw WireFormatError(path: "", reason: Self.missingKind) }
        switch kind {
        case "atEnd": self = .atEnd
        case "never": self = .never
        case "after":
            guard let date else { throw WireFormatError(path: "", reason: "\"after\" without a numeric \"date\"") }
            do throws(WireFormatError) { try WireDate.check(date) } catch { throw error.within("date") }
            self = .after(date)
        default:
            throw WireFormatError(path: "kind", reason: "unknown policy \"\(kind)\" (atEnd, after or never)")
        }
    }
}

/// The dates a timeline may hold, as seconds since 1970: the years 1 to 9999, which calendars and
/// formatters handle. A date beyond them (1e308, say) is a provider's mistake, refused by name.
public enum WireDate {
    /// 0001-01-01T00:00:00Z.
    public static let earliest: Double = -62_135_596_800
    /// 9999-12-31T23:59:59Z.
    public static let latest: Double = 253_402_300_799

    static func check(_ seconds: Double) throws(WireFormatError) {
        guard seconds >= earliest && seconds <= latest else {
            throw WireFormatError(path: "", reason: "date \(seconds) is outside the years 1 to 9999 (\(Int(earliest)) to \(Int(latest)) seconds since 1970)")
        }
    }

    /// The dates a view's own attributes hold (a text's date, range, timer and pause time).
    static func checkAttributes(of node: ViewNode) throws(WireFormatError) {
        for name in ["date", "pauseTime"] {
            if let seconds = node.attributes[name]?.numberValue {
                do throws(WireFormatError) { try check(seconds) } catch { throw error.within(name) }
            }
        }
        for name in ["dateRange", "timerInterval"] {
            for seconds in node.attributes[name]?.arrayValue?.compactMap(\.numberValue) ?? [] {
                do throws(WireFormatError) { try check(seconds) } catch { throw error.within(name) }
            }
        }
    }
}
