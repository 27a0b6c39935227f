/// What one provider has done since the host loaded it.
public struct ProviderStatistics: Sendable, Equatable {
    public init() {}

    public var calls = 0
    public var failures = 0
    /// Wall time the provider's calls ran, from entering the bundle to the answer or deadline.
    public var timeInCalls = Duration.zero
    /// The heap limit that applies to it (the host's, or its bundle's lower one).
    public var memoryLimit: Int64 = 0
    /// Heap bytes the provider holds: its current run's and what terminated runs still hold (nil
    /// when the memory guard is not active).
    public var liveBytes: Int64?
    /// The part of `liveBytes` that terminated runs still hold.
    public var retainedBytes: Int64?
    /// The most heap bytes any of its runs held at once.
    public var peakBytes: Int64?
    /// Runs ended for going over the memory limit.
    public var terminations = 0
    /// Calls still inside the bundle after their deadline answered the caller.
    public var stuckCalls = 0
    /// Process isolation: calls its worker crashed (or was killed) during.
    public var crashes = 0
}
