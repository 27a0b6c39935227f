/// Why a build failed, in one line a person can act on: what, where, and what to do.
public struct BuildError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }

    /// As `widgets` prints it: one already in a compiler's form (`file:line: error: ...`, which
    /// editors read) as it is, any other after "widgets: error:".
    public var printed: String { description.contains(": error: ") ? description : "widgets: error: " + description }
}
