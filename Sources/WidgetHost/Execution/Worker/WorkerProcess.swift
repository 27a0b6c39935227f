import CHostShims
import CMemoryGuard
import Dispatch
import FoundationEssentials
import Glibc
import WidgetABI
import WidgetSupport
import WidgetWire

/// One running worker process, seen from the host: its channel, the replies it owes, and a thread
/// that reads its messages and its output until it ends.
final class WorkerProcess: @unchecked Sendable {
    typealias Reply = @Sendable (Result<WorkerAnswer, WorkerExit>) -> Void
    typealias HelloHandler = @Sendable (Result<JSONObject, WorkerExit>) -> Void

    let pid: pid_t
    let fileName: String
    private let channel: WorkerChannel
    private let output: Int32
    private let exceeded: Int32
    private let lock = Lock()
    /// The replies owed, with what each request was, for a crash diagnosis (`timeline of "k"`).
    private var replies: [UInt64: (kind: RequestKind, widget: String, reply: Reply)] = [:]
    private var nextID: UInt64 = 1
    private var hello: JSONObject?
    private var helloWaiters: [HelloHandler] = []
    private var ended: WorkerExit?
    private var killReason: String?
    private var closing = false
    /// The worker's output, made into lines (read on the reader thread alone).
    private var outputLines = OutputLines(longest: WorkerProcess.longestLine)
    /// A descriptor that becomes readable when the process ends (pidfd): its end is seen even when
    /// something it forked keeps its channel open. -1 where the kernel has none.
    private let processDescriptor: Int32
    /// The zygote that forked the worker, its parent, which reaps it; nil for a worker the host spawned.
    private let zygote: WorkerZygote?
    private let onExit: @Sendable (WorkerExit) -> Void

    /// The longest line of a worker's output relayed whole; longer ones are cut, with their length.
    static let longestLine = 1024

    /// Starts the thread that reads the worker's messages and output until it ends.
    func startReading() {
        startThread(named: Self.readerName(fileName)) { self.readUntilExit() }
    }

    /// The reading thread's name, as `top -H` and /proc show it: the bundle's, in the 15 bytes the
    /// kernel keeps ("w.GameWidgets" for libGameWidgets.so; a longer one is cut).
    static func readerName(_ fileName: String) -> String {
        var stem = fileName.pathWithoutExtension
        if stem.hasPrefix("lib"), stem.count > 3 { stem.removeFirst(3) }
        return "w." + stem
    }

    init(
        pid: pid_t, fileName: String, channel: WorkerChannel, output: Int32, exceeded: Int32, processDescriptor: Int32,
        zygote: WorkerZygote?, onExit: @escaping @Sendable (WorkerExit) -> Void
    ) {
        self.zygote = zygote
        self.pid = pid
        self.fileName = fileName
        self.channel = channel
        self.output = output
        self.exceeded = exceeded
        self.processDescriptor = processDescriptor
        self.onExit = onExit
    }

    /// Whether the process has ended (and been reaped).
    var hasEnded: Bool { lock.withLock { ended != nil } }

    /// Waits for the worker's first message (the bundle it loaded), or its end.
    func awaitHello(_ handler: @escaping HelloHandler) {
        let ready: Result<JSONObject, WorkerExit>? = lock.withLock {
            if let hello { return .success(hello) }
            if let ended { return .failure(ended) }
            helloWaiters.append(handler)
            return nil
        }
        if let ready { handler(ready) }
    }

    /// Sends a request (its id is set here); `reply` gets the worker's answer, or how it ended
    /// before answering.
    func send(_ request: WorkerRequest, reply: @escaping Reply) {
        var request = request
        let exit: WorkerExit? = lock.withLock {
            if let ended { return ended }
            request.id = nextID
            nextID += 1
            replies[request.id] = (request.kind, request.widget, reply)
            return nil
        }
        if let exit { return reply(.failure(exit)) }
        // A failed send means the worker is gone; its reader thread fails the reply.
        channel.send(.request(request))
    }

    /// Tells the worker the host's time: what its deadlines are measured by.
    func send(now: Date) {
        channel.send(.clock(now: now))
    }

    /// Tells the worker it has been asked nothing for a while.
    func sendIdle() {
        channel.send(.idle)
    }

