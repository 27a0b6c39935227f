/// Why some bytes are not the JSON they should be. `offset` is a byte offset into the input.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
