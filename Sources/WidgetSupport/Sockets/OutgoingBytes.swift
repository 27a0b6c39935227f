/// What a connection has to send, and when sending it last made progress: what a connection
/// machine's write timeout is measured from, the same for every protocol on the loop.
package struct OutgoingBytes: Sendable {
    package private(set) var bytes: [UInt8] = []
    /// When the queued bytes last made progress (or were queued into an empty buffer).
    private var progressed: UInt64 = 0

    package init() {}

    package var isEmpty: Bool { bytes.isEmpty }
    package var count: Int { bytes.count }

    /// Queues bytes; the timeout starts now if nothing was waiting.
    package mutating func append(_ more: [UInt8], now: UInt64) {
        if bytes.isEmpty { progressed = now }
        bytes += more
    }

    /// `count` of them were sent.
    package mutating func sent(_ count: Int, now: UInt64) {
        bytes.removeFirst(min(count, bytes.count))
        progressed = now
    }

    /// When what is queued must have made progress, `timeout` after it last did; nil when nothing is.
    package func deadline(_ timeout: UInt64) -> UInt64? {
        bytes.isEmpty ? nil : progressed + timeout
    }
}
