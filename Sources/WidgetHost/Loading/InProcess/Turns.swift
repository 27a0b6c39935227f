import Dispatch
import Synchronization

/// Turns taken in order: the files of a batch are opened one after another, in file order. A turn
/// that has to wait gets a semaphore of its own, so ending a turn wakes only the next one (not every
/// waiting thread); a turn reached without waiting, as every turn of a batch one thread loads is,
/// costs no semaphore.
final class Turns: Sendable {
    private struct State {
        var next = 0
        var skipped: Set<Int> = []
        /// The turns waiting to start, each on its semaphore.
        var waiting: [Int: DispatchSemaphore] = [:]
    }

    private let state = Mutex(State())

    init() {}

    /// Blocks until every turn before `turn` is done or skipped.
    func wait(for turn: Int) {
        let start: DispatchSemaphore? = state.withLock { state in
            if state.next >= turn { return nil }
            let start = DispatchSemaphore(value: 0)
            state.waiting[turn] = start
            return start
        }
        start?.wait()
    }

    /// Turns waiting to start (for tests).
    var waitingTurns: Int { state.withLock { $0.waiting.count } }

    func done(_ turn: Int) {
        state.withLock { advance(&$0, past: turn) }
    }

    /// A turn that will not be taken.
    func skip(_ turn: Int) {
        state.withLock { state in
            state.skipped.insert(turn)
            if state.next == turn { advance(&state, past: turn) }
        }
    }

    /// Moves `next` beyond `turn` and the skipped turns after it, and starts the turn it reaches if
    /// that one waits. Each turn is reached once, so each semaphore is signalled at most once.
    private func advance(_ state: inout State, past turn: Int) {
        guard state.next <= turn else { return }
        state.next = turn + 1
        if !state.skipped.isEmpty {
            while state.skipped.contains(state.next) { state.next += 1 }
        }
        if !state.waiting.isEmpty, let start = state.waiting.removeValue(forKey: state.next) { start.signal() }
    }
}
