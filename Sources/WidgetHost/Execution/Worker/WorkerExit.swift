import Glibc
import WidgetSupport

/// How a worker process ended, and what it said last: the material of a crash diagnosis.
struct WorkerExit: Error, CustomStringConvertible {
    enum Cause: Sendable {
        case exited(Int32)
        case signaled(Int32)
        /// The memory guard ended it: `slot` went to `bytes` with a limit of `limit`.
        case memoryExceeded(slot: UInt32, bytes: Int64, limit: Int64)
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
            case .exited(let status): text = "its worker exited with status \(status)\(during)"
            case .signaled(let signal): text = "crashed\(during): its worker was killed by \(signalDescription(signal))"
            case .memoryExceeded(_, let bytes, let limit):
                text = "its worker was killed\(during): over its memory limit (peak \(megabytes(bytes)), limit \(megabytes(limit)))"
            }
        }
        if let lastOutput, killedBecause == nil { text += "; its last output: \"\(lastOutput)\"" }
        return text
    }
}
