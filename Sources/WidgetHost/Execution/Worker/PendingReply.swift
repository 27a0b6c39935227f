@_spi(WidgetsInternal) import WidgetSupport

/// One request's reply, as the host awaits it: resumes the caller exactly once, whoever comes
/// first (so its continuation need not be a checked one), and holds the request's timers, cancelled
/// together once the answer has come (one set after that is cancelled at once). One allocation.
typealias PendingReply = Locked<ReplyState>

struct ReplyState {
    var continuation: UnsafeContinuation<Result<ProviderResult, RequestError>, Never>?
    var answered = false
    var timers: [ScheduledAction] = []
}

extension Locked where State == ReplyState {
    init(_ continuation: UnsafeContinuation<Result<ProviderResult, RequestError>, Never>) {
        self.init(ReplyState(continuation: continuation))
    }

    func resume(_ result: Result<ProviderResult, RequestError>) {
        let taken = withLock { reply in
            defer { reply.continuation = nil }
            return reply.continuation
        }
        taken?.resume(returning: result)
    }

    func add(_ timer: ScheduledAction) {
        let cancelNow: Bool = withLock { reply in
            if reply.answered { return true }
            reply.timers.append(timer)
            return false
        }
        if cancelNow { timer.cancel() }
    }

    func cancelTimers() {
        let pending: [ScheduledAction] = withLock { reply in
            reply.answered = true
            defer { reply.timers = [] }
            return reply.timers
        }
        for timer in pending { timer.cancel() }
    }
}
