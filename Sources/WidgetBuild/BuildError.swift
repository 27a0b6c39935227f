/// Why a build failed, in one line a person can act on: what, where, and what to do.
public struct BuildError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }
}
