import Synchronization
import Testing

@testable import WidgetHost

/// When the host sweeps what ended workers left (each sweep reads all of /proc).
@Suite struct OrphanSweepTests {
    @Test func workersEndingTogetherAreSweptOnceAfterAllHaveEnded() {
        let sweeps = Mutex(0)
        let count = { sweeps.withLock { $0 } }
        let afterEnds = SweepsAfterEnds { sweeps.withLock { $0 += 1 } }
        afterEnds.workerEnded()
        #expect(count() == 1, "a worker ending alone: swept at once")
        afterEnds.sweepingOnceAfter {
            for _ in 0..<100 { afterEnds.workerEnded() }
            #expect(count() == 1, "none while they end together")
            // Nested (another registry shutting down meanwhile): still none until the outer one is done.
            afterEnds.sweepingOnceAfter { afterEnds.workerEnded() }
        }
        #expect(count() == 3, "one after each ending of many (the inner one's, then the outer's)")
        afterEnds.workerEnded()
        #expect(count() == 4)
    }
}
