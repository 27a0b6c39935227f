import CHostShims
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Serves the connections of one listening socket, each a `ConnectionMachine`, on one thread that
/// waits in `poll`: it accepts, reads and writes without blocking, hands each request the machine
/// gives it to the handler on another thread, and wakes for the machines' deadlines. Idle, it is
/// blocked in the kernel. Both of the host's servers are this loop: the control socket and the
/// home screen.
///
/// Slots are bounded, overall and per peer (`Admission.peer`: a user, or an address). When every
/// slot is taken, a new client takes the place of the connection idle the longest (waiting for a
/// request, or between two); when none is idle, or its peer holds all a peer may, it is turned away
/// with `turnedAway`'s bytes.
package final class ConnectionLoop<Machine: ConnectionMachine>: @unchecked Sendable {
    package struct Settings: Sendable {
        package var maximumConnections = 64
        /// The most one peer may hold; a peer over it is turned away (after giving up its own idlest).
        package var maximumPerPeer = 64
        /// How long a closing connection's leftover input is read and dropped.
        package var linger: UInt64 = 1_000_000_000
        /// Events queued for a stream and not yet given to its machine, in bytes, beyond which the
        /// stream is closed (a subscriber sending faster than the loop takes).
        package var maximumStreamBacklog = 8 << 20

        package init() {}
    }

    /// Whether an accepted connection is served, and as whose.
    package enum Admission: Sendable {
        /// Served; `peer` names whose it is, for the per-peer bound.
        case admit(peer: String)
        /// Refused: `bytes` are sent to it (at most what the socket takes at once), `log` is logged.
        case refuse(bytes: [UInt8], log: String?)
    }

    /// The handler's reply: the answer, and for a stream the function that starts sending to it.
    package struct Reply: Sendable {
        package var answer: Machine.Answer
        package var stream: (@Sendable (StreamSink) -> Void)?

        package init(_ answer: Machine.Answer, stream: (@Sendable (StreamSink) -> Void)? = nil) {
            self.answer = answer
            self.stream = stream
        }
    }

    package let settings: Settings
    private let listener: Int32
    private let makeMachine: (UInt64) -> Machine
    private let admit: (Int32) -> Admission
    private let turnedAway: (String) -> [UInt8]
    private let handler: @Sendable (Machine.Request) -> Reply
    private let log: @Sendable (String) -> Void
    private let wake: [Int32]
    private let handlers = DispatchQueue(label: "widgets.connections", attributes: .concurrent)

    /// What other threads hand the loop: answers, stream events, streams closed, a stop.
    private enum Post {
        case answered(UInt64, Reply)
        case streamed(UInt64, [UInt8])
        case closeStream(UInt64)
    }
    private struct Mailbox {
        var posts: [Post] = []
        var stopped = false
        var count = 0
        /// The wake pipe is closed (the loop has ended): nothing may write to its number, which
        /// the process may have given to another file since.
        var wakeClosed = false
    }
    private let mailbox = Mutex(Mailbox())

    /// Everything below is the loop thread's alone.
    private final class Connection {
        let id: UInt64
        let descriptor: Int32
        let peer: String
        var machine: Machine
        var answering = false
        var sink: StreamSink?
        /// While closing: when to stop reading leftovers.
        var lingerUntil: UInt64?
        var wroteShutdown = false

        init(id: UInt64, descriptor: Int32, peer: String, machine: Machine) {
            self.id = id
            self.descriptor = descriptor
            self.peer = peer
            self.machine = machine
        }
    }
    private var connections: [UInt64: Connection] = [:]
    private var nextID: UInt64 = 1

    /// Serves `listener` (a bound, listening socket, which the loop makes non-blocking and closes
    /// when it stops). `admit` runs on the loop's thread for each accepted connection.
    package init(
        listener: Int32, settings: Settings = Settings(), name: String, log: @escaping @Sendable (String) -> Void = { _ in },
        admit: @escaping (Int32) -> Admission, turnedAway: @escaping (String) -> [UInt8],
        machine: @escaping (UInt64) -> Machine, handler: @escaping @Sendable (Machine.Request) -> Reply
    ) throws(SocketError) {
        self.listener = listener
        self.settings = settings
        self.log = log
        self.admit = admit
        self.turnedAway = turnedAway
        self.makeMachine = machine
        self.handler = handler
        var pipe: [Int32] = [-1, -1]
        guard host_pipe_cloexec(&pipe) == 0 else { throw SocketError("cannot make the loop's wake pipe: \(errnoText())") }
        wake = pipe
        for descriptor in [listener, pipe[0], pipe[1]] { Self.setNonBlocking(descriptor) }
        let started = startThread(named: name, stackSize: 1 << 20) { [self] in
            loopThread.store(pthread_self(), ordering: .releasing)
            run()
            finished.signal()
        }
        guard started != nil else {
            for descriptor in pipe { close(descriptor) }
            throw SocketError("cannot start \(name)'s thread: the system makes no more threads")
        }
    }

    /// The loop's thread, as it says itself once running (0 before), and its end: `stop` waits for
    /// the listening socket to be closed, so that the address can be had again at once (a server
    /// started again at the same port).
    private let loopThread = Atomic<UInt>(0)
    private let finished = DispatchSemaphore(value: 0)

    /// Stops accepting and closes every connection, streams included.
    package func stop() {
        let first = mailbox.withLock { mailbox in
            defer { mailbox.stopped = true }
            return !mailbox.stopped
        }
        guard first else { return }
        poke()
        // Not from the loop's own thread (a handler ending it), which would wait for itself; and not
        // for ever, should the loop be stuck in a write the kernel holds.
        if loopThread.load(ordering: .acquiring) != pthread_self(), finished.wait(timeout: .now() + 5) == .success { finished.signal() }
    }

    /// Connections open now (as of the loop's last turn).
    package var connectionCount: Int { mailbox.withLock { $0.count } }

    private func post(_ item: Post) {
        mailbox.withLock { $0.posts.append(item) }
        poke()
    }

    private func poke() {
        mailbox.withLock { mailbox in
            guard !mailbox.wakeClosed else { return }
            var byte: UInt8 = 1
            _ = Glibc.write(wake[1], &byte, 1)
        }
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func setNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    // MARK: The loop

    /// What a read receives into (the loop's thread's alone).
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    private func run() {
        var accepting = true
        while true {
            let (posts, stopped) = mailbox.withLock { mailbox -> ([Post], Bool) in
                defer { mailbox.posts = [] }
                return (mailbox.posts, mailbox.stopped)
            }
            if stopped { break }
            let now = Self.now()
            for item in posts { deliver(item, now: now) }
            for connection in Array(connections.values) { settle(connection, now: Self.now()) }
            mailbox.withLock { $0.count = connections.count }

            var descriptors = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            descriptors.append(pollfd(fd: accepting ? listener : -1, events: Int16(POLLIN), revents: 0))
            var order: [Connection] = []
            var deadline: UInt64?
            for connection in connections.values {
                var events: Int16 = 0
                if connection.lingerUntil != nil || (connection.machine.phase == .open && connection.machine.wantsInput) { events |= Int16(POLLIN) }
                if !connection.machine.output.isEmpty && !connection.wroteShutdown { events |= Int16(POLLOUT) }
                descriptors.append(pollfd(fd: connection.descriptor, events: events, revents: 0))
                order.append(connection)
                for due in [connection.machine.deadline, connection.lingerUntil].compactMap({ $0 }) { deadline = min(deadline ?? due, due) }
            }
            let timeout: Int32 = deadline.map { due in
                let now = Self.now()
                return due <= now ? 0 : Int32(min((due - now) / 1_000_000 + 1, UInt64(Int32.max)))
            } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                log("\(currentThreadName ?? "server"): poll failed: \(errnoText())")
                usleep(10_000)
                continue
            }
            if descriptors[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while Glibc.read(wake[0], &drain, drain.count) > 0 {}
            }
            // What the connections sent is taken before new ones come: a request that arrived is
            // under way (and not the idlest) by the time a newcomer needs a slot.
            for (index, connection) in order.enumerated() {
                let revents = descriptors[index + 2].revents
                guard revents != 0, connections[connection.id] != nil else { continue }
                if revents & Int16(POLLOUT) != 0 { flush(connection) }
                if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { read(connection) }
            }
            if descriptors[1].revents != 0 { accepting = acceptAll() }
            let later = Self.now()
            for connection in Array(connections.values) {
                if let due = connection.machine.deadline, due <= later { connection.machine.timePassed(now: later) }
                if let until = connection.lingerUntil, until <= later { end(connection) }
            }
        }
        for connection in Array(connections.values) { end(connection) }
        close(listener)
        mailbox.withLock { mailbox in
            mailbox.count = 0
            mailbox.wakeClosed = true
            close(wake[0])
            close(wake[1])
        }
    }

    private func deliver(_ item: Post, now: UInt64) {
        switch item {
        case .answered(let id, let reply):
            guard let connection = connections[id] else {
                // The connection went while the handler ran: a stream it opened has no one to read it.
                if let stream = reply.stream { handlers.async { stream(StreamSink.closed()) } }
                return
            }
            connection.answering = false
            connection.machine.answered(reply.answer, stream: reply.stream != nil, now: now)
            if let stream = reply.stream {
                let sink = StreamSink(limit: settings.maximumStreamBacklog) { [weak self] item in
                    switch item {
                    case .streamed(let bytes): self?.post(.streamed(id, bytes))
                    case .close: self?.post(.closeStream(id))
                    }
                }
                connection.sink = sink
                // On another thread: the subscriber may send its first events at once.
                handlers.async { stream(sink) }
            }
        case .streamed(let id, let bytes):
            connections[id]?.sink?.taken(bytes.count)
            connections[id]?.machine.streamed(bytes, now: now)
        case .closeStream(let id):
            if let connection = connections[id] { end(connection) }
        }
    }

    /// After anything happened to a connection: writes what it queued, hands its request to the
    /// handler, and follows it to its end.
    private func settle(_ connection: Connection, now: UInt64) {
        guard connections[connection.id] != nil else { return }
        if !connection.machine.output.isEmpty, !connection.wroteShutdown { flush(connection) }
        if !connection.answering, connection.machine.phase == .open, let request = connection.machine.takeRequest() {
            connection.answering = true
            let id = connection.id
            handlers.async { [self] in post(.answered(id, handler(request))) }
        }
        switch connection.machine.phase {
        case .open:
            break
        case .closed:
            end(connection)
        case .closing:
            if connection.machine.output.isEmpty, connection.lingerUntil == nil {
                shutdown(connection.descriptor, Int32(SHUT_WR))
                connection.wroteShutdown = true
                connection.lingerUntil = now + settings.linger
            }
        }
    }

    private func read(_ connection: Connection) {
        let count = chunk.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
        if connection.lingerUntil != nil {
            // Leftovers of a closing connection: dropped; its end ends it.
            if count <= 0 { end(connection) }
            return
        }
        if count <= 0 {
            connection.machine.inputEnded(now: Self.now())
        } else {
            connection.machine.received(chunk[..<count], now: Self.now())
        }
        settle(connection, now: Self.now())
    }

    private func flush(_ connection: Connection) {
        let output = connection.machine.output
        guard !output.isEmpty else { return }
        let count = output.withUnsafeBytes { send(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if count > 0 {
            connection.machine.wrote(count, now: Self.now())
        } else if count < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
            end(connection)
        }
    }

    private func end(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        close(connection.descriptor)
        connection.sink?.finish()
    }

    // MARK: Accepting

    /// Accepts the pending connections, at most `acceptsPerTurn` (the connections already served
    /// get their turn between, however fast clients come). False when the listener is gone.
    private func acceptAll() -> Bool {
        for _ in 0..<Self.acceptsPerTurn {
            let descriptor = host_accept_cloexec(listener)
            if descriptor < 0 {
                let code = errno
                if code == EAGAIN || code == EWOULDBLOCK { return true }
                if code == EINTR || code == ECONNABORTED { continue }
                if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) {
                    // Out of descriptors: the pending connection stays queued; try again shortly.
                    log("\(currentThreadName ?? "server"): accept failed: \(errnoText(code))")
                    usleep(100_000)
                    return true
                }
                if code == EBADF || code == EINVAL { return false }
                log("\(currentThreadName ?? "server"): accept failed: \(errnoText(code))")
                return true
            }
            admitConnection(descriptor)
        }
        return true
    }

    static var acceptsPerTurn: Int { 64 }

    private func admitConnection(_ descriptor: Int32) {
        Self.setNonBlocking(descriptor)
        let peer: String
        switch admit(descriptor) {
        case .refuse(let bytes, let line):
            if let line { log(line) }
            turnAway(descriptor, bytes)
            return
        case .admit(let named):
            peer = named
        }
        let now = Self.now()
        // Before the idlest gives way, what it sent since it was last read is read: within one turn
        // of accepting, a client's request can arrive after its connection was taken (and read
        // empty), followed by a burst of connections, and the request, under way, keeps its slot.
        var looked: Set<UInt64> = []
        while true {
            let theirs = connections.values.filter { $0.peer == peer }
            let full = theirs.count >= settings.maximumPerPeer
            guard full || connections.count >= settings.maximumConnections else { break }
            // A peer at its bound gives up its own idlest; a full loop, its idlest; else it is turned away.
            guard let idlest = Self.idlest(full ? theirs : Array(connections.values)) else {
                return turnAway(
                    descriptor,
                    turnedAway(
                        full
                            ? "too many connections from this client (\(settings.maximumPerPeer))"
                            : "too many connections (\(settings.maximumConnections)), all busy"))
            }
            if looked.insert(idlest.id).inserted {
                read(idlest)
            } else {
                end(idlest)
            }
        }
        let connection = Connection(id: nextID, descriptor: descriptor, peer: peer, machine: makeMachine(now))
        nextID += 1
        connections[connection.id] = connection
        // A client's request usually comes with its connection: read now, it is under way before
        // the next connection of a burst needs a slot (an unread one would be the idlest).
        read(connection)
    }

    private static func idlest(_ candidates: [Connection]) -> Connection? {
        candidates.compactMap { connection in connection.machine.idleSince.map { (connection, $0) } }.min { $0.1 < $1.1 }?.0
    }

    private func turnAway(_ descriptor: Int32, _ bytes: [UInt8]) {
        if !bytes.isEmpty { _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } }
        shutdown(descriptor, Int32(SHUT_WR))
        close(descriptor)
    }
}

