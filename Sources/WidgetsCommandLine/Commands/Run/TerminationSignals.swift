import Dispatch
import Glibc
import Synchronization

/// SIGINT and SIGTERM, taken from their default action and delivered once, on the main queue.
final class TerminationSignals: Sendable {
    static let shared = TerminationSignals()
    private struct State {
        var sources: [DispatchSourceSignal] = []
        var handler: (@Sendable (String) -> Void)?
    }
    private let state = Mutex(State())

    func notify(_ handler: @escaping @Sendable (String) -> Void) {
        state.withLock { state in
            state.handler = handler
            guard state.sources.isEmpty else { return }
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
                source.setEventHandler { [weak self] in self?.deliver(name) }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    /// The dashboard's q or Esc: ends the host as SIGINT does.
    func quit() { deliver("q") }

    private func deliver(_ name: String) {
        let handler = state.withLock { state in
            defer { state.handler = nil }
            return state.handler
        }
        handler?(name)
    }
}
