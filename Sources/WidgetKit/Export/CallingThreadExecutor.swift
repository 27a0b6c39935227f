import Foundation
import Synchronization

/// Runs async provider code on the calling thread (the provider's queue) for as long as it has work
/// there, so what it allocates is charged to the provider by the host's memory guard; once it waits
/// on something else, what remains runs on Dispatch's shared threads.
func runOnCallingThread(_ body: @escaping @Sendable () async -> Void) {
    let executor = CallingThreadExecutor()
    Task(executorPreference: executor) { await body() }
    executor.drain()
}

final class CallingThreadExecutor: TaskExecutor {
    /// The jobs queued for the calling thread, and whether it has stopped taking them.
    private let state = Mutex<(jobs: [UnownedJob], released: Bool)>(([], false))

    func enqueue(_ job: UnownedJob) {
        let queued = state.withLock { state in
            guard !state.released else { return false }
            state.jobs.append(job)
            return true
        }
        if !queued {
            DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    /// Runs queued jobs on this thread until none is left, then hands later ones to Dispatch.
    func drain() {
        while true {
            let next: UnownedJob? = state.withLock { state in
                guard !state.jobs.isEmpty else {
                    state.released = true
                    return nil
                }
                return state.jobs.removeFirst()
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
