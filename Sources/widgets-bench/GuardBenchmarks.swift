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
/// and through the guard charged to a provider's slot. The machine's speed swings between seconds, so
/// the variants take turns, batch by batch, and each figure is the median of its own batches.
func benchmarkGuard(iterations: Int) -> GuardResult {
    /// Per pair: one batch of `iterations` pairs.
    func batch(_ body: () -> Void) -> Double {
        let start = nanoseconds()
        for _ in 0..<iterations { body() }
        return Double(nanoseconds() - start) / Double(iterations)
    }
    // Slots far above any the benchmark's registries open.
    let slot: UInt32 = 4000
    memory_guard_open_slot(slot, 0)
    var libc: [Double] = [], untagged: [Double] = [], tagged: [Double] = []
    for _ in 0..<15 {
        libc.append(batch { memory_guard_libc_pair(64) })
        untagged.append(batch { memory_guard_guarded_pair(64) })
        let previous = memory_guard_enter(slot)
        tagged.append(batch { memory_guard_guarded_pair(64) })
        memory_guard_exit(previous)
    }

    /// Per pair, with two threads each doing `iterations` pairs at once.
    func twoThreads(_ body: @escaping @Sendable (UInt32) -> Void) -> Double {
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
        return Double(nanoseconds() - start) / Double(iterations)
    }
    memory_guard_open_slot(4001, 0)
    memory_guard_open_slot(4002, 0)
    var parallel: [Double] = [], parallelLibc: [Double] = []
    for _ in 0..<9 {
        parallelLibc.append(twoThreads { _ in
            for _ in 0..<iterations { memory_guard_libc_pair(64) }
        })
        parallel.append(twoThreads { slot in
            let previous = memory_guard_enter(slot)
            for _ in 0..<iterations { memory_guard_guarded_pair(64) }
            memory_guard_exit(previous)
        })
    }
    return GuardResult(
        libc: median(libc), untagged: median(untagged), tagged: median(tagged), parallel: median(parallel),
        parallelLibc: median(parallelLibc))
}
