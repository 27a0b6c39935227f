import Dispatch
import Glibc
import Synchronization

/// SIGINT and SIGTERM, taken from their default action and delivered once, on the main queue.
final class TerminationSignals: Sendable {
    static let shared = TerminationSignals()
    private struct State {
        var sources: [DispatchSourceSignal] = []
        var handler: (@Sendable (String) -> Void)?
        /// A quit asked before anyone waited for it (q pressed while the host was starting).
        var pending: String?
        var delivered = false
    }
    private let state = Mutex(State())

    func notify(_ handler: @escaping @Sendable (String) -> Void) {
        let early = state.withLock { state -> String? in
            if let pending = state.pending {
                state.pending = nil
                state.delivered = true
                return pending
            }
            state.handler = handler
            state.delivered = false
            guard state.sources.isEmpty else { return nil }
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
                source.setEventHandler { [weak self] in self?.deliver(name) }
                source.resume()
                state.sources.append(source)
            }
            return nil
        }
        if let early { handler(early) }
    }

    /// The dashboard's q or Esc: ends the host as SIGINT does.
    func quit() { deliver("q") }

    private func deliver(_ name: String) {
        let handler = state.withLock { state -> (@Sendable (String) -> Void)? in
            guard !state.delivered else { return nil }
            guard let handler = state.handler else {
                state.pending = state.pending ?? name
                return nil
            }
            state.handler = nil
            state.delivered = true
            return handler
        }
        handler?(name)
    }
}
