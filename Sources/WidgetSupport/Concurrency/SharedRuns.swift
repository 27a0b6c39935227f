/// An action each caller needs run after its call (a scan that must see what the caller saw end),
/// where callers at the same time share one run, as a database's group commit shares one flush:
/// a caller that comes while a run is under way waits for the next, which it begins or shares.
package final class SharedRuns<Value: Sendable>: @unchecked Sendable {
    private let condition = Condition()
    private let action: @Sendable () -> Value
    // Under `condition`'s lock.
    private var begun = 0
    private var finished = 0
    private var waiting = 0
    private var last: Value

    /// `initial` is what `run` returns before any run finished (never, once one has).
    package init(initial: Value, _ action: @escaping @Sendable () -> Value) {
        self.action = action
        self.last = initial
    }

    /// Returns once a run begun after this call has finished, with what that run (or a later one) gave.
    @discardableResult
    package func run() -> Value {
        condition.lock()
        defer { condition.unlock() }
        let needed = begun + 1
        while finished < needed {
            // One run at a time: begun only when none is under way.
            if begun == finished, begun < needed {
                begun = needed
                condition.unlock()
                let value = action()
                condition.lock()
                (finished, last) = (needed, value)
                condition.broadcast()
            } else {
                waiting += 1
                condition.wait()
                waiting -= 1
            }
        }
        return last
    }

    /// How many runs have begun, and how many callers wait for one: for tests.
    package var counts: (begun: Int, waiting: Int) { condition.withLock { (begun, waiting) } }
}
