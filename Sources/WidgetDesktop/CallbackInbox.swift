/// What a C library's callbacks say, kept until the thread that dispatched them takes it: each
/// callback is given `context` (this inbox, retained until `close`) and posts to it with `post`.
final class CallbackInbox<Event> {
    private var events: [Event] = []
    private(set) var context: UnsafeMutableRawPointer!

    init() {
        context = Unmanaged.passRetained(self).toOpaque()
    }

    /// Lets the inbox go: no callback may post to its context after.
    func close() { Unmanaged<CallbackInbox>.fromOpaque(context).release() }

    static func post(_ context: UnsafeMutableRawPointer?, _ event: Event) {
        guard let context else { return }
        Unmanaged<CallbackInbox>.fromOpaque(context).takeUnretainedValue().events.append(event)
    }

    func append(_ event: Event) { events.append(event) }

    /// What was posted since the last call.
    func take() -> [Event] {
        defer { events.removeAll() }
        return events
    }
}