/// A connection carrying a stream of events, as its subscriber sees it: events are queued for the
/// loop and sent in order; the stream ends when the peer goes, when it falls too far behind, or
/// when the subscriber closes it.
package final class StreamSink: Sendable {
    enum Item {
        case streamed([UInt8])
        case close
    }

    private let limit: Int
    private let deliver: @Sendable (Item) -> Void
    private let pending = Atomic<Int>(0)
    private let isDone = Atomic<Bool>(false)
    private let handlers = Mutex<[@Sendable () -> Void]>([])

    init(limit: Int, deliver: @escaping @Sendable (Item) -> Void) {
        self.limit = limit
        self.deliver = deliver
    }

    /// A sink that is already closed (the connection went before the stream started).
    static func closed() -> StreamSink {
        let sink = StreamSink(limit: 0) { _ in }
        sink.finish()
        return sink
    }

    package var isClosed: Bool { isDone.load(ordering: .acquiring) }

    /// Queues bytes to send after those queued before; false once the stream has ended (or when
    /// this would put it too far behind, which ends it).
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        guard !isClosed else { return false }
        guard pending.add(bytes.count, ordering: .relaxed).newValue <= limit else {
            close()
            return false
        }
        deliver(.streamed(bytes))
        return true
    }

    /// Ends the stream; the connection closes.
    package func close() {
        guard !isClosed else { return }
        deliver(.close)
    }

    /// Called once the stream has ended, whichever side ended it (at once if it has).
    package func onClose(_ handler: @escaping @Sendable () -> Void) {
        let now: Bool = handlers.withLock { handlers in
            if isClosed { return true }
            handlers.append(handler)
            return false
        }
        if now { handler() }
    }

    /// The loop took `count` bytes into the connection.
    func taken(_ count: Int) { pending.subtract(count, ordering: .relaxed) }

    /// The connection has ended.
    func finish() {
        let handlers: [@Sendable () -> Void] = handlers.withLock { handlers in
            guard !isDone.exchange(true, ordering: .acquiringAndReleasing) else { return [] }
            defer { handlers = [] }
            return handlers
        }
        for handler in handlers { handler() }
    }
}

/// Why a socket cannot be made or used, in one line.
package struct SocketError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
