@_spi(WidgetsInternal) import WidgetSupport

/// One request's passage through a provider queue. Its result is delivered once, by the answer or
/// by the deadline; a deadline that comes while the provider is inside its `request` function (not
/// merely waiting for a completion) marks the call stuck. One allocation, its lock included (a
/// reference: copies are the same ticket).
typealias RequestTicket = Locked<TicketState>

struct TicketState {
    fileprivate var delivered = false
    fileprivate var inside = false
    fileprivate var stuck = false
    fileprivate var id: UInt?
}

extension Locked where State == TicketState {
    init() { self.init(TicketState()) }

    /// The ABI request the provider's call is waiting on, if any.
    var requestID: UInt? {
        get { withLock { $0.id } }
        nonmutating set { withLock { $0.id = newValue } }
    }

    var isFinished: Bool { withLock { $0.delivered } }

    /// Runs the call into the bundle's `request` function, marked as inside it.
    func insideBundle(_ call: () -> Void) {
        withLock { $0.inside = true }
        call()
        withLock { $0.inside = false }
    }

    /// The deadline: whether it delivers the result, and whether it leaves a call stuck inside.
    func finishByDeadline() -> (delivered: Bool, stuck: Bool) {
        withLock { ticket in
            guard !ticket.delivered else { return (false, false) }
            ticket.delivered = true
            ticket.stuck = ticket.inside
            return (true, ticket.inside)
        }
    }

    /// The call's answer: whether it delivers the result, and whether the call had been stuck.
    func finishByAnswer() -> (delivered: Bool, wasStuck: Bool) {
        withLock { ticket in
            guard !ticket.delivered else { return (false, ticket.stuck) }
            ticket.delivered = true
            return (true, false)
        }
    }
}
