import Glibc

/// State behind a mutex, the two in one allocation: for the small objects made on every request
/// (an `NSLock` is an object of its own with a separately allocated mutex, besides its owner). A
/// value of this type is a reference: its copies share the state.
///
/// Public as SPI, and inlinable, for the same reason as `MinHeap`: other modules of the package use
/// it on every request, and `package` generics are not specialized across modules.
@_spi(WidgetsInternal) public struct Locked<State>: @unchecked Sendable {
    @usableFromInline
    final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            withUnsafeMutablePointerToElements { _ = pthread_mutex_destroy($0) }
        }
    }

    @usableFromInline let storage: Storage

    @inlinable public init(_ state: State) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in state }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_init($0, nil) }
    }

    @inlinable public func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}
