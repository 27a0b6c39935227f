import Foundation

/// Runs one provider's requests, one at a time, on the provider's own serial Dispatch queue: calls to
/// one provider never overlap, calls to different providers run in parallel, and a provider that is
/// slow (or never answers until its deadline) holds up only its own queue.
///
/// Each request has one deadline on the host's clock, from the moment it is submitted. When it
/// passes, the caller gets a timeout at once, even if the provider is stuck inside its call; a
/// request still waiting behind a stuck call is never sent; an answer that comes later is dropped.
/// (A thread stuck inside a bundle cannot be taken back in process; see docs/ISOLATION.md.)
///
/// Each run of the provider has its own memory guard slot. A provider that goes over its limit is
/// terminated as iOS terminates an extension: its request fails, and the next request starts it
/// afresh, in a new slot that counts from zero.
final class ProviderQueue: @unchecked Sendable {
    let kind: String
    let memoryLimit: Int64
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var statistics = ProviderStatistics()
    private var slot: UInt32
    /// The highest peak of the provider's earlier runs.
    private var earlierPeak: Int64 = 0

    init(kind: String, memoryLimit: Int64) {
        self.kind = kind
        self.memoryLimit = memoryLimit
        queue = DispatchQueue(label: "widgets.provider.\(kind)")
        slot = MemoryGuard.openSlot(limit: memoryLimit)
    }

    /// The slot of the provider's current run.
    var memorySlot: UInt32 { lock.withLock { slot } }

    /// Ends the current run after the provider went over its limit; the next request starts afresh.
    /// Returns the run's peak.
    func terminate() -> Int64 {
        lock.withLock {
            let peak = MemoryGuard.peak(slot)
            earlierPeak = max(earlierPeak, peak)
            statistics.terminations += 1
            slot = MemoryGuard.openSlot(limit: memoryLimit)
            return peak
        }
    }

    /// Runs `body` on the queue after the requests before it, and returns its result, or `timeout()`
    /// once `due` has come on `clock`, whichever is first. `body` is handed the request's ticket, to
    /// tell it the ABI request number it is waiting on, so the deadline can wake that wait too.
    func perform<T: Sendable>(
        due: Date, clock: WidgetClock, timeout: @escaping @Sendable () -> RequestError,
        _ body: @escaping @Sendable (RequestTicket) throws(RequestError) -> T
    ) async throws(RequestError) -> T {
        let submitted = ContinuousClock.now
        let result: Result<T, RequestError> = await withCheckedContinuation { continuation in
            let ticket = RequestTicket()
            let finish: @Sendable (Result<T, RequestError>) -> Void = { result in
                guard ticket.finish() else { return }
                continuation.resume(returning: result)
            }
            let timer = clock.schedule(at: due) {
                if let id = ticket.requestID { PendingRequests.shared.expire(id) }
                finish(.failure(timeout()))
            }
            queue.async {
                // Timed out while waiting behind another call: never sent.
                guard !ticket.isFinished else { return }
                let result = Result { () throws(RequestError) -> T in try body(ticket) }
                timer.cancel()
                finish(result)
            }
        }
        lock.withLock {
            statistics.calls += 1
            statistics.timeInCalls += ContinuousClock.now - submitted
            if case .failure = result { statistics.failures += 1 }
        }
        return try result.get()
    }

    var snapshot: ProviderStatistics {
        lock.withLock {
            var snapshot = statistics
            if MemoryGuard.isActive {
                snapshot.liveBytes = MemoryGuard.live(slot)
                snapshot.peakBytes = max(earlierPeak, MemoryGuard.peak(slot))
            }
            return snapshot
        }
    }
}

/// One request's passage through a provider queue: finished once, by its answer or its deadline.
final class RequestTicket: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = false
    private var id: UInt?

    /// The ABI request the provider's call is waiting on, if any.
    var requestID: UInt? {
        get { lock.withLock { id } }
        set { lock.withLock { id = newValue } }
    }

    var isFinished: Bool { lock.withLock { finished } }

    /// Claims the right to deliver the result; false if it was already delivered.
    func finish() -> Bool {
        lock.withLock {
            guard !finished else { return false }
            finished = true
            return true
        }
    }
}

/// What one provider has done since the host loaded it.
public struct ProviderStatistics: Sendable, Equatable {
    public init() {}

    public var calls = 0
    public var failures = 0
    /// Wall time from submitting each request to its answer or deadline.
    public var timeInCalls = Duration.zero
    /// Heap bytes the provider's current run holds (nil when the memory guard is not active).
    public var liveBytes: Int64?
    /// The most heap bytes any of its runs held at once.
    public var peakBytes: Int64?
    /// Runs ended for going over the memory limit.
    public var terminations = 0
}
