/// Whether a reader waiting for input spins before it sleeps: only while input has been coming
/// within `window` of the reader starting to wait, as a worker's requests do when a host asks one
/// after another.
///
/// On this machine's virtual processors most of a round trip to a worker is spent waking threads:
/// an idle processor halts, and the request that wakes it waits for the hypervisor. A worker that
/// keeps polling for a moment after it answers is awake when the next request comes. The spin is
/// bounded: a wait that outlasts the window ends it, so a worker asked now and then spins at most
/// `window` after each answer and then sleeps in `poll` until it is asked again.
struct SpinPolicy {
    static let window: Duration = .microseconds(50)
    private(set) var spins = false

    /// How long the last wait lasted, from its start until input came.
    mutating func waited(_ duration: Duration) {
        spins = duration <= Self.window
    }
}
