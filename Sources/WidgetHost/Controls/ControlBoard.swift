import FoundationEssentials
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport
import WidgetWire

/// The Controls of the running host's bundles, as Control Center shows them: each asked for its
/// state when it is listed, pressed, or reloaded (`ControlCenter.shared.reloadControls`), and each
/// change told to the subscribers (a bar's feed, the page).
package final class ControlBoard: @unchecked Sendable {
    private let registry: WidgetRegistry
    private let publish: @Sendable (ControlEntry) -> Void
    /// The last state of each control asked, by kind.
    private let last = Locked<[String: ControlEntry]>([:])

    init(registry: WidgetRegistry, publish: @escaping @Sendable (ControlEntry) -> Void) {
        self.registry = registry
        self.publish = publish
    }

    /// Each control (of `kind`, or all) with its state now.
    func entries(kind: String?) async -> ControlAnswer {
        switch kinds(kind) {
        case .failure(let refused): return refused.answer
        case .success(let kinds): return .controls(await fetchAll(kinds))
        }
    }

    /// Each control's state, asked of all at once (each on its own provider's queue): one slow or
    /// hung control delays the answer by its own deadline, not by the sum of everyone's.
    private func fetchAll(_ kinds: [String]) async -> [ControlEntry] {
        await withTaskGroup(of: (Int, ControlEntry).self) { group in
            for (index, kind) in kinds.enumerated() { group.addTask { (index, await self.fetch(kind)) } }
            var entries = [ControlEntry?](repeating: nil, count: kinds.count)
            for await (index, entry) in group { entries[index] = entry }
            return entries.compactMap { $0 }
        }
    }

    /// Every control's state: those known as they are, the others asked of all together.
    package func currentAll() -> [ControlEntry] {
        let kinds = registry.controls.map(\.kind)
        let missing = kinds.filter { kind in last.withLock { $0[kind] } == nil }
        if !missing.isEmpty { _ = waitingOnTask { await self.fetchAll(missing) } }
        let known = last.withLock { $0 }
        return kinds.map { known[$0] ?? ControlEntry(kind: $0, name: name($0), control: nil) }
    }

    /// Presses a control; answers with its state after.
    func press(kind: String, _ press: ControlPress) async -> ControlAnswer {
        if let refused = unknown(kind) { return refused }
        do {
            let control = try await registry.press(control: kind, press)
            let entry = keep(ControlEntry(kind: kind, name: name(kind), control: control))
            return .controls([entry])
        } catch let error as RequestError {
            return .refused(Self.describe(error))
        } catch {
            return .refused("\(error)")
        }
    }

    /// Asks controls (of `kind`, or all) for their state again, and tells who listens. Answered at
    /// once with the states known, the asking done after: an app's intent that reloads its own
    /// control (`ControlCenter.shared.reloadControls` in `perform()`, as Apple's samples do) waits
    /// for this answer, and its control's request would wait behind the intent on the provider's queue.
    func reload(kind: String?) -> ControlAnswer {
        let kinds: [String]
        switch self.kinds(kind) {
        case .failure(let refused): return refused.answer
        case .success(let found): kinds = found
        }
        Task { for kind in kinds { _ = await fetch(kind) } }
        let known = last.withLock { $0 }
        return .controls(kinds.map { known[$0] ?? ControlEntry(kind: $0, name: name($0), control: nil) })
    }

    /// The last state known of a control, asked now if none is.
    package func current(_ kind: String) -> ControlEntry {
        if let known = last.withLock({ $0[kind] }) { return known }
        return waitingOnTask { await self.fetch(kind) }
    }

    private func fetch(_ kind: String) async -> ControlEntry {
        do {
            return keep(ControlEntry(kind: kind, name: name(kind), control: try await registry.controlState(kind: kind)))
        } catch {
            return keep(ControlEntry(kind: kind, name: name(kind), control: last.withLock { $0[kind]?.control }, failure: Self.describe(error)))
        }
    }

    /// Keeps a state, and tells the subscribers when it changed.
    private func keep(_ entry: ControlEntry) -> ControlEntry {
        let changed = last.withLock { known in
            defer { known[entry.kind] = entry }
            return known[entry.kind] != entry
        }
        if changed { publish(entry) }
        return entry
    }

    private func name(_ kind: String) -> String { registry.controlName(kind) }

    /// A refusal, as an error a `Result` carries.
    private struct Refusal: Error {
        let answer: ControlAnswer
    }

    /// The control `kind`, or every control when nil; a kind that is no control refused.
    private func kinds(_ kind: String?) -> Result<[String], Refusal> {
        guard let kind else { return .success(registry.controls.map(\.kind)) }
        if let refused = unknown(kind) { return .failure(Refusal(answer: refused)) }
        return .success([kind])
    }

    /// The refusal of a kind no bundle registered as a Control, or nil for a Control's.
    private func unknown(_ kind: String) -> ControlAnswer? {
        do {
            _ = try registry.apart(kind, as: .control)
            return nil
        } catch {
            return .refused(Self.describe(error))
        }
    }

    /// A control's failure in its own words: `control "kind" (file.so): why`.
    static func describe(_ error: RequestError) -> String { error.described(as: "control") }
}
