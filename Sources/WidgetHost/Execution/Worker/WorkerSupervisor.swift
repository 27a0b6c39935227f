import Dispatch
import FoundationEssentials
import Glibc
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport
import WidgetWire

/// Keeps one bundle's worker process: starts it, routes requests to it, and when it crashes, hangs
/// or goes over its memory limit, restarts it on a later request, after a backoff that doubles with
/// each crash; after `maximumCrashes` crashes within `crashWindow` the bundle is disabled, with the
/// diagnosis of the last one.
final class WorkerSupervisor: ProviderBackend, Sendable {
    let path: String
    let fileName: String
    let settings: ProcessIsolation
    /// How long the worker may take to load its bundle and say what it registers (on every start).
    let loadDeadline: TimeInterval
    let clock: WidgetClock
    let deadlines: RequestDeadlines
    /// The host's memory limit; the worker applies the bundle's lower one itself.
    let memoryLimit: Int64

    private enum State {
        case stopped(restartAt: Date?)
        case running(WorkerProcess)
        case disabled(String)
        /// The host is done with the bundle: no worker starts again.
        case shutDown
    }

    /// What a crash updates together (`recordCrash`), behind one lock.
    private struct Guarded {
        var state: State = .stopped(restartAt: nil)
        var crashes: [Date] = []
        var lastCrash: String?
        /// Memory guard slot of each provider in the current worker, to name the one that went over.
        var slots: [UInt32: String] = [:]
        var statistics: [String: ProviderStatistics] = [:]
        /// Requests sent to the running worker and not yet answered.
        var outstanding = 0
        /// When the running worker, asked nothing meanwhile, gives back its files' pages
        /// (`ProcessIsolation.idleRelease`) and is stopped (`ProcessIsolation.idleStop`).
        var idleTimers: [ScheduledAction] = []

        /// Whether `process` is the running worker, with no request outstanding.
        func isIdle(_ process: WorkerProcess) -> Bool {
            guard case .running(let current) = state else { return false }
            return current === process && outstanding == 0
        }

        /// A request came: the worker is not idle.
        mutating func cancelIdleTimers() {
            for timer in idleTimers { timer.cancel() }
            idleTimers = []
        }
    }

    private let guarded = Locked(Guarded())
    /// Starts and request submission, in order.
    private let queue: DispatchQueue

    init(path: String, settings: ProcessIsolation, clock: WidgetClock, deadlines: RequestDeadlines, memoryLimit: Int64, loadDeadline: TimeInterval) {
        self.path = path
        self.loadDeadline = loadDeadline
        fileName = path.pathFileName
        self.settings = settings
        self.clock = clock
        self.deadlines = deadlines
        self.memoryLimit = memoryLimit
        queue = DispatchQueue(label: "widgets.worker.\(fileName)")
    }

    // MARK: Starting

    /// Starts the worker; `finishStart` hears what it loaded. Apart so that a host scanning many
    /// bundles starts all their workers before hearing from the first.
    func beginStart() -> Result<WorkerProcess, LoadProblem> {
        let options = WidgetWorker.Options(bundlePath: path, memoryLimit: memoryLimit, deadlines: deadlines, now: clock.now())
        do {
            let process = try WorkerProcess.spawn(
                executable: settings.workerExecutable, arguments: Array(options.arguments), fileName: fileName,
                environment: settings.environment,
                zygote: settings.forksWorkers ? WorkerZygote.shared(executable: settings.workerExecutable, environment: settings.environment) : nil
            ) { [weak self] exit in self?.ended(exit) }
            // The load deadline counts from the start, so workers started together share it.
            let deadline = loadDeadline
            let timer = clock.schedule(at: clock.now().addingTimeInterval(deadline)) {
                process.kill(because: "it did not finish loading within \(timeSpan(deadline)) (hung in its initializers or initialize)")
            }
            process.awaitHello { [weak self] _ in
                timer.cancel()
                self?.armIdleTimers(for: process)
            }
            guarded.withLock { held in
                held.state = .running(process)
                held.outstanding = 0
            }
            // Only now: a worker that dies at once must find itself the running one, to be counted.
            process.startReading()
            return .success(process)
        } catch {
            return .failure(
                LoadProblem(
                    path: path, reason: .workerFailed,
                    message: "cannot start a worker process: \(error)\(SwiftRuntime.companionNote(for: settings.workerExecutable))"))
        }
    }

