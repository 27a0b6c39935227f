import CWidgetABI
import Dispatch
import FoundationEssentials
import Synchronization
import WidgetABI
import WidgetSupport

/// What a bundle answered, copied out of its buffers during the completion call.
enum RequestOutcome: Sendable {
    case data([UInt8])
    case failure(String?)
    case malformed(String)
}

/// Names a request in diagnostics.
struct RequestLabel: Sendable, CustomStringConvertible {
    let requestKind: RequestKind
    let widgetKind: String
    let fileName: String
    var timedOut = false

    var description: String {
        "\(requestKind.rawValue) of \"\(widgetKind)\" in \(fileName)\(timedOut ? ", timed out" : "")"
    }
}

/// The requests in flight, across all bundles. A request's completion context is its number, not a
/// pointer: a completion that arrives twice, or after the host gave up waiting, finds no entry and is
/// reported instead of touching freed memory.
final class PendingRequests: Sendable {
    static let shared = PendingRequests()

    /// How many finished requests are remembered, to name the culprit of a late or second completion.
    static let rememberedCount = 1024

    final class Pending: @unchecked Sendable {
        let label: RequestLabel
        /// Set by the completion; these three are read and changed under the table's lock only.
        var outcome: RequestOutcome?
        /// Created only when the waiter finds no outcome yet: a provider that answers before
        /// `request` returns (the common case) costs no semaphore.
        var semaphore: DispatchSemaphore?
        var expired = false
        init(label: RequestLabel) { self.label = label }
    }

    /// The requests in flight, by number, and the last finished ones.
    private struct Table {
        var next: UInt = 1
        var pending: [UInt: Pending] = [:]
        var finished: [(id: UInt, label: RequestLabel)?] = Array(repeating: nil, count: PendingRequests.rememberedCount)

        mutating func remember(_ id: UInt, _ label: RequestLabel) {
            finished[Int(id % UInt(PendingRequests.rememberedCount))] = (id, label)
        }
    }

    private let table = Mutex(Table())

    func begin(_ label: RequestLabel) -> (UInt, Pending) {
        let entry = Pending(label: label)
        let id = table.withLock { table in
            let id = table.next
            table.next += 1
            table.pending[id] = entry
            return id
        }
        return (id, entry)
    }

    /// Called from the bundle's completion (`hostCompletion`, which charges it to no provider), on
    /// any thread.
    func complete(_ id: UInt, _ result: UnsafePointer<widget_result_t>?) {
        let outcome = Self.copy(result)
        let found: (Bool, DispatchSemaphore?) = table.withLock { table in
            guard let entry = table.pending.removeValue(forKey: id) else { return (false, nil) }
            entry.outcome = outcome
            table.remember(id, entry.label)
            return (true, entry.semaphore)
        }
        guard found.0 else {
            let culprit = table.withLock { table in table.finished.lazy.compactMap { $0 }.first { $0.id == id }?.label.description }
            HostLog.warning("ignored a completion for request #\(id) (\(culprit ?? "an unknown request")): it had already completed or timed out")
            return
        }
        found.1?.signal()
    }

    /// The outcome, if the bundle has answered.
    func outcome(of entry: Pending) -> RequestOutcome? {
        table.withLock { _ in entry.outcome }
    }

    /// Waits for the outcome, or for `expire`. Nil when the request expired first.
    func wait(for entry: Pending) -> RequestOutcome? {
        let semaphore: DispatchSemaphore? = table.withLock { _ in
            if entry.outcome != nil || entry.expired { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            entry.semaphore = semaphore
            return semaphore
        }
        semaphore?.wait()
        return table.withLock { _ in entry.outcome }
    }

    /// Gives up on a request whose deadline passed, waking its waiter. A completion that comes
    /// afterwards is reported as late. Does nothing if the request already completed.
    func expire(_ id: UInt) {
        let semaphore: DispatchSemaphore?? = table.withLock { table in
            guard let entry = table.pending.removeValue(forKey: id) else { return nil }
            entry.expired = true
            var label = entry.label
            label.timedOut = true
            table.remember(id, label)
            return .some(entry.semaphore)
        }
        if case .some(.some(let semaphore)) = semaphore { semaphore.signal() }
    }

    private static func copy(_ result: UnsafePointer<widget_result_t>?) -> RequestOutcome {
        guard let result else { return .malformed("completion called with no result") }
        let declared = ABISize.declared(result)
        guard declared >= ABISize.result else {
            return .malformed("widget_result_t.struct_size \(declared) is smaller than ABI 1.0's \(ABISize.result)")
        }
        let value = result.pointee
        switch ResultStatus(abiValue: value.status) {
        case .ok:
            guard value.length <= ResultLimit.bytes else {
                return .malformed("result of \(value.length) bytes exceeds the \(ResultLimit.text) limit (WIDGETS_MAX_RESULT_MB sets it)")
            }
            guard let data = value.data else { return .malformed("status OK but no data") }
            return data.withMemoryRebound(to: UInt8.self, capacity: value.length) {
                .data(Array(UnsafeBufferPointer(start: $0, count: value.length)))
            }
        case .error:
            return .failure(value.error_message.map { String(bundleText: $0) })
        case nil:
            return .malformed("unknown status \(value.status)")
        }
    }
}

/// The completion every request passes to a bundle. What the host allocates here (its copy of the
/// answer, the table of pending requests growing) is the host's, not the provider's: a provider
/// calling it during its call would otherwise be charged for it, and for as long as the host keeps it.
let hostCompletion: widget_completion_fn = { context, result in
    MemoryGuard.charging(0) { PendingRequests.shared.complete(UInt(bitPattern: context), result) }
}

