import FoundationEssentials
import Glibc
import WidgetSupport
import WidgetWire

/// A connected socket carrying messages both ways. Writes from several threads are whole messages,
/// one at a time; reads are made by one thread at a time.
final class WorkerChannel: @unchecked Sendable {
    let descriptor: Int32
    private let writeLock = Lock()
    private var buffer: [UInt8] = []
    private var start = 0
    /// Whether the next wait spins first (set by the tests, to spin without counting on time).
    var spinning = SpinPolicy()
    /// What each read goes into, made once (reads are by one thread).
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    /// The socket the descriptor named when the channel was made (device and inode).
    private let identity: (device: UInt64, inode: UInt64)?

    init(descriptor: Int32) {
        self.descriptor = descriptor
        var status = stat()
        identity = fstat(descriptor, &status) == 0 ? (UInt64(status.st_dev), UInt64(status.st_ino)) : nil
    }

    /// Whether the descriptor is still this channel's socket: not closed, nor closed and reused for
    /// something else (as a bundle in a worker may do to descriptor 3).
    var isStillOpen: Bool {
        var status = stat()
        guard let identity, fstat(descriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == identity.device && UInt64(status.st_ino) == identity.inode
    }

    /// Sends one message; false when the other side is gone. Never raises SIGPIPE.
    @discardableResult
    func send(_ message: WorkerMessage) -> Bool {
        let bytes = message.encoded()
        return writeLock.withLock {
            bytes.withUnsafeBytes { raw in writeAll(raw) { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == nil }
        }
    }

    /// The next whole message, blocking until it has arrived. Throws `.closed` at the end of the stream.
    /// While `limit` gives a number of milliseconds (not -1), each wait lasts that long at most,
    /// and `elapsed` is called when one passes without input.
    ///
    /// It waits in `poll`, not in `recv`: a thread blocked in `recv` on a Unix socket sleeps on the
    /// same wait queue as a writer waiting for room, so it is woken, for nothing, each time the other
    /// side reads what this side sent (every answer, for a worker). `poll` wakes only for input.
    func receive(limit: () -> Int32 = { -1 }, elapsed: () -> Void = {}) throws(ChannelError) -> WorkerMessage {
        while true {
            if let message = try nextBufferedMessage() { return message }
            try awaitInput(limit: limit, elapsed: elapsed)
            try fillOnce()
        }
    }

    /// Blocks until there is something to read, or the other side has closed. Spins first while
    /// `spinning` says the input has been coming quickly.
    private func awaitInput(limit: () -> Int32, elapsed: () -> Void) throws(ChannelError) {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let began = ContinuousClock.now
        if spinning.spins {
            while ContinuousClock.now - began < SpinPolicy.window {
                if poll(&waiting, 1, 0) > 0 {
                    spinning.waited(ContinuousClock.now - began)
                    return
                }
                // Whatever else is ready to run on this processor goes first.
                sched_yield()
            }
        }
        while true {
            let ready = poll(&waiting, 1, limit())
            if ready > 0 { break }
            if ready == 0 {
                elapsed()
            } else if errno != EINTR {
                throw .system("cannot wait on the worker channel: \(errnoText())")
            }
        }
        spinning.waited(ContinuousClock.now - began)
    }

    /// A message already buffered, if a whole one is.
    func nextBufferedMessage() throws(ChannelError) -> WorkerMessage? {
        let available = buffer.count - start
        guard available >= 4 else { return nil }
        let length = buffer.withUnsafeBytes { raw in
            Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
        }
        guard length <= WorkerMessage.maximumLength else {
            throw .malformed("a message of \(length) bytes exceeds the limit of \(WorkerMessage.maximumLength)")
        }
        guard available >= 4 + length else {
            // Room for all of a large message at once: a buffer grown by doubling would hold up to
            // twice its size, and copy it on the way.
            if length > chunk.count { buffer.reserveCapacity(buffer.count - start + 4 + length) }
            return nil
        }
        let fieldsStart = start + 4
        let message = try buffer.withUnsafeBytes { raw in
            Result { () throws(ChannelError) in try WorkerMessage(fields: UnsafeRawBufferPointer(rebasing: raw[fieldsStart..<fieldsStart + length])) }
        }.get()
        start = fieldsStart + length
        if start == buffer.count {
            // A large message's room is given back: it would stay the worker's for good.
            if buffer.capacity > 4 * chunk.count { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
            start = 0
        }
        return message
    }

    func fillOnce(flags: Int32 = 0) throws(ChannelError) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, flags) }
            if count > 0 {
                buffer.append(contentsOf: chunk.prefix(count))
                return
            }
            if count == 0 { throw .closed }
            if errno == EINTR { continue }
            throw .system("cannot read from the worker channel: \(errnoText())")
        }
    }

    /// Ends both directions: a reader blocked on the other side sees the end of the stream.
    func shutDown() {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    deinit {
        close(descriptor)
    }
}
