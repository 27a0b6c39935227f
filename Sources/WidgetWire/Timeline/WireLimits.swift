/// What one entry may cost the host to hold and draw, whatever its result's size: a bundle within
/// the result limit could otherwise send a view of 150 000 texts, or one of 7 MB of text, and have
/// every surface lay it out, draw it and send it on. An entry over either is refused with the
/// reason, as a result over the result limit is. Both are far above a real widget's: a large
/// widget's view has tens of views and a few hundred characters.
public enum WireLimits {
    /// The most views (nodes) in one entry's view tree.
    public static let viewsPerEntry = 10_000
    /// The most bytes of text in one entry: every string of its views but a picture's data.
    public static let textBytesPerEntry = 256 << 10

    /// The bytes of the strings in an attribute's value, however nested.
    static func textBytes(in value: JSONValue) -> Int {
        switch value {
        case .string(let text): return text.utf8.count
        case .array(let items): return items.reduce(0) { $0 + textBytes(in: $1) }
        case .object(let object): return object.members.reduce(0) { $0 + $1.0.utf8.count + textBytes(in: $1.1) }
        default: return 0
        }
    }
}
