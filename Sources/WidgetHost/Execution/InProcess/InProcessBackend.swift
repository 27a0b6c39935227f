import CWidgetABI
import FoundationEssentials
import Glibc
import Synchronization
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport
import WidgetWire

/// A bundle's providers in this process (queue isolation, and inside every worker): each on its own
/// serial queue (`ProviderQueue`) under the memory guard, called through the bundle's `request`
/// function on the queue's thread, each call waited for until its deadline on the registry's clock.
final class InProcessBackend: ProviderBackend {
    let bundle: InProcessBundle
    let clock: WidgetClock
    private let queues = Mutex<[String: ProviderQueue]>([:])

    /// The `struct_size` of every request to the bundle: its own minor version's, so it is shown no
    /// field newer than itself.
    private let requestSize: UInt32

    init(_ bundle: InProcessBundle, clock: WidgetClock) {
        self.bundle = bundle
        self.clock = clock
        requestSize = UInt32(ABISize.request(forMinor: bundle.description.abiVersion.minor))
    }

    /// Gives a widget the registry accepted its provider queue, with its memory limit.
    func openProvider(kind: String, memoryLimit: Int64) {
        let queue = ProviderQueue(kind: kind, memoryLimit: memoryLimit)
        queues.withLock { $0[kind] = queue }
    }

    /// Takes back the queues of widgets withdrawn (their bundle failed to initialize).
    func closeProviders(kinds: [String]) {
        queues.withLock { queues in for kind in kinds { queues[kind] = nil } }
    }

    func queue(kind: String) -> ProviderQueue? { queues.withLock { $0[kind] } }

    /// The memory guard slot of a provider's current run (0 when it has none).
    func memorySlot(kind: String) -> UInt32 { queue(kind: kind)?.memorySlot ?? 0 }

    // MARK: ProviderBackend

    var processID: pid_t? { nil }
    var holdsImageInProcess: Bool { true }
    var disabledReason: String? { nil }
    func shutDown() {}
    func beginShutDown() {}

    func statistics(kind: String) -> ProviderStatistics {
        queue(kind: kind)?.snapshot ?? ProviderStatistics()
    }

    func request(_ call: ProviderCall) async throws(RequestError) -> ProviderResult {
        // The queue delivers each request's result exactly once (the answer or the deadline, by its
        // ticket), so the continuation need not be a checked one.
        let result: Result<ProviderResult, RequestError> = await withUnsafeContinuation { continuation in
            submit(call, completion: { continuation.resume(returning: $0) }) { outcome throws(RequestError) in
                try ResultValidation.validate(outcome, for: call)
            }
        }
        return try result.get()
    }

    // MARK: Submitting

    /// A call on its provider's queue, after the provider's earlier calls, due by `due` (by default
    /// its deadline from now), its answer turned into the caller's `T` by `finish`; `completion` gets
    /// it once, on the queue or on the deadline's timer.
    ///
    /// With `hereIfIdle`, a call that finds the queue idle runs on the calling thread (the queue held
    /// meanwhile), and this returns after it: a worker's reader serves its host this way.
    func submit<T: Sendable>(
        _ call: ProviderCall, due: Date? = nil, hereIfIdle: Bool = false, completion: @escaping @Sendable (Result<T, RequestError>) -> Void,
        finish: @escaping @Sendable (RequestOutcome) throws(RequestError) -> T
    ) {
        guard let queue = queue(kind: call.kind) else {
            return completion(.failure(call.failure(.unknownKind, "has no provider queue")))
        }
        let due = due ?? clock.now().addingTimeInterval(call.deadline.timeInterval)
        let naming = QueuedRequest(requestKind: call.requestKind, kind: call.kind, bundlePath: call.bundlePath, deadline: call.deadline)
        queue.submit(due: due, clock: clock, hereIfIdle: hereIfIdle, naming: naming, completion: completion) { ticket throws(RequestError) -> T in
            try finish(self.answer(call, queue: queue, due: due, ticket: ticket))
        }
    }

    /// The same call on the calling thread, bypassing the provider's queue: for measuring the ABI
    /// alone.
    func requestHere(_ call: ProviderCall) throws(RequestError) -> ProviderResult {
        let due = clock.now().addingTimeInterval(call.deadline.timeInterval)
        return try ResultValidation.validate(answer(call, queue: nil, due: due, ticket: nil), for: call)
    }

