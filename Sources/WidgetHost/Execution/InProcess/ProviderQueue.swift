import Dispatch
import FoundationEssentials
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport

/// Runs one provider's requests, one at a time, on the provider's own serial Dispatch queue: calls to
/// one provider never overlap, calls to different providers run in parallel, and a provider that is
/// slow (or never answers until its deadline) holds up only its own queue.
///
/// Each request has one deadline on the host's clock, from the moment it is submitted. When it
/// passes, the caller gets a timeout at once, even if the provider is stuck inside its call; a
/// request still waiting behind a stuck call is never sent; an answer that comes later is dropped.
/// (A thread stuck inside a bundle cannot be taken back in process; see docs/ISOLATION.md.)
///
/// Each run of the provider has its own memory guard slot. A provider that goes over its limit is
/// terminated as iOS terminates an extension: its request fails, and the next request starts it
/// afresh, in a new slot that counts from zero. What its terminated runs still hold stays counted
/// (in-process memory cannot be taken back); while that alone reaches the limit, the provider is
/// quarantined: its requests fail without being sent.
final class ProviderQueue: Sendable {
    let kind: String
    let memoryLimit: Int64
    private let queue: DispatchQueue

    /// The provider's runs and calls, behind one lock.
    private struct Guarded {
        var statistics = ProviderStatistics()
        var slot: UInt32
        /// Slots of terminated runs that still hold memory.
        var retiredSlots: [UInt32] = []
        /// The highest peak of the provider's earlier runs.
        var earlierPeak: Int64 = 0
        /// Calls still inside the bundle after their deadline answered the caller.
        var stuckCalls = 0
        /// Requests submitted and not yet through the queue.
        var queued = 0

        /// Bytes the terminated runs still hold; slots that hold nothing any more are given back.
        mutating func retainedBytes() -> Int64 {
            retiredSlots.removeAll { retired in
                guard MemoryGuard.live(retired) == 0 else { return false }
                MemoryGuard.release(retired)
                return true
            }
            return retiredSlots.reduce(0) { $0 + MemoryGuard.live($1) }
        }
    }

    private let guarded: Locked<Guarded>
    /// Where a run's slot comes from (a test hands out none).
    private let openSlot: @Sendable (Int64) -> UInt32

    init(kind: String, memoryLimit: Int64, openSlot: @escaping @Sendable (Int64) -> UInt32 = MemoryGuard.openSlot(limit:)) {
        self.kind = kind
        self.memoryLimit = memoryLimit
        self.openSlot = openSlot
        queue = DispatchQueue(label: "widgets.provider.\(kind)")
        guarded = Locked(Guarded(slot: openSlot(memoryLimit)))
    }

    /// The slot of the provider's current run.
    var memorySlot: UInt32 { guarded.withLock { held in held.slot } }

    /// Ends the current run after the provider went over its limit; the next request starts afresh.
    /// Returns the run's peak.
    func terminate() -> Int64 {
        guarded.withLock { held in
            let peak = MemoryGuard.peak(held.slot)
            held.earlierPeak = max(held.earlierPeak, peak)
            held.statistics.terminations += 1
            if held.slot != 0 { held.retiredSlots.append(held.slot) }
            held.slot = openSlot(memoryLimit)
            return peak
        }
    }

    /// Why a request must not be sent now, if it must not: the provider is quarantined, stuck
    /// inside an earlier call, or has no memory guard slot to run in.
    private func refusal() -> String? {
        guarded.withLock { held in
            if held.stuckCalls > 0 {
                return "still inside an earlier call that passed its deadline; its requests fail until that call returns"
            }
            // A provider runs metered or not at all; a held.slot given back since may be taken now.
            if held.slot == 0 { held.slot = openSlot(memoryLimit) }
            if held.slot == 0 {
                return "no memory guard slot was free for it (all \(MemoryGuard.slotCount) are in use by other providers), so it is not run"
            }
            let retained = held.retainedBytes()
            if retained >= memoryLimit {
                return "quarantined: its terminated runs still hold \(megabytes(retained)), at or over its limit of \(megabytes(memoryLimit)) (memory cannot be taken back in process)"
            }
            return nil
        }
    }