    /// Why a worker did not come up.
    struct StartFailure: Error, CustomStringConvertible {
        let reason: LoadProblem.Reason
        let description: String
    }

    /// Calls `finished` (on the worker's reader thread) once the worker has loaded its bundle, or has
    /// died or run out of time trying.
    func finishStart(_ process: WorkerProcess, _ finished: @escaping @Sendable (Result<WorkerHello, StartFailure>) -> Void) {
        process.awaitHello { [self] outcome in finished(hello(outcome, process)) }
    }

    /// What the worker's first message, or its end, says of its start.
    private func hello(_ outcome: Result<JSONObject, WorkerExit>, _ process: WorkerProcess) -> Result<WorkerHello, StartFailure> {
        switch outcome {
        case .failure(let exit):
            return .failure(
                StartFailure(
                    reason: exit.killedBecause == nil ? .crashed : .timedOut,
                    description: exit.summary(while: "loading (in its static initializers or initialize)")))
        case .success(let message):
            do {
                let hello = try WorkerHello(json: message, path: path)
                guard hello.isCompatible else {
                    process.kill(because: "it speaks another worker protocol")
                    let spoken = hello.version == 0 ? "an older worker protocol (it names none)" : "worker protocol \(hello.version)"
                    return .failure(
                        StartFailure(
                            reason: .workerFailed,
                            description: "its worker executable \(settings.workerExecutable) speaks \(spoken), but this host speaks worker protocol \(WorkerHello.protocolVersion): use the worker executable built with this host"))
                }
                guarded.withLock { held in
                    held.slots = Dictionary(hello.widgets.map { ($0.slot, $0.declaration.kind) }, uniquingKeysWith: { first, _ in first })
                }
                if hello.bundle == nil { process.close() }
                return .success(hello)
            } catch {
                process.kill(because: "it sent a malformed description of its bundle (\(error))")
                return .failure(StartFailure(reason: .workerFailed, description: "its worker sent a malformed description: \(error)"))
            }
        }
    }

    /// Closes the worker and waits until it, and whatever it forked in its group or tree, have ended.
    /// What left both (`setsid` and an ended parent) is swept as it ends, or, while the host ends
    /// many workers at once, after all of them (`Orphans.sweepingOnceAfter`).
    func shutDown() {
        let process: WorkerProcess? = guarded.withLock { held in
            defer { held.state = .shutDown }
            guard case .running(let process) = held.state else { return nil }
            return process
        }
        process?.closeAndWait(timeout: 2)
    }

    func beginShutDown() {
        let process: WorkerProcess? = guarded.withLock { held in
            guard case .running(let process) = held.state else { return nil }
            return process
        }
        process?.close()
    }

    /// A worker's bundle is mapped in the worker, not in the host.
    var holdsImageInProcess: Bool { false }

    /// The worker's process id, while one runs.
    var processID: pid_t? {
        guarded.withLock { held in
            if case .running(let process) = held.state, !process.hasEnded { return process.pid }
            return nil
        }
    }

    /// The diagnosis that disabled the bundle, if it is disabled.
    var disabledReason: String? {
        guarded.withLock { held in
            if case .disabled(let reason) = held.state { return reason }
            return nil
        }
    }

    /// The worker ended: a crash (or a kill for hanging) counts toward the backoff and the limit;
    /// going over the memory limit restarts it without delay, as iOS restarts a terminated extension.
    private func ended(_ exit: WorkerExit) {
        guarded.withLock { held in
            // Its memory went with it.
            for kind in held.statistics.keys where held.statistics[kind]?.liveBytes != nil { held.statistics[kind]?.liveBytes = 0 }
            // A worker the supervisor already retired (killed for hanging) was counted then.
            guard case .running(let process) = held.state, process.pid == exit.pid else { return }
            switch exit.cause {
            case .memoryExceeded(let slot, _, _) where exit.killedBecause == nil:
                if let kind = held.slots[slot] { held.statistics[kind, default: ProviderStatistics()].terminations += 1 }
                held.state = .stopped(restartAt: nil)
            case _ where exit.killedBecause == nil && exit.closedByHost:
                // Asked to end, and it did (it ends its process group, itself included).
                held.state = .stopped(restartAt: nil)
            default:
                recordCrash(in: &held, exit.description)
            }
        }
    }

