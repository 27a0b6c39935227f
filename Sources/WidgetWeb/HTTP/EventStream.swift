import CHostShims
import Foundation
import Glibc
import Synchronization

/// An open Server-Sent Events stream. Events are queued and written in order on the stream's own
/// queue, so a sender never waits for a page; a page that falls `maximumPending` events behind,
/// or does not take a write within the server's write timeout, is closed.
public final class EventStream: @unchecked Sendable {
    public static let maximumPending = 256
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "widgets.web.stream")
    private let pending = Atomic<Int>(0)
    private let closed = Atomic<Bool>(false)
    private let closeHandlers = Mutex<[@Sendable () -> Void]>([])

    init(descriptor: Int32) { self.descriptor = descriptor }

    public var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Queues an event (`event:` its name, `data:` each line); false once the stream is closed.
    @discardableResult
    public func send(event: String? = nil, data: String) -> Bool {
        guard !isClosed else { return false }
        guard pending.add(1, ordering: .relaxed).newValue <= Self.maximumPending else {
            close()
            return false
        }
        var text = event.map { "event: \($0)\n" } ?? ""
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        let bytes = Array((text + "\n").utf8)
        queue.async { [self] in
            pending.subtract(1, ordering: .relaxed)
            guard !isClosed else { return }
            if !write(descriptor, bytes) { close() }
        }
        return true
    }

    /// Called once the stream has ended, whichever side ended it.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let now: Bool = closeHandlers.withLock { handlers in
            if isClosed { return true }
            handlers.append(handler)
            return false
        }
        if now { handler() }
    }

    /// Ends the stream; its connection closes.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// The connection's end: no write is under way once this returns, so its descriptor may close.
    func finish() {
        if !closed.exchange(true, ordering: .acquiringAndReleasing) { shutdown(descriptor, Int32(SHUT_RDWR)) }
        queue.sync {}
        for handler in closeHandlers.withLock({ handlers in defer { handlers = [] }; return handlers }) { handler() }
    }
}
