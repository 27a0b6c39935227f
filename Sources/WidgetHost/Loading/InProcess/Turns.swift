import Dispatch
import Synchronization

/// Turns taken in order: the files of a batch are opened one after another, in file order. Each
/// turn has its own semaphore, so ending a turn wakes only the next one (not every waiting thread).
final class Turns: Sendable {
    private struct State {
        var next = 0
        var skipped: Set<Int> = []
    }

    private let state = Mutex(State())
    private let starts: [DispatchSemaphore]

    init(count: Int) {
        starts = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    }

    /// Blocks until every turn before `turn` is done or skipped.
    func wait(for turn: Int) {
        if state.withLock({ $0.next >= turn }) { return }
        starts[turn].wait()
    }

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

    /// Moves `next` beyond `turn` and the skipped turns after it, and starts the turn it reaches.
    /// Each turn is reached once, so each semaphore is signalled at most once.
    private func advance(_ state: inout State, past turn: Int) {
        guard state.next <= turn else { return }
        state.next = turn + 1
        while state.skipped.contains(state.next) { state.next += 1 }
        if state.next < starts.count { starts[state.next].signal() }
    }
}
