import Dispatch
import FoundationEssentials
import Synchronization
import WidgetSupport

/// The files of one directory loading together. What has loaded when the caller stops waiting is
/// taken in file order, as if loaded one by one; what arrives later is taken as it arrives, on
/// `lateQueue`, and said to be late.
final class LoadBatch: @unchecked Sendable {
    private let condition = Condition()
    /// Outcomes that arrived while the caller waited, by file index; each takes its file's result
    /// into the registry.
    private var arrived: [Int: @Sendable (_ late: Bool) -> Void] = [:]
    private var remaining: Int
    private var patienceOver = false
    private var handedOff = false
    private let lateQueue: DispatchQueue
    /// What the batch's files learned about their directories, shared: each checked once.
    let verdicts = DirectoryVerdicts()

    init(count: Int, lateQueue: DispatchQueue) {
        remaining = count
        self.lateQueue = lateQueue
    }

    /// A file's outcome: kept for `wait`, or taken at once when the caller has stopped waiting.
    func arrive(_ index: Int, take: @escaping @Sendable (_ late: Bool) -> Void) {
        condition.lock()
        remaining -= 1
        guard !handedOff else {
            condition.unlock()
            lateQueue.async { take(true) }
            return
        }
        arrived[index] = take
        // The caller waits for the last file only: waking it for each (a futex wake and a context
        // switch per file) was an eighth of loading a quick bundle.
        if remaining == 0 { condition.broadcast() }
        condition.unlock()
    }

    /// The caller waits no longer for files still loading.
    func endPatience() {
        condition.lock()
        patienceOver = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every file has arrived or patience ends, then takes what arrived, in file order.
    func wait() {
        condition.lock()
        while remaining > 0 && !patienceOver { condition.wait() }
        handedOff = true
        let ready = arrived.sorted { $0.key < $1.key }.map(\.value)
        arrived = [:]
        condition.unlock()
        for take in ready { take(false) }
    }
}
