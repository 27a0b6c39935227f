import FoundationEssentials

extension JSONValue {
    /// The value as a person reads it: strings bare, numbers without a needless ".0", null as "none".
    public var displayText: String {
        switch self {
        case .null: "none"
        case .bool(let value): value ? "true" : "false"
        case .number(let value):
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): value
        case .array, .object: jsonText
        }
    }
}
