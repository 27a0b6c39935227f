import Synchronization

/// One file loading in this process (queue isolation), which its deadline may abandon: an abandoned
/// load's registrations and result are dropped when (if ever) it returns.
final class InProcessLoad: Sendable {
    enum Stage: Sendable {
        /// Waiting for another file's `dlopen` to let go of the dynamic loader.
        case waitingForLoader
        /// Opening the file and running its static initializers (`dlopen` holds the dynamic loader).
        case opening
        case initializing
        case finished
        case abandoned
    }

    private let state = Mutex(Stage.waitingForLoader)

    var stage: Stage { state.withLock { $0 } }

    func opening() { state.withLock { if $0 == .waitingForLoader { $0 = .opening } } }
    func initializing() { state.withLock { if $0 == .opening { $0 = .initializing } } }

    /// True when the load finished before its deadline.
    func finish() -> Bool {
        state.withLock {
            guard $0 != .abandoned else { return false }
            $0 = .finished
            return true
        }
    }

    /// The stage the load was abandoned in, or nil when it had finished.
    func abandon() -> Stage? {
        state.withLock { stage in
            guard stage != .finished else { return nil }
            defer { stage = .abandoned }
            return stage
        }
    }
}
