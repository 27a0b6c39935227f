import Dispatch
import Synchronization

/// Runs async work from a thread of the caller's own (a server's handler thread, never one of the
/// cooperative pool's, which it would block) and waits for its result.
package func waitingOnTask<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<T?>(nil)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}