    /// Kills the worker (SIGKILL), and every process in its group; `reason` goes into the diagnosis
    /// of whatever it still owed.
    func kill(because reason: String) {
        lock.withLock {
            // Never after it was reaped: the pid may belong to another process by then.
            guard !reaping, killReason == nil else { return }
            killReason = reason
            killGroup()
        }
    }

    /// SIGKILL to the worker's process group (what it forked, too), and to the worker itself should
    /// it have left the group. Called with the lock held, before the worker is reaped: until then
    /// its pid, and so its group's id, are its own.
    private func killGroup() {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Set when the reader thread starts reaping the process.
    private var reaping = false

    /// Ends the worker gently: it exits when its channel closes.
    func close() {
        lock.withLock { closing = true }
        channel.shutDown()
    }

    /// Signalled once the worker has ended and been reaped, with its group.
    private let reaped = DispatchSemaphore(value: 0)

    /// Ends the worker gently, and waits until it and whatever it forked have ended: a host about to
    /// exit leaves nothing of a bundle behind. One that does not end within `timeout` is killed.
    func closeAndWait(timeout: TimeInterval) {
        close()
        if reaped.wait(timeout: .now() + timeout) == .timedOut {
            kill(because: "it did not end within \(timeSpan(timeout)) of being closed")
            _ = reaped.wait(timeout: .now() + 2)
        }
        reaped.signal()  // for any other waiter
    }

    /// The reader thread: messages and output until the process ends, then the diagnosis. The
    /// process's end is watched itself (its pidfd), not only through its channel: a child it forked
    /// may hold a copy of the channel open long after the worker died.
    private func readUntilExit() {
        var descriptors = [
            pollfd(fd: channel.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: output, events: Int16(POLLIN), revents: 0),
            pollfd(fd: processDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var outputOpen = true
        reading: while true {
            descriptors[1].fd = outputOpen ? output : -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if descriptors[1].revents != 0 {
                outputOpen = relayOutput()
            }
            if descriptors[0].revents != 0 {
                do {
                    for message in try channel.receiveAvailable() { deliver(message) }
                } catch {
                    if case .malformed(let text) = error {
                        kill(because: "it sent a malformed message (\(text))")
                    } else if !processEnded(waiting: 0.1) {
                        // Its end of the channel closed, and it lives on: it closed descriptor 3.
                        kill(because: "it closed its channel to the host (descriptor 3) and went on running")
                    }
                    break reading
                }
            }
            if descriptors[2].revents != 0 {
                // It ended. What it said last is still in its channel and its output: take it.
                if let messages = try? channel.receiveAvailableWithoutWaiting() { for message in messages { deliver(message) } }
                break reading
            }
        }
        finish()
    }

    /// Whether the process has ended (it is a zombie, not yet reaped), waiting up to `seconds`.
    private func processEnded(waiting seconds: Double) -> Bool {
        guard processDescriptor >= 0 else { return false }
        var descriptor = pollfd(fd: processDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, Int32(seconds * 1000)) > 0
    }

    private func deliver(_ message: WorkerMessage) {
        switch message {
        case .hello(let object):
            let waiters: [HelloHandler] = lock.withLock {
                hello = object
                defer { helloWaiters = [] }
                return helloWaiters
            }
            for waiter in waiters { waiter(.success(object)) }
        case .answer(let answer):
            guard let reply = lock.withLock({ replies.removeValue(forKey: answer.id)?.reply }) else {
                HostLog.warning("\(fileName): its worker answered request \(answer.id), which it was not asked or had answered; ignored")
                return
            }
            reply(.success(answer))
        case .request, .clock, .idle:
            HostLog.warning("\(fileName): its worker sent a message only a host sends; ignored")
        }
    }

    /// Relays what the worker wrote to its standard output or error, line by line, keeping the last
    /// line for a diagnosis. False at the end of its output.
    private func relayOutput() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
        if count < 0 && errno == EINTR { return true }
        guard count > 0 else { return false }
        for line in outputLines.take(chunk[..<count]) { relay(line) }
        return true
    }

    private var lastLine: String?

    private func relay(_ line: String) {
        guard !line.isEmpty else { return }
        // Swift's stack trace after a fatal error: worth a developer's look, not the diagnosis.
        if line == "Current stack trace:" || (line.first?.isNumber == true && line.contains(" 0x")) {
            HostLog.log(.debug, "\(fileName) (worker \(pid)): \(line)")
            return
        }
        // Lines that read "widgets: <level>: ..." (the worker's own diagnostics, and a bundle's `Logger`
        // messages) keep their level, and say which bundle they came from. Any line but a debug line
        // not shown is the worker's last output, for a report of its end (the worker writes debug
        // lines whatever the host's threshold, which the host applies).
        for level in LogLevel.allCases where line.hasPrefix("widgets: \(level.name): ") {
            if level > .debug || HostLog.threshold == .debug { lastLine = line }
            let message = line.dropFirst("widgets: \(level.name): ".count)
            HostLog.log(level, message.hasPrefix(fileName) ? String(message) : "\(fileName): \(message)")
            return
        }
        lastLine = line
        HostLog.log(.info, "\(fileName) (worker \(pid)): \(line)")
    }

    private func finish() {
        // The channel ended or the process did: the worker is exiting or dead. One that lives on
        // without being asked to close is killed. From here on only this thread signals it, and
        // never after reaping it.
        let (wasClosing, reason) = lock.withLock {
            reaping = true
            if !closing { killGroup() }
            return (closing, killReason)
        }
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        // Until it has exited: closed gently, keep taking its output while it exits, and end it if it
        // does not within two seconds.
        var waited = 0
        while !processEnded(waiting: wasClosing ? 0.01 : 1) {
            if processDescriptor < 0 { break }  // no pidfd: waitpid below waits
            while relayOutput() {}
            waited += 1
            if waited == 200 { lock.withLock { killGroup() } }
        }
        // It has exited but is not reaped: its pid, and its group's id, are still its own. Whatever
        // it forked ends now, so nothing a bundle starts outlives its worker.
        lock.withLock { killGroup() }
        var status: Int32 = 0
        // A forked worker is its zygote's child; once its zygote is gone, the host's (when it adopts).
        if let zygote, let reaped = zygote.reap(pid) {
            status = reaped
        } else {
            status = reapChild()
        }
        if processDescriptor >= 0 { Glibc.close(processDescriptor) }
        // What it started and left behind (a crash or SIGKILL gave it no time to end them) has
        // come to the host, if it adopts orphans: ended now.
        Orphans.didReap(pid)
        Orphans.sweepAfterWorkerEnded()
        // What is left of its output: it is dead, so read without waiting.
        while relayOutput() {}
        if let line = outputLines.finish() { relay(line) }
        let cause = WorkerExit.Cause(waitStatus: status, exceededRecord: exceeded)
        Glibc.close(output)
        Glibc.close(exceeded)
        let unanswered = lock.withLock { replies.sorted { $0.key < $1.key }.map { "\($0.value.kind.rawValue) of \"\($0.value.widget)\"" } }
        var exit = WorkerExit(
            pid: pid, cause: cause, killedBecause: reason, lastOutput: lastLine.map { String($0.prefix(300)) }, unanswered: unanswered)
        exit.closedByHost = wasClosing
        // The supervisor learns first, so the failures below can say when the worker restarts.
        onExit(exit)
        let (owed, waiters) = lock.withLock {
            ended = exit
            defer {
                replies = [:]
                helloWaiters = []
            }
            return (replies.sorted { $0.key < $1.key }.map(\.value.reply), helloWaiters)
        }
        for waiter in waiters { waiter(.failure(exit)) }
        for reply in owed { reply(.failure(exit)) }
        reaped.signal()
    }
}

extension WorkerProcess {
    /// Reaps the worker as the host's own child: its wait status.
    fileprivate func reapChild() -> Int32 {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, 0)
            if result == pid { return status }
            if result < 0 && errno == EINTR { continue }
            // Reaped elsewhere (or SIGCHLD ignored): its status is unknown, not a clean exit.
            return Int32(SIGKILL)
        }
    }
}

extension WorkerChannel {
    /// Reads what has arrived (at least one read) and returns the whole messages it completes.
    func receiveAvailable() throws(ChannelError) -> [WorkerMessage] {
        try fillOnce()
        var messages: [WorkerMessage] = []
        while let message = try nextBufferedMessage() { messages.append(message) }
        return messages
    }

    /// The whole messages already waiting in the channel, reading without blocking: what a worker
    /// that has ended sent last.
    func receiveAvailableWithoutWaiting() throws(ChannelError) -> [WorkerMessage] {
        var messages: [WorkerMessage] = []
        while (try? fillOnce(flags: Int32(MSG_DONTWAIT))) != nil {
            while let message = try nextBufferedMessage() { messages.append(message) }
        }
        return messages
    }
}
