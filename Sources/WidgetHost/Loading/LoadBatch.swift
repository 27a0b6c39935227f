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

/// The files of a batch waiting for a loader thread (queue isolation), taken in file order.
final class LoadQueue<Item: Sendable>: Sendable {
    private let items: Mutex<ArraySlice<Item>>

    init(_ items: [Item]) {
        self.items = Mutex(items[...])
    }

    func next() -> Item? {
        items.withLock { $0.popFirst() }
    }
}

/// Watches a batch's loader threads (queue isolation): one whose bundle has been in `initialize`
/// for a whole tick is stalled, and another loader thread is started to take the files after it.
/// One watching thread per batch, which ends with the last loader; a bundle's `initialize` costs
/// no timer of its own.
final class LoaderWatch: Sendable {
    private struct State {
        /// Per loader: the file in `initialize`, and whether it was seen there at the last tick.
        var initializing: [Int: (item: Int, seen: Bool)] = [:]
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

    func initializing(_ loader: Int, item: Int) {
        state.withLock { $0.initializing[loader] = (item, false) }
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
        let thread = Thread { [self] in
            while ended.wait(timeout: .now() + Self.tick) == .timedOut {
                // Loaders stuck since the last tick are marked so that each gets one successor.
                let stuck = state.withLock { state in
                    var stuck = 0
                    for (loader, entry) in state.initializing {
                        if entry.seen {
                            stuck += 1
                            state.initializing[loader] = nil
                        } else {
                            state.initializing[loader] = (entry.item, true)
                        }
                    }
                    return stuck
                }
                for _ in 0..<stuck { stalled() }
            }
        }
        thread.name = "widgets.loading-watch"
        thread.start()
    }
}

/// Turns taken in order: the files of a batch are opened one after another, in file order. Each
/// turn has its own semaphore, so ending a turn wakes only the next one (not every waiting thread).
final class Turns: @unchecked Sendable {
    private let lock = NSLock()
    private let starts: [DispatchSemaphore]
    private var next = 0
    private var skipped: Set<Int> = []

    init(count: Int) {
        starts = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    }

    /// Blocks until every turn before `turn` is done or skipped.
    func wait(for turn: Int) {
        if lock.withLock({ next >= turn }) { return }
        starts[turn].wait()
    }

    func done(_ turn: Int) {
        lock.withLock { advance(past: turn) }
    }

    /// A turn that will not be taken.
    func skip(_ turn: Int) {
        lock.withLock {
            skipped.insert(turn)
            if next == turn { advance(past: turn) }
        }
    }

    /// Moves `next` beyond `turn` and the skipped turns after it, and starts the turn it reaches.
    /// Each turn is reached once, so each semaphore is signalled at most once. Called locked.
    private func advance(past turn: Int) {
        guard next <= turn else { return }
        next = turn + 1
        while skipped.contains(next) { next += 1 }
        if next < starts.count { starts[next].signal() }
    }
}
