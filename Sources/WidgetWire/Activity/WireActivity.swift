/// A Live Activity's presentations, as its bundle draws them for one state (ABI 1.7's activity
/// request): the Lock Screen's view, the Dynamic Island's compact and minimal views and its expanded
/// regions, each a view tree as an entry's is.
public struct WireActivityPresentations: Equatable, Sendable {
    public var lockScreen: ViewNode
    public var compactLeading: ViewNode?
    public var compactTrailing: ViewNode?
    public var minimal: ViewNode?
    /// The expanded Dynamic Island's regions given, in `regions`' order.
    public var expanded: [(region: String, view: ViewNode)]
    public var widgetURL: String?
    /// The Lock Screen presentation's background and the island's outline, as colours are written in views.
    public var backgroundTint: JSONValue?
    public var keylineTint: JSONValue?

    /// The expanded island's regions, in reading order.
    public static let regions = ["leading", "trailing", "center", "bottom"]

    public init(
        lockScreen: ViewNode, compactLeading: ViewNode? = nil, compactTrailing: ViewNode? = nil, minimal: ViewNode? = nil,
        expanded: [(region: String, view: ViewNode)] = [], widgetURL: String? = nil, backgroundTint: JSONValue? = nil,
        keylineTint: JSONValue? = nil
    ) {
        self.lockScreen = lockScreen
        self.compactLeading = compactLeading
        self.compactTrailing = compactTrailing
        self.minimal = minimal
        self.expanded = expanded
        self.widgetURL = widgetURL
        self.backgroundTint = backgroundTint
        self.keylineTint = keylineTint
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.json == rhs.json }

    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("lockScreen", lockScreen.json)]
        if let compactLeading { members.append(("compactLeading", compactLeading.json)) }
        if let compactTrailing { members.append(("compactTrailing", compactTrailing.json)) }
        if let minimal { members.append(("minimal", minimal.json)) }
        if !expanded.isEmpty { members.append(("expanded", .object(JSONObject(expanded.map { ($0.region, $0.view.json) })))) }
        if let widgetURL { members.append(("widgetURL", .string(widgetURL))) }
        if let backgroundTint { members.append(("backgroundTint", backgroundTint)) }
        if let keylineTint { members.append(("keylineTint", keylineTint)) }
        return .object(JSONObject(members))
    }

    /// An answer to an activity request, checked: a Lock Screen view, and each other presentation
    /// well formed where given. A fault names the presentation.
    public init(json: JSONValue) throws(WireFormatError) {
        guard case .object = json else { throw WireFormatError(path: "", reason: "expected a JSON object") }
        func view(_ value: JSONValue, path: String) throws(WireFormatError) -> ViewNode {
            do { return try ViewNode(json: value) } catch { throw WireFormatError(path: path, reason: "\(error)") }
        }
        func optional(_ name: String) throws(WireFormatError) -> ViewNode? {
            guard let value = json[name], value != .null else { return nil }
            return try view(value, path: name)
        }
        guard let lockScreen = json["lockScreen"] else { throw WireFormatError(path: "lockScreen", reason: "an activity has a Lock Screen view") }
        self.lockScreen = try view(lockScreen, path: "lockScreen")
        compactLeading = try optional("compactLeading")
        compactTrailing = try optional("compactTrailing")
        minimal = try optional("minimal")
        expanded = []
        if let regions = json["expanded"], regions != .null {
            guard let object = regions.objectValue else { throw WireFormatError(path: "expanded", reason: "expected an object of regions") }
            for (name, value) in object.members {
                guard Self.regions.contains(name) else {
                    throw WireFormatError(path: "expanded.\(name)", reason: "not a region of the expanded island (\(Self.regions.joined(separator: ", ")))")
                }
                expanded.append((name, try view(value, path: "expanded.\(name)")))
            }
            expanded.sort { Self.regions.firstIndex(of: $0.region)! < Self.regions.firstIndex(of: $1.region)! }
        }
        switch json["widgetURL"] {
        case nil, .null?: widgetURL = nil
        case .string(let url)?: widgetURL = url
        default: throw WireFormatError(path: "widgetURL", reason: "expected a string")
        }
        backgroundTint = json["backgroundTint"].flatMap { $0 == .null ? nil : $0 }
        keylineTint = json["keylineTint"].flatMap { $0 == .null ? nil : $0 }
    }
}
