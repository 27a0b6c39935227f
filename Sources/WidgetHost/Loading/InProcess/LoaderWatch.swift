import Dispatch
import FoundationEssentials
import Synchronization
import WidgetSupport

/// Watches a batch's loader threads (queue isolation): one whose bundle has been in `initialize`
/// for a whole tick is stalled, and another loader thread is started to take the files after it.
/// One watching thread per batch, which ends with the last loader; a bundle's `initialize` costs
/// no timer of its own.
final class LoaderWatch: Sendable {
    private struct State {
        /// The loaders in a bundle's `initialize`, and whether each was seen there at the last tick.
        var initializing: [Int: Bool] = [:]
        var loaders = 0
        var running = 0
    }

    private let state = Mutex(State())
    private let ended = DispatchSemaphore(value: 0)
    static let tick: TimeInterval = 0.02

    func addLoader() -> Int {
        state.withLock {
            $0.loaders += 1
            $0.running += 1
            return $0.loaders
        }
    }

    func initializing(_ loader: Int) {
        state.withLock { $0.initializing[loader] = false }
    }

    func initialized(_ loader: Int) {
        _ = state.withLock { $0.initializing.removeValue(forKey: loader) }
    }

    func loaderDone() {
        let last = state.withLock {
            $0.running -= 1
            return $0.running == 0
        }
        if last { ended.signal() }
    }

    /// Watches until every loader is done; `stalled` starts another loader.
    func start(stalled: @escaping @Sendable () -> Void) {
        startThread(named: "widgets.loading-watch") { [self] in
            while ended.wait(timeout: .now() + Self.tick) == .timedOut {
                // Loaders stuck since the last tick are marked so that each gets one successor.
                let stuck = state.withLock { state in
                    var stuck = 0
                    for (loader, seen) in state.initializing {
                        if seen {
                            stuck += 1
                            state.initializing[loader] = nil
                        } else {
                            state.initializing[loader] = true
                        }
                    }
                    return stuck
                }
                for _ in 0..<stuck { stalled() }
            }
        }
    }
}