    /// Kills a worker that hangs, counting it as a crash at once: no request goes to it meanwhile.
    private func retire(_ process: WorkerProcess, because reason: String) {
        guarded.withLock { held in
            guard case .running(let current) = held.state, current === process else { return }
            recordCrash(in: &held, "its worker was killed: \(reason)")
        }
        process.kill(because: reason)
    }

    /// Counts a crash in `held` (the guarded state, its lock held) and decides when the worker may
    /// start again, or that it may not.
    private func recordCrash(in held: inout Guarded, _ diagnosis: String) {
        let now = clock.now()
        held.crashes = held.crashes.filter { now.timeIntervalSince($0) < settings.crashWindow } + [now]
        held.lastCrash = diagnosis
        if held.crashes.count >= settings.maximumCrashes {
            let reason = "disabled after \(held.crashes.count) crashes within \(timeSpan(settings.crashWindow)); the last: \(diagnosis)"
            held.state = .disabled(reason)
            HostLog.log(.error, "\(fileName): \(reason)")
        } else {
            held.state = .stopped(restartAt: now.addingTimeInterval(backoff(afterCrashes: held.crashes.count)))
        }
    }

    private func backoff(afterCrashes count: Int) -> TimeInterval {
        min(settings.firstBackoff * pow(2, Double(count - 1)), settings.maximumBackoff)
    }

    /// What a request that the crash of a worker failed should add: when it comes back.
    private func restartNote() -> String {
        guarded.withLock { held in
            switch held.state {
            case .disabled: return "the bundle is now disabled after \(held.crashes.count) crashes within \(timeSpan(settings.crashWindow))"
            case .stopped(let restartAt?):
                let wait = max(0, restartAt.timeIntervalSince(clock.now()))
                return "it restarts on a request after \(timeSpan(wait.rounded(.up))) (\(held.crashes.count) of \(settings.maximumCrashes) crashes within \(timeSpan(settings.crashWindow)) disable it)"
            default: return "it restarts on the next request"
            }
        }
    }

    /// The running worker, started if it may be; or why no request can be sent now.
    private func runningWorker() -> Result<WorkerProcess, Refusal> {
        let decision: Result<WorkerProcess?, Refusal> = guarded.withLock { held in
            switch held.state {
            case .disabled(let reason):
                return .failure(Refusal("\(reason). Replace the bundle or restart the host to try again"))
            case .shutDown:
                return .failure(Refusal("the host has shut its worker down"))
            case .running(let process) where !process.hasEnded:
                held.outstanding += 1
                held.cancelIdleTimers()
                return .success(process)
            case .stopped(let restartAt?) where restartAt > clock.now():
                let wait = restartAt.timeIntervalSince(clock.now())
                return .failure(Refusal("its worker crashed (\(held.lastCrash ?? "")); it restarts in \(timeSpan(wait.rounded(.up)))"))
            default:
                return .success(nil)
            }
        }
        switch decision {
        case .failure(let reason): return .failure(reason)
        case .success(let process?): return .success(process)
        case .success(nil): break
        }
        switch beginStart() {
        case .failure(let problem): return .failure(Refusal(problem.message))
        case .success(let process):
            let done = DispatchSemaphore(value: 0)
            let outcome = Locked<Result<WorkerHello, StartFailure>?>(nil)
            finishStart(process) { result in
                outcome.withLock { $0 = result }
                done.signal()
            }
            done.wait()
            switch outcome.withLock({ $0 }) ?? .failure(StartFailure(reason: .crashed, description: "its worker said nothing")) {
            case .failure(let failure):
                return .failure(Refusal("its worker failed to restart: \(failure); \(restartNote())"))
            case .success(let hello) where hello.bundle == nil:
                // The file changed since it was loaded, into something its worker refuses.
                let reasons = hello.problems.map(\.message).joined(separator: "; ")
                return .failure(Refusal("its worker restarted but could not load the bundle: \(reasons.isEmpty ? "no reason given" : reasons)"))
            case .success:
                guarded.withLock { held in
                    held.outstanding += 1
                    held.cancelIdleTimers()
                }
                return .success(process)
            }
        }
    }

