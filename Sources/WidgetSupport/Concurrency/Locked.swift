import Synchronization

/// State behind a `Mutex`, shared: a value of this type is a reference, its copies share the state,
/// and the mutex and the state are one allocation (an `NSLock` is an object of its own besides its
/// owner), for the small objects made on every request. Sendable where its state is.
///
/// Public as SPI, and inlinable, for the same reason as `MinHeap`: other modules of the package use
/// it on every request, and `package` generics are not specialized across modules.
@_spi(WidgetsInternal) public struct Locked<State> {
    @usableFromInline
    final class Storage {
        @usableFromInline let mutex: Mutex<State>

        @inlinable init(_ state: sending State) { mutex = Mutex(state) }
    }

    @usableFromInline let storage: Storage

    @inlinable public init(_ state: sending State) {
        storage = Storage(state)
    }

    @inlinable public func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        // The state never leaves the lock but through `body`'s result, which the caller owns.
        try storage.mutex._unsafeWithLock(body)
    }
}

extension Locked: Sendable where State: Sendable {}
extension Locked.Storage: Sendable where State: Sendable {}

extension Mutex {
    /// `withLock` without its `sending` requirements, for `Locked`, whose Sendable conformance is
    /// conditional on its state's: only a Sendable state crosses threads.
    @inlinable func _unsafeWithLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try withLock { (value: inout sending Value) throws -> sending T in
            nonisolated(unsafe) let result = try body(&value)
            return result
        }
    }
}
