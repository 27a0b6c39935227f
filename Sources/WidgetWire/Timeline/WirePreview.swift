/// One of a widget's previews as its author wrote it (`#Preview(as:) { … } timeline: { … }`): its
/// name, if it has one, the family it is drawn in, and its entries, dated and drawn as a
/// timeline's. A bundle answers a previews request with `{"previews": [...]}` (ABI 1.5).
public struct WirePreview: Equatable, Sendable {
    public var name: String?
    public var family: WidgetFamily
    public var entries: [WireEntry]

    public init(name: String?, family: WidgetFamily, entries: [WireEntry]) {
        self.name = name
        self.family = family
        self.entries = entries
    }

    /// The most previews one answer may hold, and entries one preview may.
    public static let maximumCount = 64
    public static let maximumEntries = 64

    public var json: JSONValue {
        .object(
            JSONObject([
                ("name", name.map(JSONValue.string) ?? .null), ("family", .string(family.rawValue)),
                ("entries", .array(entries.map(\.json))),
            ]))
    }

    public static func json(_ previews: [WirePreview]) -> JSONValue {
        .object(JSONObject([("previews", .array(previews.map(\.json)))]))
    }

    /// The previews of an answer, checked: each with a known family and at least one entry, all well
    /// formed and within the limits; entries are kept in the order written. A fault names the preview.
    public static func list(json: JSONValue) throws(WireFormatError) -> [WirePreview] {
        guard let items = json["previews"]?.arrayValue else { throw WireFormatError(path: "previews", reason: "expected an array") }
        guard items.count <= maximumCount else {
            throw WireFormatError(path: "previews", reason: "\(items.count) previews; at most \(maximumCount)")
        }
        var previews: [WirePreview] = []
        for (index, item) in items.enumerated() {
            let path = "previews[\(index)]"
            guard case .object = item else { throw WireFormatError(path: path, reason: "expected an object") }
            let name: String?
            switch item["name"] {
            case nil, .null?: name = nil
            case .string(let text)?: name = text
            default: throw WireFormatError(path: path + ".name", reason: "expected a string or null")
            }
            guard let familyName = item["family"]?.stringValue, let family = WidgetFamily(rawValue: familyName) else {
                throw WireFormatError(path: path + ".family", reason: "expected a family name (systemSmall, accessoryCircular…)")
            }
            guard let entries = item["entries"], case .array(let list) = entries else {
                throw WireFormatError(path: path + ".entries", reason: "expected an array")
            }
            guard list.count <= maximumEntries else {
                throw WireFormatError(path: path + ".entries", reason: "\(list.count) entries; at most \(maximumEntries)")
            }
            let timeline: WireTimeline
            do {
                timeline = try WireTimeline(json: .object(JSONObject([("entries", entries)])))
            } catch {
                throw WireFormatError(path: path + "." + error.path, reason: error.reason)
            }
            guard !timeline.entries.isEmpty else { throw WireFormatError(path: path + ".entries", reason: "a preview shows at least one entry") }
            previews.append(WirePreview(name: name, family: family, entries: timeline.entries))
        }
        return previews
    }
}
