import Dispatch
import Glibc
import Testing
@testable import WidgetWire

/// The write-everything loop every writer of the host and the SDK goes through.
@Suite struct WriteAllTests {
    @Test func aTransferThatTakesLittleAtATimeIsCalledUntilAllIsTakenAndEINTRIsRetried() {
        let bytes = Array(0..<100).map(UInt8.init)
        var taken: [UInt8] = []
        var calls = 0
        let error = bytes.withUnsafeBytes { bytes in
            writeAll(bytes) { part in
                calls += 1
                if calls % 3 == 0 {  // every third call interrupted by a signal
                    errno = EINTR
                    return -1
                }
                let count = min(7, part.count)
                taken += part.prefix(count)
                return count
            }
        }
        #expect(error == nil)
        #expect(taken == bytes)
    }

    @Test func theErrorThatStopsItIsReturnedAndATransferTakingNothingIsEIO() {
        let bytes: [UInt8] = [1, 2, 3]
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        #expect(full >= 0)
        defer { close(full) }
        #expect(bytes.withUnsafeBytes { bytes in writeAll(bytes) { write(full, $0.baseAddress, $0.count) } } == ENOSPC)
        #expect(bytes.withUnsafeBytes { bytes in writeAll(bytes) { _ in 0 } } == EIO)
        #expect([UInt8]().withUnsafeBytes { bytes in writeAll(bytes) { _ in Issue.record("nothing to write"); return -1 } } == nil)
    }

    @Test func aFullNonBlockingPipeStopsItUnlessItIsToldToPoll() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let bytes = [UInt8](repeating: 7, count: 1 << 20)  // far more than a pipe holds
        let writer = ends[1]
        #expect(bytes.withUnsafeBytes { bytes in writeAll(bytes) { write(writer, $0.baseAddress, $0.count) } } == EAGAIN)

        // Drained by a reader meanwhile, the whole megabyte goes through when it polls.
        let reader = ends[0]
        nonisolated(unsafe) var total = 0
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                total += count
            }
            drained.signal()
        }
        let error = bytes.withUnsafeBytes { bytes in writeAll(bytes, pollingWhenFull: writer) { write(writer, $0.baseAddress, $0.count) } }
        close(writer)
        #expect(error == nil)
        drained.wait()
        #expect(total >= bytes.count)  // the megabyte, after what the first attempt left in the pipe
    }
}
