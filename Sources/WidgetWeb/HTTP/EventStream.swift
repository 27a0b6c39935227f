import WidgetSupport

/// An open Server-Sent Events stream. Events are queued and written in order by the server's loop,
/// so a sender never waits for a page; a page that falls too far behind (its unsent events over
/// the connection's backlog), or does not take a write within the server's write timeout, is closed.
public final class EventStream: Sendable {
    private let sink: StreamSink

    init(_ sink: StreamSink) { self.sink = sink }

    public var isClosed: Bool { sink.isClosed }

    /// Queues an event (`event:` its name, `data:` each line); false once the stream is closed.
    @discardableResult
    public func send(event: String? = nil, data: String) -> Bool {
        var text = event.map { "event: \($0)\n" } ?? ""
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return sink.send(Array((text + "\n").utf8))
    }

    /// Called once the stream has ended, whichever side ended it.
    public func onClose(_ handler: @escaping @Sendable () -> Void) { sink.onClose(handler) }

    /// Ends the stream; its connection closes.
    public func close() { sink.close() }
}
