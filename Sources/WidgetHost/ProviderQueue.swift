import Foundation

/// Runs one provider's requests, one at a time, on the provider's own serial Dispatch queue: calls to
/// one provider never overlap, calls to different providers run in parallel, and a provider that is
/// slow (or never answers until its deadline) holds up only its own queue.
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

    /// The slot of the provider's current run. Read on the queue.
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

    /// Runs `body` on the queue after the requests before it, and returns its result.
    func perform<T: Sendable>(_ body: @escaping @Sendable () throws(RequestError) -> T) async throws(RequestError) -> T {
        let result: Result<T, RequestError> = await withCheckedContinuation { continuation in
            queue.async {
                let start = ContinuousClock.now
                let result = Result { () throws(RequestError) -> T in try body() }
                let elapsed = ContinuousClock.now - start
                self.lock.withLock {
                    self.statistics.calls += 1
                    self.statistics.timeInCalls += elapsed
                    if case .failure = result { self.statistics.failures += 1 }
                }
                continuation.resume(returning: result)
            }
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

/// What one provider has done since the host loaded it.
public struct ProviderStatistics: Sendable, Equatable {
    public var calls = 0
    public var failures = 0
    /// Wall time spent in the provider's requests, from the call to its answer or deadline.
    public var timeInCalls = Duration.zero
    /// Heap bytes the provider's current run holds (nil when the memory guard is not active).
    public var liveBytes: Int64?
    /// The most heap bytes any of its runs held at once.
    public var peakBytes: Int64?
    /// Runs ended for going over the memory limit.
    public var terminations = 0
}
