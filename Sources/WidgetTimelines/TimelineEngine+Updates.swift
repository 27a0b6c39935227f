import FoundationEssentials
@_spi(WidgetsInternal) import WidgetSupport
import WidgetWire

extension TimelineEngine {
    // MARK: Under the lock

    /// What to do once the lock is released: requests to send, statuses to report.
    struct Work {
        var requests: [(EngineInstance, UInt64)] = []
        var statuses: [(String, InstanceStatus)] = []
    }

    /// Runs `body` under the lock with the current time, then sends the requests and reports the
    /// statuses it produced, and sets the timer.
    func perform<T>(_ body: (inout EngineState, Double, inout Work) -> T) -> T {
        var work = Work()
        let result: T = state.withLock { state in
            let result = body(&state, clock.now().timeIntervalSince1970, &work)
            // Queued under the lock, so reports arrive in the order the changes happened.
            if let observer, let workQueue, !work.statuses.isEmpty {
                let statuses = work.statuses
                workQueue.async { for (id, status) in statuses { observer(id, status) } }
                work.statuses = []
            }
            return result
        }
        if let observer {
            for (id, status) in work.statuses { observer(id, status) }
        }
        for (instance, number) in work.requests {
            fetch(instance) { [weak self] result in self?.complete(instance.id, number, result) }
        }
        arm()
        return result
    }

    func complete(_ id: String, _ number: UInt64, _ result: Result<FetchedTimeline, TimelineFailure>) {
        perform { state, now, work in
            guard let record = state.records[id], record.inFlight, record.requestNumber == number else { return }
            record.inFlight = false
            // The reload the last interaction asked for ended, with a timeline or a failure; one
            // asked for by a later tap, queued behind it, keeps the entry stale until it ends too.
            if record.interaction == .awaitingReload, !record.interactionAfterStart { record.interaction = .none }
            switch result {
            case .success(let timeline):
                record.entries = timeline.entries.sorted { $0.date < $1.date }
                record.shown = -1
                record.timelines += 1
                record.failure = nil
                record.failures = 0
                switch timeline.policy {
                case .atEnd: record.pending = Pending(date: record.entries.last?.date ?? now, reason: .policy)
                case .after(let date): record.pending = Pending(date: date, reason: .policy)
                case .never: record.pending = nil
                }
            case .failure(let failure):
                state.count.failures += 1
                record.failure = failure.description
                record.failures += 1
                record.pending = Pending(date: now + Self.retryDelay(afterFailures: record.failures), reason: .retry)
            }
            if let again = record.again {
                record.again = nil
                record.pending = Pending(date: now, reason: again)
            }
            state.update(record, now: now, work: &work, notify: true)
        }
    }

    /// Two reasons for one reload: an exempt one wins, so merging never costs budget.
    static func merged(_ old: ReloadReason?, _ new: ReloadReason) -> ReloadReason {
        guard let old else { return new }
        return new.isBudgeted ? old : new
    }
}

extension EngineState {
    /// A reload request: merged into one already pending or under way (coalescing).
    mutating func request(_ record: Record, _ reason: ReloadReason, now: Double, work: inout TimelineEngine.Work) {
        guard !record.missing else { return }
        if reason == .interaction {
            record.interaction = .awaitingReload
            if record.inFlight { record.interactionAfterStart = true }
        }
        if record.inFlight {
            record.again = TimelineEngine.merged(record.again, reason)
        } else if let pending = record.pending {
            if !reason.isBudgeted {
                record.pending = Pending(date: now, reason: reason)
            } else if pending.reason != .retry {
                // Budgeted either way: the earlier date, an exempt reason kept.
                record.pending = Pending(date: min(pending.date, now), reason: TimelineEngine.merged(pending.reason, reason))
            }
            // A budgeted request while a failure waits for its backoff joins the retry, not sooner.
        } else {
            record.pending = Pending(date: now, reason: reason)
        }
        update(record, now: now, work: &work, notify: true)
    }

