/// A connection's protocol as a value: bytes and time go in, bytes to send and requests to answer
/// come out. It owns every decision (what a request is, when a client has taken too long, when the
/// connection ends); the loop that serves it (`ConnectionLoop`) only moves bytes, calls the handler
/// and keeps the clock. So the protocol's cases (a slow client, an idle one, pipelined requests, a
/// request cut in pieces) are tested by feeding a value bytes and times, with no socket and no
/// waiting (the idea of swift-nio's `EmbeddedChannel`).
///
/// Times are monotonic nanoseconds.
package protocol ConnectionMachine: SendableMetatype {
    /// What the machine hands the handler, and what the handler answers.
    associatedtype Request: Sendable
    associatedtype Answer: Sendable

    /// Bytes arrived from the peer.
    mutating func received(_ bytes: ArraySlice<UInt8>, now: UInt64)
    /// The peer will send no more (it shut its side, or the connection broke).
    mutating func inputEnded(now: UInt64)
    /// Called at `deadline` (or later): a timeout may have expired.
    mutating func timePassed(now: UInt64)
    /// A request ready to be answered, taken once; nil when none is (or one is being answered).
    mutating func takeRequest() -> Request?
    /// The handler's answer to the request taken last; `stream`: the connection now carries a
    /// stream of events (`streamed`) until either side ends it.
    mutating func answered(_ answer: Answer, stream: Bool, now: UInt64)
    /// An event of the connection's stream, to send after what is queued.
    mutating func streamed(_ bytes: [UInt8], now: UInt64)
    /// `count` bytes from the front of `output` were written.
    mutating func wrote(_ count: Int, now: UInt64)

    /// Bytes waiting to be written, in order.
    var output: [UInt8] { get }
    /// Whether the loop should read from the peer now (false while a request is answered, so that
    /// pipelined requests wait in the socket rather than in memory).
    var wantsInput: Bool { get }
    /// When `timePassed` must be called next, if ever.
    var deadline: UInt64? { get }
    /// Where the connection is in its life.
    var phase: ConnectionPhase { get }
    /// When it last made progress (a request whole, an answer, bytes written), if it holds its slot
    /// without doing anything now: waiting for a request or idle between two. Nil while it answers
    /// a request or carries a stream. When the loop is full, the one idle longest gives way.
    var idleSince: UInt64? { get }
}

package enum ConnectionPhase: Equatable, Sendable {
    /// Serving.
    case open
    /// Done: `output` is written, then the connection is shut for writing and what the peer still
    /// sends is read and dropped for a moment (closing with unread input would reset the
    /// connection, and the peer could lose the last answer), then it is closed.
    case closing
    /// Closed at once, whatever is queued (the peer is gone, or will not read).
    case closed
}
