import Glibc

/// State behind a mutex, the two in one allocation: for the small objects made on every request
/// (an `NSLock` is an object of its own with a separately allocated mutex, besides its owner). A
/// value of this type is a reference: its copies share the state.
package struct Locked<State>: @unchecked Sendable {
    private final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            withUnsafeMutablePointerToElements { _ = pthread_mutex_destroy($0) }
        }
    }

    private let storage: Storage

    package init(_ state: State) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in state }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_init($0, nil) }
    }

    package func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}
