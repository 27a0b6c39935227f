import Foundation
import Synchronization

/// The files of one directory loading together. What has loaded when the caller stops waiting is
/// taken in file order, as if loaded one by one; what arrives later is taken as it arrives, on
/// `lateQueue`, and said to be late.
final class LoadBatch: @unchecked Sendable {
    private let condition = NSCondition()
    /// Outcomes that arrived while the caller waited, by file index; each takes its file's result
    /// into the registry.
    private var arrived: [Int: @Sendable (_ late: Bool) -> Void] = [:]
    private var remaining: Int
    private var patienceOver = false
    private var handedOff = false
    private let lateQueue: DispatchQueue

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
        condition.broadcast()
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

/// Turns taken in order: the files of a batch are opened one after another, in file order.
final class Turns: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private var skipped: Set<Int> = []

    /// Blocks until every turn before `turn` is done or skipped.
    func wait(for turn: Int) {
        condition.lock()
        while next < turn {
            if skipped.contains(next) {
                next += 1
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }

    func done(_ turn: Int) {
        condition.withLock {
            next = max(next, turn + 1)
            condition.broadcast()
        }
    }

    /// A turn that will not be taken.
    func skip(_ turn: Int) {
        condition.withLock {
            skipped.insert(turn)
            if next == turn { next += 1 }
            condition.broadcast()
        }
    }
}
