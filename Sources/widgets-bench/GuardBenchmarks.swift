import CMemoryGuard
import Foundation
import Glibc

// MARK: - 4. The memory guard's cost per allocation

struct GuardResult {
    let libc: Double
    let untagged: Double
    let tagged: Double
    /// Two threads at once, charging neighbouring slots, as parallel providers do.
    let parallel: Double
    let parallelLibc: Double
}

/// malloc + free of 64 bytes: straight through libc (the floor), through the guard on a host thread,
/// and through the guard charged to a provider's slot.
func benchmarkGuard(iterations: Int) -> GuardResult {
    func pairs(_ body: () -> Void) -> Double {
        // Median of 15 batches of `iterations` pairs, per pair.
        var batches: [Double] = []
        for _ in 0..<15 {
            let start = nanoseconds()
            for _ in 0..<iterations { body() }
            batches.append(Double(nanoseconds() - start) / Double(iterations))
        }
        return median(batches)
    }
    let libc = pairs { memory_guard_libc_pair(64) }
    let untagged = pairs { memory_guard_guarded_pair(64) }
    // Slots far above any the benchmark's registries open.
    let slot: UInt32 = 4000
    memory_guard_open_slot(slot, 0)
    let previous = memory_guard_enter(slot)
    let tagged = pairs { memory_guard_guarded_pair(64) }
    memory_guard_exit(previous)

    /// Per pair, with two threads each doing `iterations` pairs at once.
    func twoThreads(_ body: @escaping @Sendable (UInt32) -> Void) -> Double {
        var batches: [Double] = []
        for _ in 0..<7 {
            let group = DispatchGroup()
            let start = nanoseconds()
            for thread in 0..<2 {
                group.enter()
                Thread.detachNewThread {
                    body(4001 + UInt32(thread))
                    group.leave()
                }
            }
            group.wait()
            batches.append(Double(nanoseconds() - start) / Double(iterations))
        }
        return median(batches)
    }
    memory_guard_open_slot(4001, 0)
    memory_guard_open_slot(4002, 0)
    let parallel = twoThreads { slot in
        let previous = memory_guard_enter(slot)
        for _ in 0..<iterations { memory_guard_guarded_pair(64) }
        memory_guard_exit(previous)
    }
    let parallelLibc = twoThreads { _ in
        for _ in 0..<iterations { memory_guard_libc_pair(64) }
    }
    return GuardResult(libc: libc, untagged: untagged, tagged: tagged, parallel: parallel, parallelLibc: parallelLibc)
}
