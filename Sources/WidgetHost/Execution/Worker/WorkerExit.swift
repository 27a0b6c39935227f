import CMemoryGuard
import Glibc
import WidgetSupport

/// How a worker process ended, and what it said last: the material of a crash diagnosis.
struct WorkerExit: Error, CustomStringConvertible {
    enum Cause: Sendable {
        case exited(Int32)
        case signaled(Int32)
        /// The memory guard ended it: `slot` went to `bytes` with a limit of `limit`.
        case memoryExceeded(slot: UInt32, bytes: Int64, limit: Int64)
        /// The guard ended it: the worker's memory as a whole went to `bytes`, over `limit`.
        case workerMemoryExceeded(bytes: Int64, limit: Int64)
        /// The guard ended it: it started its `count`th thread, over `limit`.
        case tooManyThreads(count: Int64, limit: Int64)
        /// The system refused it `bytes` of memory: its kernel limit (`limit`, RLIMIT_DATA).
        case outOfMemory(bytes: Int64)
    }

    /// The process that ended.
    let pid: pid_t
    let cause: Cause
    /// Set when the host killed it, saying why ("it was stuck inside ...").
    let killedBecause: String?
    /// Its last line on standard error, if any (Swift's `Fatal error: ...` is printed there).
    let lastOutput: String?
    /// The requests it had not answered, e.g. `timeline of "k"`.
    let unanswered: [String]
    /// Whether the host had asked it to end (it closed its channel): then an exit is no crash.
    var closedByHost = false

    /// The diagnosis, naming what it was doing.
    var description: String {
        switch unanswered.count {
        case 0: summary(while: nil)
        case 1: summary(while: "answering the \(unanswered[0])")
        default: summary(while: "answering the \(unanswered[0]) and \(unanswered.count - 1) other requests")
        }
    }

    /// One clause for a diagnosis: "crashed while answering timeline: its worker was killed by
    /// SIGSEGV (segmentation fault); its last output: ...".
    func summary(while activity: String?) -> String {
        let during = activity.map { " while \($0)" } ?? ""
        var text: String
        if let killedBecause {
            text = "its worker was killed\(during): \(killedBecause)"
        } else {
            switch cause {
            case .exited(WidgetWorker.channelClosedStatus):
                text = "its worker ended\(during): the bundle closed the worker's channel to the host (descriptor 3)"
            case .exited(let status) where closedByHost: text = "its worker exited with status \(status)\(during)"
            case .exited(let status): text = "its worker exited with status \(status)\(during), unasked (a bundle must not end its process)"
            case .signaled(let signal): text = "crashed\(during): its worker was killed by \(signalDescription(signal))"
            case .memoryExceeded(_, let bytes, let limit):
                text = "its worker was killed\(during): over its memory limit (peak \(megabytes(bytes)), limit \(megabytes(limit)))"
            case .workerMemoryExceeded(let bytes, let limit):
                text = "its worker was killed\(during): it exceeded its memory limit (the worker as a whole: \(megabytes(bytes)), limit \(megabytes(limit)))"
            case .tooManyThreads(let count, let limit):
                text = "its worker was killed\(during): too many threads (it started its \(count)th; the limit is \(limit))"
            case .outOfMemory(let bytes):
                text = "its worker was killed\(during): the system refused it memory (\(megabytes(bytes)) asked): it reached its hard memory limit"
            }
        }
        if let lastOutput, killedBecause == nil { text += "; its last output: \"\(lastOutput)\"" }
        return text
    }
}

extension WorkerExit.Cause {
    /// How a worker ended, from its wait status; when it exited with the memory guard's status, what
    /// the guard wrote on `exceededRecord` (the worker's descriptor 4) before ending it says which
    /// limit it went over.
    init(waitStatus status: Int32, exceededRecord: Int32) {
        let terminatedBy = status & 0x7f
        self = terminatedBy == 0 ? .exited((status >> 8) & 0xff) : .signaled(terminatedBy)
        guard case .exited(MEMORY_GUARD_EXIT_STATUS) = self else { return }
        var record = memory_guard_exceeded()
        _ = fcntl(exceededRecord, F_SETFL, fcntl(exceededRecord, F_GETFL) | O_NONBLOCK)
        guard read(exceededRecord, &record, MemoryLayout<memory_guard_exceeded>.size) == MemoryLayout<memory_guard_exceeded>.size,
            record.magic == MEMORY_GUARD_EXCEEDED_MAGIC
        else { return }
        switch record.kind {
        case MEMORY_GUARD_WORKER_MEMORY.rawValue: self = .workerMemoryExceeded(bytes: record.amount, limit: record.limit)
        case MEMORY_GUARD_THREADS.rawValue: self = .tooManyThreads(count: record.amount, limit: record.limit)
        case MEMORY_GUARD_OUT_OF_MEMORY.rawValue: self = .outOfMemory(bytes: record.amount)
        default: self = .memoryExceeded(slot: record.slot, bytes: record.amount, limit: record.limit)
        }
    }
}
