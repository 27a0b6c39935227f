import Foundation
import Glibc

// MARK: - Measurement

func nanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

nonisolated(unsafe) var sink: Any = 0
@inline(never) func blackHole<T>(_ value: T) { sink = value }

/// Times each of `iterations` runs of `body`, after `warmup` untimed runs. Nanoseconds, sorted.
func sample(iterations: Int, warmup: Int, _ body: () -> Void) -> [Double] {
    for _ in 0..<warmup { body() }
    var times: [Double] = []
    times.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = nanoseconds()
        body()
        times.append(Double(nanoseconds() - start))
    }
    return times.sorted()
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }

func formatted(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
