import Dispatch
import FoundationEssentials
@_spi(WidgetsInternal) import WidgetSupport
import WidgetWire

/// Live Activities as freedesktop notifications (`org.freedesktop.Notifications` on the session
/// bus): one notification per activity, sent when it starts, replaced in place (`replaces_id`) as it
/// is updated or turns stale, and closed when it ends. Its summary is the Lock Screen view's first
/// line, its body the rest and the island's compact text. Calls are made one at a time on a queue
/// of their own, never on the caller's; a desktop with no notification server is told once.
final class ActivityNotifier: @unchecked Sendable {
    private let environment: [String: String]
    private let describe: @Sendable (ViewNode) -> [String]
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "widgets.notifications")
    /// The notification of each activity, by its id (on `queue`).
    private var shown: [String: String] = [:]
    private var warned = false

    static let destination = "org.freedesktop.Notifications"

    init(environment: [String: String], describe: @escaping @Sendable (ViewNode) -> [String], log: @escaping @Sendable (String) -> Void) {
        self.environment = environment
        self.describe = describe
        self.log = log
    }

    /// An activity changed (`removed`: dismissed).
    func changed(_ record: ActivityRecord, removed: Bool) {
        queue.async { [self] in
            if removed || record.phase == .ended || record.phase == .dismissed {
                guard let id = shown.removeValue(forKey: record.id) else { return }
                call("CloseNotification", signature: "u", [id])
                return
            }
            guard let drawn = record.presentations else { return }
            var lines = describe(drawn.lockScreen).filter { !$0.isEmpty }
            let summary = lines.isEmpty ? record.type : lines.removeFirst()
            let compact = [drawn.compactLeading, drawn.compactTrailing].compactMap { $0.map(describe)?.joined(separator: " ") }.filter { !$0.isEmpty }
            var body = lines.joined(separator: "\n")
            if !compact.isEmpty { body += (body.isEmpty ? "" : "\n") + compact.joined(separator: " ") }
            if record.isStale { body += (body.isEmpty ? "" : "\n") + "(not updated since \(ISODate.text(Date(timeIntervalSince1970: record.updated))))" }
            // app_name, replaces_id, app_icon, summary, body, actions, hints (resident, the activity's
            // id), expire_timeout (never: it lasts as long as the activity).
            let arguments = [
                "widgets", shown[record.id] ?? "0", "", summary, body, "0", "2", "resident", "b", "true", "x-widgets-activity", "s", record.id, "0",
            ]
            if let answer = call("Notify", signature: "susssasa{sv}i", arguments), let id = answer.split(separator: " ").last {
                shown[record.id] = String(id)
            }
        }
    }

    @discardableResult
    private func call(_ method: String, signature: String, _ arguments: [String]) -> String? {
        switch SessionBus.call(
            Self.destination, path: "/org/freedesktop/Notifications", interface: Self.destination, method: method, signature: signature,
            arguments: arguments, environment: environment)
        {
        case .success(let answer):
            warned = false
            return answer
        case .failure(let failure):
            if !warned { log("warning: Live Activities are not shown as notifications: \(failure)") }
            warned = true
            return nil
        }
    }

    /// Closes every notification shown, and waits until that is done: a host stopping takes its
    /// notifications with it (the next host sends its own; they never expire by themselves).
    func closeAll() {
        queue.sync {
            for id in shown.values { call("CloseNotification", signature: "u", [id]) }
            shown = [:]
        }
    }
}
