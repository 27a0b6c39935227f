import Foundation

/// Runs async provider code on the calling thread (the provider's queue) for as long as it has work
/// there, so what it allocates is charged to the provider by the host's memory guard; once it waits
/// on something else, what remains runs on Dispatch's shared threads.
func runOnCallingThread(_ body: @escaping @Sendable () async -> Void) {
    let executor = CallingThreadExecutor()
    Task(executorPreference: executor) { await body() }
    executor.drain()
}

final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    private var released = false

    func enqueue(_ job: UnownedJob) {
        let queued = lock.withLock {
            guard !released else { return false }
            jobs.append(job)
            return true
        }
        if !queued {
            DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    /// Runs queued jobs on this thread until none is left, then hands later ones to Dispatch.
    func drain() {
        while true {
            let next: UnownedJob? = lock.withLock {
                guard !jobs.isEmpty else {
                    released = true
                    return nil
                }
                return jobs.removeFirst()
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