    /// Runs `body` on the queue after the requests before it, and hands `completion` its result, or
    /// the request's timeout once `due` has come on `clock`, whichever is first. `body` is handed
    /// the request's ticket, to tell it the ABI request number it is waiting on, so the deadline can
    /// wake that wait too. `completion` runs once, on the queue or on the clock's timer.
    ///
    /// With `hereIfIdle`, a request that finds the queue idle runs on the calling thread, with the
    /// queue held meanwhile, and `submit` returns after it: no thread hop, for a caller that has no
    /// other work for the thread (a worker's reader, whose reading passes to another thread when
    /// the call is slow). One that finds the queue busy waits on it as any other, so a stuck call
    /// holds up only its own queue and never a second thread.
    func submit<T: Sendable>(
        due: Date, clock: WidgetClock, hereIfIdle: Bool = false, naming request: QueuedRequest,
        completion: @escaping @Sendable (Result<T, RequestError>) -> Void,
        _ body: @escaping @Sendable (RequestTicket) throws(RequestError) -> T
    ) {
        @Sendable func counted(_ result: Result<T, RequestError>) {
            guarded.withLock { held in
                held.statistics.calls += 1
                if case .failure = result { held.statistics.failures += 1 }
            }
            completion(result)
        }
        if let reason = refusal() { return counted(.failure(request.refused(reason))) }
        let ticket = RequestTicket()
        let timer = clock.schedule(at: due) {
            if let id = ticket.requestID { PendingRequests.shared.expire(id) }
            let (delivered, stuck) = ticket.finishByDeadline()
            if stuck { self.guarded.withLock { held in held.stuckCalls += 1 } }
            if delivered { counted(.failure(request.timeout())) }
        }
        // Here: the queue is idle, and held (suspended) until the call is done, so a request
        // submitted meanwhile waits on it and starts after this one, in the order they came.
        let here = guarded.withLock { held in
            held.queued += 1
            guard hereIfIdle, held.queued == 1 else { return false }
            queue.suspend()
            return true
        }
        let run: @Sendable () -> Void = {
            defer { self.guarded.withLock { held in held.queued -= 1 } }
            // Timed out while waiting behind another call: never sent.
            guard !ticket.isFinished else { return }
            let started = ContinuousClock.now
            let result = Result { () throws(RequestError) -> T in try body(ticket) }
            let elapsed = ContinuousClock.now - started
            let (delivered, wasStuck) = ticket.finishByAnswer()
            self.guarded.withLock { held in
                held.statistics.timeInCalls += elapsed
                if wasStuck { held.stuckCalls -= 1 }
            }
            if delivered { counted(result) }
            // After the caller has the answer: a deadline that fires meanwhile finds the ticket
            // finished and does nothing.
            timer.cancel()
        }
        if here {
            run()
            queue.resume()
        } else {
            queue.async(execute: run)
        }
    }

    var snapshot: ProviderStatistics {
        guarded.withLock { held in
            var snapshot = held.statistics
            snapshot.memoryLimit = memoryLimit
            snapshot.stuckCalls = held.stuckCalls
            if MemoryGuard.isActive {
                let retained = held.retainedBytes()
                snapshot.retainedBytes = retained
                snapshot.liveBytes = MemoryGuard.live(held.slot) + retained
                snapshot.peakBytes = max(held.earlierPeak, MemoryGuard.peak(held.slot))
            }
            return snapshot
        }
    }
}

/// A request as a provider queue names it in the errors it makes itself (a timeout, a refusal).
struct QueuedRequest: Sendable {
    let requestKind: RequestKind
    let kind: String
    let bundlePath: String
    let deadline: Duration

    func timeout() -> RequestError { .timedOut(requestKind, kind: kind, bundlePath: bundlePath, deadline: deadline) }

    func refused(_ reason: String) -> RequestError {
        RequestError(kind: kind, bundlePath: bundlePath, reason: .refused, message: reason)
    }
}
