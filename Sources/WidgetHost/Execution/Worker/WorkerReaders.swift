import CHostShims
import FoundationEssentials
import Glibc
import Synchronization
import WidgetSupport

extension WidgetWorker {

    /// The threads that read the host's messages. One holds the reading at a time and serves each
    /// request it reads itself, on its own thread when the provider's queue is idle, then reads on:
    /// while calls are quick, one thread does everything, with no hand-off and no wakeup but the
    /// request's own. A call still running after `handOffAfter` loses the reading to another thread
    /// (one left spare by an earlier slow call, or a new one), so a slow call never stops the
    /// reading for long: the deadline's clock message and other providers' requests are read
    /// meanwhile. A watcher thread times the calls; it sleeps while no call is running.
    final class Readers: @unchecked Sendable {
        /// How long a call may hold the reading: the watcher looks this long after it starts timing
        /// a call, which may be up to this long after the call began (it does not hear of calls
        /// ending), so a slow call keeps the reading 5 to 10 ms.
        static let handOffAfter: TimeInterval = 0.005

        let channel: WorkerChannel
        let clock: ManualClock
        let registry: WidgetRegistry
        let bundlePath: String
        /// Guards what follows; the watcher and the spare threads wait on it.
        private let condition = Condition()
        /// Which hand-off the reading is at: a thread reads while its number is this one.
        private var holder: UInt64 = 0
        /// The number of the call the holder is serving, if it is serving one.
        private var servingCall: UInt64?
        private var calls: UInt64 = 0
        /// Calls being served now, by the holder or by threads that lost the reading to them.
        private var running = 0
        private var watcherIdle = false
        /// Threads that lost the reading to a slow call, waiting to be given it again.
        private var spares = 0
        /// Hand-offs made to the spares and not yet taken.
        private var offered = 0

        init(channel: WorkerChannel, clock: ManualClock, registry: WidgetRegistry, bundlePath: String) {
            self.channel = channel
            self.clock = clock
            self.registry = registry
            self.bundlePath = bundlePath
        }

        /// The calling thread's part, forever.
        func read() -> Never {
            startThread(named: "widgets.worker.watcher") { self.watch() }
            read(holding: 0)
        }

        /// Reads and serves while this thread holds the reading (`token`); waits to be given it
        /// again when a slow call took it away.
        private func read(holding token: UInt64) -> Never {
            var token = token
            while true {
                let message = receive()
                // The clock moves in the order the host's messages came.
                switch message {
                case .request(let request):
                    clock.advance(to: request.now)
                    let wakeWatcher: Bool = condition.withLock {
                        calls += 1
                        running += 1
                        servingCall = calls
                        return watcherIdle
                    }
                    if wakeWatcher { condition.broadcast() }
                    let channel = channel
                    serve(request, registry: registry) { channel.send(.answer($0)) }
                    let stillHolder: Bool = condition.withLock {
                        running -= 1
                        guard holder == token else { return false }
                        servingCall = nil
                        return true
                    }
                    if !stillHolder { token = awaitReading() }
                case .clock(let now):
                    clock.advance(to: now)
                case .idle:
                    releasePages()
                case .hello, .answer:
                    HostLog.warning("worker for \(bundlePath): a message only a worker sends came from the host; ignored")
                }
            }
        }

        /// Whether a release of the worker's pages is under way.
        private let releasing = Atomic<Bool>(false)

        /// Gives back the pages of the worker's read-only mappings, on a thread of its own: the walk
        /// of the loaded objects waits for the dynamic loader, which a bundle's thread may hold for
        /// ever (stuck in a library's constructor), and the reading must go on. One at a time: an
        /// idle period while one is stuck starts no other.
        private func releasePages() {
            guard releasing.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
            let started = startThread(named: "widgets.release") { [self] in
                let released = host_release_file_pages()
                releasing.store(false, ordering: .releasing)
                HostLog.log(.debug, "worker for \(bundlePath): idle; the pages of its read-only mappings (\(released >> 20) MiB of files) given back")
            }
            if started == nil { releasing.store(false, ordering: .releasing) }
        }

        /// A thread whose call outlasted its hold on the reading: waits until a later slow call
        /// hands the reading to it. Returns its new token.
        private func awaitReading() -> UInt64 {
            condition.lock()
            defer { condition.unlock() }
            spares += 1
            while offered == 0 { condition.wait() }
            offered -= 1
            spares -= 1
            // No other hand-off can come before this one is taken (the watcher times only calls
            // the holder starts, and the new holder is this thread), so `holder` is the one offered.
            return holder
        }

        /// The watcher: times each call served by the reading's holder, and hands the reading on
        /// when one runs past `handOffAfter`.
        private func watch() -> Never {
            condition.lock()
            while true {
                guard let call = servingCall else {
                    watcherIdle = true
                    condition.wait()
                    watcherIdle = false
                    continue
                }
                // The holder does not say when the call ends (that would cost every request a
                // wakeup): the watcher looks again when the time is up.
                let limit = Date(timeIntervalSinceNow: Self.handOffAfter)
                while servingCall == call, condition.wait(until: limit) {}
                guard servingCall == call else { continue }
                holder += 1
                servingCall = nil
                if spares > offered {
                    offered += 1
                    condition.broadcast()
                } else {
                    let token = holder
                    startThread(named: "widgets.worker.reader") { self.read(holding: token) }
                }
            }
        }

        /// How often a reader waiting while calls run checks that descriptor 3 is still the channel.
        static let channelCheck: Int32 = 500

        /// The host's next message. While calls run, the wait looks every `channelCheck` ms whether
        /// a bundle closed descriptor 3: a wait begun before the close holds the socket open, so
        /// neither side would see the channel end. With no call running it waits without a limit.
        private func receive() -> WorkerMessage {
            do {
                return try channel.receive(
                    limit: { condition.withLock { running } > 0 ? Self.channelCheck : -1 },
                    elapsed: { if !channel.isStillOpen { endClosedByBundle() } })
            } catch {
                if case .closed = error {
                    // The host closed the channel, or is gone: the worker ends, and with it its
                    // process group, whatever the bundle forked. No exit handlers: a bundle's static
                    // destructors must not be able to keep it alive.
                    fflush(nil)
                    host_end_own_group()
                }
                // The descriptor itself is gone, or is something else now: the bundle closed it.
                if !channel.isStillOpen { endClosedByBundle() }
                HostLog.log(.error, "worker for \(bundlePath): \(error)")
                exit(3)
            }
        }

        private func endClosedByBundle() -> Never {
            fflush(nil)
            _exit(WidgetWorker.channelClosedStatus)
        }
    }
}
