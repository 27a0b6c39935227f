import Foundation

/// A list several threads append to, for tests that record what happened.
public final class LockedList<T: Sendable>: @unchecked Sendable {
    public init() {}
    private let lock = NSLock()
    private var items: [T] = []
    public func append(_ item: T) { lock.withLock { items.append(item) } }
    public var values: [T] { lock.withLock { items } }
}