    /// Brings a record up to `now`: switches its entry, starts its reload if due, and files its next
    /// event.
    mutating func update(_ record: Record, now: Double, work: inout TimelineEngine.Work, notify: Bool) {
        var changed = notify
        let entries = record.entries
        var shown = record.shown
        while shown + 1 < entries.count, entries[shown + 1].date <= now { shown += 1 }
        if shown != record.shown {
            if record.shown >= 0 || record.current != nil { count.entrySwitches += 1 }
            record.shown = shown
            record.current = entries[shown]
            changed = true
        }
        if !record.missing, !record.inFlight, let pending = record.pending {
            let (date, deferred) = allowed(pending, record)
            if deferred && !record.deferred { count.deferrals += 1 }
            record.deferred = deferred
            if date <= now {
                record.pending = nil
                record.deferred = false
                record.inFlight = true
                record.interactionAfterStart = false
                record.lastStart = now
                if pending.reason.isBudgeted && budget.reloadsPerDay != .max {
                    record.history.append(now)
                    if record.history.count > budget.reloadsPerDay { record.history.removeFirst() }
                }
                requestNumber += 1
                record.requestNumber = requestNumber
                count.requests[pending.reason, default: 0] += 1
                work.requests.append((record.instance, requestNumber))
                changed = true
            }
        }
        schedule(record, now: now)
        if changed { work.statuses.append((record.instance.id, status(of: record, now: now))) }
    }

    /// The earliest date the budget allows a pending reload, and whether that is later than asked.
    func allowed(_ pending: Pending, _ record: Record) -> (Double, Bool) {
        guard pending.reason.isBudgeted else { return (pending.date, false) }
        var date = pending.date
        if let last = record.lastStart { date = max(date, last + budget.minimumInterval) }
        if record.history.count >= budget.reloadsPerDay, let oldest = record.history.first {
            date = max(date, oldest + ReloadBudget.window)
        }
        return (date, date > pending.date)
    }

    /// Files the record's next event: its next entry's date or its reload, whichever is earlier.
    mutating func schedule(_ record: Record, now: Double) {
        var due = Double.infinity
        if record.shown + 1 < record.entries.count { due = record.entries[record.shown + 1].date }
        if !record.missing, !record.inFlight, let pending = record.pending { due = min(due, allowed(pending, record).0) }
        if record.stamp != 0 {
            if record.scheduled == due { return }
            staleEvents += 1
        }
        guard due.isFinite else {
            record.stamp = 0
            return
        }
        stamp = stamp == .max ? 1 : stamp + 1
        record.stamp = stamp
        record.scheduled = due
        heap.push(Event(due: due, slot: record.slot, stamp: stamp))
        if staleEvents > 1024 && staleEvents > heap.count / 2 {
            heap.removeAll { event in slots[Int(event.slot)]?.stamp != event.stamp }
            staleEvents = 0
        }
    }

    func status(of record: Record, now: Double) -> InstanceStatus {
        let phase: InstanceStatus.Phase = record.missing ? .bundleMissing : record.current == nil ? .loading : .showing
        var next: Date?
        var deferred = false
        if !record.missing, !record.inFlight, let pending = record.pending {
            let (date, isDeferred) = allowed(pending, record)
            next = Date(timeIntervalSince1970: date)
            deferred = isDeferred
        }
        return InstanceStatus(
            phase: phase, entry: record.current, timelines: record.timelines, lastFailure: record.failure, nextReload: next,
            nextReloadReason: record.missing ? nil : (record.inFlight ? record.again : record.pending?.reason),
            deferredByBudget: deferred, reloadsInWindow: record.history.count(where: { $0 > now - ReloadBudget.window }),
            reloading: record.inFlight,
            invalidated: !record.missing && record.interaction != .none,
            nextEntryDate: record.shown + 1 < record.entries.count ? Date(timeIntervalSince1970: record.entries[record.shown + 1].date) : nil)
    }

    mutating func takeSlot() -> Int32 {
        if let slot = freeSlots.popLast() { return slot }
        slots.append(nil)
        return Int32(slots.count - 1)
    }

    mutating func retire(_ record: Record) {
        records[record.instance.id] = nil
        slots[Int(record.slot)] = nil
        freeSlots.append(record.slot)
        if record.stamp != 0 { staleEvents += 1 }
        record.stamp = 0
        record.requestNumber = 0
    }
}
