import FoundationEssentials
import WidgetRendering
import WidgetSupport
import WidgetTimelines

/// What `widgets run --log`, the dashboard and `watch` say of an instance, on one line.
extension Invocation {
    /// `12:00:05 game-status-1: Level 4 | 80 HP` — what an instance now shows, on one line.
    /// `locked`: privacy-sensitive views redacted, as `--locked` draws them.
    static func statusLine(_ id: String, _ status: InstanceStatus, locked: Bool = false) -> String {
        "\(Self.clockText(Date())) \(id): \(statusText(status, locked: locked))"
    }

    /// What an instance shows, with its last failure and next reload, on one line.
    static func statusText(_ status: InstanceStatus, locked: Bool = false) -> String {
        var text = shownText(status, locked: locked)
        if let failure = status.lastFailure {
            // The last good entry stays, marked with how old it is.
            if let entry = status.entry, status.phase == .showing {
                text += " [as of \(Self.shortClockText(Date(timeIntervalSince1970: entry.date)))]"
            }
            text += " [last reload failed: \(failure)]"
        }
        if let next = status.nextReload, let reason = status.nextReloadReason {
            text += " [next reload \(Self.clockText(next)), \(reason.rawValue)\(status.deferredByBudget ? ", deferred by the budget" : "")]"
        }
        return text
    }

    /// What an instance shows, alone: its entry's text on one line, or its phase.
    static func shownText(_ status: InstanceStatus, locked: Bool = false) -> String {
        switch status.phase {
        case .bundleMissing: "bundle missing (its configuration is kept)"
        case .loading: status.reloading ? "loading" : "waiting for its first entry"
        case .showing: status.entry.map { PlainTextRenderer.lines($0.view, locked: locked).joined(separator: " | ") } ?? ""
        }
    }

    /// "14:05:09", in the system's time zone.
    static func clockText(_ date: Date) -> String { LocalTime().text(date, "%H:%M:%S") }

    /// "14:05".
    static func shortClockText(_ date: Date) -> String { LocalTime().text(date, "%H:%M") }
}
