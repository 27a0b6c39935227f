import Foundation

/// Runs one provider's requests, one at a time, on the provider's own serial Dispatch queue: calls to
/// one provider never overlap, calls to different providers run in parallel, and a provider that is
/// slow (or never answers until its deadline) holds up only its own queue.
final class ProviderQueue: @unchecked Sendable {
    let kind: String
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var statistics = ProviderStatistics()

    init(kind: String) {
        self.kind = kind
        queue = DispatchQueue(label: "widgets.provider.\(kind)")
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

    var snapshot: ProviderStatistics { lock.withLock { statistics } }
}

/// What one provider has done since the host loaded it.
public struct ProviderStatistics: Sendable, Equatable {
    public var calls = 0
    public var failures = 0
    /// Wall time spent in the provider's requests, from the call to its answer or deadline.
    public var timeInCalls = Duration.zero
}
