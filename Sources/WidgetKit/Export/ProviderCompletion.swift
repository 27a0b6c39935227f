import Foundation

/// The completion the SDK hands a provider written in the completion style (`getTimeline(in:completion:)`):
/// the first call delivers its value, and a provider that lets go of the completion without calling
/// it (a path that forgot to, an early `return`, a `Task` that ended) is noticed at that moment, not
/// at the request's deadline: the request fails at once, saying which method dropped it.
///
/// The provider holds the closure that holds this object; when the last reference goes, so does the
/// object, and `deinit` tells a completion never called from one already called.
final class ProviderCompletion<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = true
    private let deliver: (Value) -> Void
    private let dropped: () -> Void

    init(deliver: @escaping (Value) -> Void, dropped: @escaping () -> Void) {
        self.deliver = deliver
        self.dropped = dropped
    }

    /// The closure to hand the provider. A second call is ignored (the first one counts, as the
    /// host counts a C bundle's first completion).
    var closure: @Sendable (Value) -> Void { { value in self.call(value) } }

    func call(_ value: Value) {
        guard take() else { return }
        deliver(value)
    }

    private func take() -> Bool {
        lock.withLock {
            defer { pending = false }
            return pending
        }
    }

    deinit {
        if take() { dropped() }
    }

    /// Asks a completion-style method for its value, as `await`: throws `Dropped` when the method lets
    /// go of its completion without calling it.
    static func value(
        of method: String, _ call: (@escaping @Sendable (Value) -> Void) -> Void
    ) async throws(Dropped) -> Value {
        let result: Result<_UncheckedSendable<Value>, Dropped> = await withCheckedContinuation { continuation in
            let completion = ProviderCompletion(
                deliver: { continuation.resume(returning: .success(_UncheckedSendable($0))) },
                dropped: { continuation.resume(returning: .failure(Dropped(method: method))) })
            call(completion.closure)
        }
        return try result.get().value
    }

    /// A completion let go without being called.
    struct Dropped: Error, CustomStringConvertible {
        let method: String
        var description: String { "\(method) released its completion without calling it: the widget has nothing to show" }
    }
}