    // MARK: Requests

    func request(_ call: ProviderCall) async throws(RequestError) -> ProviderResult {
        let started = ContinuousClock.now
        let result: Result<ProviderResult, RequestError> = await withUnsafeContinuation { continuation in
            let pending = PendingReply(continuation)
            // A running worker gets the request from the calling thread; starting one waits on the
            // supervisor's queue, so requests that arrive meanwhile wait behind it.
            if let running = runningWorkerIfAny() {
                send(call, to: running, pending: pending)
                return
            }
            queue.async { self.submit(call, pending: pending) }
        }
        let elapsed = ContinuousClock.now - started
        guarded.withLock { held in
            Self.record(in: &held.statistics[call.kind, default: ProviderStatistics()]) { provider in
                provider.calls += 1
                provider.timeInCalls += elapsed
                if case .failure = result { provider.failures += 1 }
            }
        }
        return try result.get()
    }

    /// On the supervisor's queue: starts the worker if needed and sends the request, with timers for
    /// its deadline (the worker times it out by the host's clock) and for an unresponsive worker.
    private func submit(_ call: ProviderCall, pending: PendingReply) {
        switch runningWorker() {
        case .failure(let reason):
            pending.resume(.failure(call.failure(.crashed, "not sent: \(reason.text)")))
        case .success(let process):
            send(call, to: process, pending: pending)
        }
    }

    /// The worker, if one is running now.
    /// The worker, if one is running now, with a request counted as sent to it (so that it is not
    /// stopped as idle meanwhile).
    private func runningWorkerIfAny() -> WorkerProcess? {
        guarded.withLock { held in
            if case .running(let process) = held.state, !process.hasEnded {
                held.outstanding += 1
                held.cancelIdleTimers()
                return process
            }
            return nil
        }
    }

    /// After the worker's last answer (or its start), the timers of the idle rules: a worker asked
    /// nothing for `idleRelease` gives back the pages of the files it maps read-only, which it maps
    /// again from the page cache when next asked; one asked nothing for `idleStop` is closed, and the
    /// next request starts one again (from the zygote: a few milliseconds). As iOS ends an extension
    /// that has nothing to do: a provider keeps nothing in memory between requests that it cannot
    /// make again.
    private func armIdleTimers(for process: WorkerProcess) {
        // Scheduled outside the lock (a clock may run an action that is due at once, and these
        // take the lock); kept only if the worker is still the running one and idle.
        var timers: [ScheduledAction] = []
        if let period = settings.idleRelease, period > 0 {
            timers.append(clock.schedule(at: clock.now().addingTimeInterval(period)) { [weak self] in self?.releaseIfIdle(process) })
        }
        if let period = settings.idleStop, period > 0 {
            timers.append(clock.schedule(at: clock.now().addingTimeInterval(period)) { [weak self] in self?.stopIfIdle(process) })
        }
        guard !timers.isEmpty else { return }
        let kept: Bool = guarded.withLock { held in
            guard held.isIdle(process) else { return false }
            held.cancelIdleTimers()
            held.idleTimers = timers
            return true
        }
        if !kept { for timer in timers { timer.cancel() } }
    }

    private func releaseIfIdle(_ process: WorkerProcess) {
        if guarded.withLock({ $0.isIdle(process) }) { process.sendIdle() }
    }

    private func stopIfIdle(_ process: WorkerProcess) {
        let stop: Bool = guarded.withLock { held in
            guard held.isIdle(process) else { return false }
            // Stopped before it is closed: a request from now on starts a new worker.
            held.state = .stopped(restartAt: nil)
            held.cancelIdleTimers()
            return true
        }
        guard stop else { return }
        HostLog.log(.debug, "\(fileName): its worker was asked nothing for \(timeSpan(settings.idleStop ?? 0)): stopped; it starts again at the next request")
        process.close()
    }

