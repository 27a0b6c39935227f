import CWidgetABI
import Foundation

/// What a bundle answered, copied out of its buffers during the completion call.
enum RequestOutcome: Sendable {
    case data([UInt8])
    case failure(String?)
    case malformed(String)
}

/// The requests in flight, across all bundles. A request's completion context is its number, not a
/// pointer: a completion that arrives twice, or after the host gave up waiting, finds no entry and is
/// reported instead of touching freed memory.
final class PendingRequests: @unchecked Sendable {
    static let shared = PendingRequests()

    /// Results larger than this are refused: 64 MiB is far beyond any real timeline.
    static let maximumResultBytes = 64 << 20

    final class Pending: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        /// Names the request in diagnostics; built only when one is needed.
        let label: @Sendable () -> String
        var outcome: RequestOutcome?
        init(label: @escaping @Sendable () -> String) { self.label = label }
    }

    private let lock = NSLock()
    private var next: UInt = 1
    private var pending: [UInt: Pending] = [:]
    /// Recently finished requests, to name the culprit of a late or second completion.
    private var finished: [UInt: @Sendable () -> String] = [:]
    private var finishedOrder: [UInt] = []

    func begin(label: @escaping @Sendable () -> String) -> (UInt, Pending) {
        let entry = Pending(label: label)
        let id = lock.withLock {
            let id = next
            next += 1
            pending[id] = entry
            return id
        }
        return (id, entry)
    }

    /// Called from the bundle's completion, on any thread.
    func complete(_ id: UInt, _ result: UnsafePointer<widget_result_t>?) {
        let outcome = Self.copy(result)
        let entry: Pending? = lock.withLock {
            guard let entry = pending.removeValue(forKey: id) else { return nil }
            entry.outcome = outcome
            remember(id, entry.label)
            return entry
        }
        guard let entry else {
            let culprit = lock.withLock { finished[id] }?() ?? "an unknown request"
            HostLog.warning("ignored a completion for request #\(id) (\(culprit)): it had already completed or timed out")
            return
        }
        entry.semaphore.signal()
    }

    /// Gives up on a request whose deadline passed. Returns false when its completion won the race
    /// (the outcome is then on the entry).
    func abandon(_ id: UInt) -> Bool {
        lock.withLock {
            guard let entry = pending.removeValue(forKey: id) else { return false }
            let label = entry.label
            remember(id) { label() + ", timed out" }
            return true
        }
    }

    private func remember(_ id: UInt, _ label: @escaping @Sendable () -> String) {
        finished[id] = label
        finishedOrder.append(id)
        if finishedOrder.count > 4096 {
            for old in finishedOrder.prefix(2048) { finished[old] = nil }
            finishedOrder.removeFirst(2048)
        }
    }

    private static func copy(_ result: UnsafePointer<widget_result_t>?) -> RequestOutcome {
        guard let result else { return .malformed("completion called with no result") }
        let value = result.pointee
        guard value.struct_size >= UInt32(MemoryLayout<widget_result_t>.offset(of: \.error_message)!) else {
            return .malformed("widget_result_t.struct_size \(value.struct_size) is too small")
        }
        switch value.status {
        case Int32(WIDGET_STATUS_OK.rawValue):
            guard value.length <= maximumResultBytes else {
                return .malformed("result of \(value.length) bytes exceeds the \(maximumResultBytes >> 20) MiB limit")
            }
            guard let data = value.data else { return .malformed("status OK but no data") }
            return data.withMemoryRebound(to: UInt8.self, capacity: value.length) {
                .data(Array(UnsafeBufferPointer(start: $0, count: value.length)))
            }
        case Int32(WIDGET_STATUS_ERROR.rawValue):
            return .failure(value.error_message.map { String(cString: $0) })
        default:
            return .malformed("unknown status \(value.status)")
        }
    }
}

/// The completion every request passes to a bundle.
let hostCompletion: widget_completion_fn = { context, result in
    PendingRequests.shared.complete(UInt(bitPattern: context), result)
}

/// Where the host's diagnostics go: standard error unless a program installs its own handler.
public enum HostLog {
    public enum Level: String, Sendable {
        case debug, info, warning, error
    }

    nonisolated(unsafe) private static var handler: @Sendable (Level, String) -> Void = { level, message in
        FileHandle.standardError.write(Data("widgets: \(level.rawValue): \(message)\n".utf8))
    }
    private static let lock = NSLock()

    /// Replaces the handler; returns the previous one.
    @discardableResult
    public static func setHandler(_ newHandler: @escaping @Sendable (Level, String) -> Void) -> @Sendable (Level, String) -> Void {
        lock.withLock {
            let old = handler
            handler = newHandler
            return old
        }
    }

    public static func log(_ level: Level, _ message: String) {
        let current = lock.withLock { handler }
        current(level, message)
    }

    static func warning(_ message: String) { log(.warning, message) }
}