    /// One run of the provider for `call`, charged to its queue's memory slot; a run that went over
    /// the limit is terminated, whatever it answered, as iOS terminates an extension.
    private func answer(_ call: ProviderCall, queue: ProviderQueue?, due: Date, ticket: RequestTicket?) throws(RequestError) -> RequestOutcome {
        let slot = queue?.memorySlot ?? 0
        let outcome = Result { () throws(RequestError) -> RequestOutcome in
            try self.call(call, due: due, memorySlot: slot, ticket: ticket)
        }
        if let queue, MemoryGuard.exceeded(slot) {
            let peak = queue.terminate()
            throw call.failure(
                .memoryLimitExceeded,
                "exceeded its memory limit: peak \(megabytes(peak)), limit \(megabytes(queue.memoryLimit)); terminated, it starts afresh on the next request")
        }
        return try outcome.get()
    }

    /// One call through the ABI on the calling thread: builds the C request, passes the host's
    /// completion, and waits for the answer or until `due`. On a provider queue the ticket's deadline
    /// expires the wait; without one (`ticket` nil), the call sets its own timer.
    private func call(_ call: ProviderCall, due: Date, memorySlot: UInt32, ticket: RequestTicket?) throws(RequestError) -> RequestOutcome {
        let (id, pending) = PendingRequests.shared.begin(RequestLabel(requestKind: call.requestKind, widgetKind: call.kind, fileName: bundle.fileName))
        ticket?.requestID = id
        defer { ticket?.requestID = nil }
        let size = call.family.displaySize
        // The request's one argument goes in the field of its kind.
        let url = call.requestKind == .openURL ? call.argument : nil
        let intent = call.requestKind == .performIntent ? call.argument : nil
        let named = call.requestKind == .options ? call.argument : nil
        let environment = call.environment
        call.kind.withCString { kindPointer in
            call.configuration.withCString { configurationPointer in
                withOptionalCString(named) { parameterPointer in
                withOptionalCString(url) { urlPointer in
                withOptionalCString(intent) { intentPointer in
                var request = widget_request_t(
                    struct_size: requestSize, request_kind: call.requestKind.abiValue,
                    widget_kind: kindPointer, family: call.family.abiValue, is_preview: call.isPreview,
                    display_width: size.width, display_height: size.height, configuration: configurationPointer,
                    parameter: parameterPointer, url: urlPointer, intent: intentPointer,
                    color_scheme: environment.colorScheme.abiValue, rendering_mode: environment.renderingMode.abiValue,
                    shows_container_background: environment.showsContainerBackground)
                // What the provider allocates during its call is charged to its slot; nothing of the
                // host's around it (the exit guard's texts, made at the first request of a kind, are
                // kept for the life of the process: charged, they were that provider's for ever).
                let activity = ExitGuard.Activity.answering(call.requestKind)
                let run = {
                    ExitGuard.during(self.bundle.cPath, activity) {
                        MemoryGuard.charging(memorySlot) { self.bundle.request(&request, hostCompletion, UnsafeMutableRawPointer(bitPattern: id)) }
                    }
                }
                if let ticket { ticket.insideBundle(run) } else { run() }
                }
                }
                }
            }
        }
        let outcome: RequestOutcome?
        if clock.now() >= due {
            // The provider held the call past its deadline: too late, even if it answered meanwhile.
            PendingRequests.shared.expire(id)
            outcome = nil
        } else if let answered = PendingRequests.shared.outcome(of: pending) {
            // Answered before `request` returned, the common case.
            outcome = answered
        } else if let ticket {
            // The ticket's deadline expires this wait (and it may already have).
            if ticket.isFinished { PendingRequests.shared.expire(id) }
            outcome = PendingRequests.shared.wait(for: pending)
        } else {
            let timer = clock.schedule(at: due) { PendingRequests.shared.expire(id) }
            outcome = PendingRequests.shared.wait(for: pending)
            timer.cancel()
        }
        guard let outcome else { throw call.timedOut() }
        return outcome
    }
}