    private func send(_ call: ProviderCall, to process: WorkerProcess, pending: PendingReply) {
        let now = clock.now()
        let due = now.addingTimeInterval(call.deadline.timeInterval)
        let request = WorkerRequest(call, now: now, due: due)
        process.send(request) { reply in
            let outcome = self.outcome(of: reply, for: call, process: process)
            // Counted before the caller has its answer: the idle rule's period starts from here.
            self.answered(by: process)
            pending.resume(outcome)
            // After the caller has its answer, not before: a deadline that fires meanwhile only
            // tells the worker the time, and the grace timer it sets is cancelled here.
            pending.cancelTimers()
        }
        // At the deadline the worker is told the time, and times the request out itself; one that
        // has not reported within the grace after that is unresponsive.
        let grace = settings.answerGrace
        pending.add(
            clock.schedule(at: due) {
                process.send(now: due)
                pending.add(
                    self.clock.schedule(at: due.addingTimeInterval(grace)) {
                        self.retire(
                            process,
                            because: "it did not report on the \(call.requestKind.rawValue) of \"\(call.kind)\" within \(timeSpan(grace)) of its deadline (unresponsive)")
                    })
            })
    }

    /// One request to `process` is answered (or failed with its end).
    private func answered(by process: WorkerProcess) {
        let idle: Bool = guarded.withLock { held in
            guard case .running(let current) = held.state, current === process else { return false }
            held.outstanding = max(0, held.outstanding - 1)
            return held.outstanding == 0
        }
        if idle { armIdleTimers(for: process) }
    }

    private func outcome(
        of reply: Result<WorkerAnswer, WorkerExit>, for call: ProviderCall, process: WorkerProcess
    ) -> Result<ProviderResult, RequestError> {
        let (kind, requestKind, deadline) = (call.kind, call.requestKind, call.deadline)
        func fail(_ reason: RequestError.Reason, _ message: String) -> Result<ProviderResult, RequestError> {
            .failure(call.failure(reason, message))
        }
        switch reply {
        case .success(let answer):
            if answer.liveBytes != nil || answer.peakBytes != nil {
                guarded.withLock { held in
                    Self.record(in: &held.statistics[kind, default: ProviderStatistics()]) { provider in
                        if let live = answer.liveBytes { provider.liveBytes = live }
                        if let peak = answer.peakBytes { provider.peakBytes = max(provider.peakBytes ?? 0, peak) }
                    }
                }
            }
            switch answer.outcome {
            case .result(let bytes):
                // The worker passes on the bundle's answer as it gave it: checked here, as any
                // bundle's answer is (the worker does not decode it).
                return Result { () throws(RequestError) -> ProviderResult in
                    try ResultValidation.validate(.data(bytes), for: call)
                }
            case .error(let reason, let message) where !answer.stuck:
                return fail(reason, message)
            case .error:
                // Stuck inside the bundle: only ending the process takes the thread back.
                guarded.withLock { held in held.statistics[kind, default: ProviderStatistics()].crashes += 1 }
                retire(process, because: "\"\(kind)\" was stuck inside its \(requestKind.rawValue) call past its \(deadline) deadline (hung)")
                return fail(
                    .timedOut,
                    "\(requestKind.rawValue) did not complete within \(deadline): it was stuck inside its call (hung), so its worker was killed; \(restartNote())")
            }
        case .failure(let exit):
            guarded.withLock { held in held.statistics[kind, default: ProviderStatistics()].crashes += 1 }
            if case .memoryExceeded(let slot, let bytes, let limit) = exit.cause, exit.killedBecause == nil {
                let culprit = guarded.withLock { held in held.slots[slot] }
                if culprit == kind {
                    return fail(
                        .memoryLimitExceeded,
                        "exceeded its memory limit: peak \(megabytes(bytes)), limit \(megabytes(limit)); its worker was killed, and it starts afresh on the next request")
                }
                return fail(
                    .crashed,
                    "its worker was killed while answering \(requestKind.rawValue), because \"\(culprit ?? "another provider")\" exceeded its memory limit; it restarts on the next request")
            }
            return fail(.crashed, "\(exit.summary(while: "answering \(requestKind.rawValue)")); \(restartNote())")
        }
    }

    /// Changes one provider's statistics in place: one look-up in the table, not one per field.
    private static func record(in statistics: inout ProviderStatistics, _ change: (inout ProviderStatistics) -> Void) {
        change(&statistics)
    }

    func statistics(kind: String) -> ProviderStatistics {
        guarded.withLock { held in held.statistics[kind] ?? ProviderStatistics() }
    }
}

/// Why a request cannot be sent to a bundle's worker now.
private struct Refusal: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
