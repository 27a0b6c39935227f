import FoundationEssentials
import Glibc
import Synchronization
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// What the running host tells its subscribers (`widgets watch`, pages, bars): one JSON object per
/// change of an instance, on one line each.
///
/// Every event has `event`, `id` and `time` (ISO 8601). The events:
/// - `entry`: the next entry of the timeline took over (no provider call);
/// - `timeline`: a new timeline arrived;
/// - `reloading`: a timeline request is under way;
/// - `deferred`: the reload budget moved the next reload later (`nextReload` says until when);
/// - `failed`: a timeline request failed; the last good entry stays (`lastFailure`, `stale`);
/// - `missing`: the instance's bundle is gone (its configuration is kept);
/// - `status`: anything else that changed what `status` reports;
/// - `added`, `configured`, `removed`: the instance list changed.
///
/// Each but `removed` carries what the instance now shows: `kind`, `family`, `phase`, `text` (its entry's
/// text on one line, as `widgets run --log` begins its line), `entryDate`, `nextEntry`, `nextReload` with `reason` and
/// `deferredByBudget`, `nextChange` (the earlier of the two), `lastFailure` and `stale`.
package final class EventHub: Sendable {
    /// Sends one line to a subscriber; false when it cannot take it (gone, or not reading).
    package typealias Send = @Sendable (JSONValue) -> Bool

    private struct Subscriber {
        let ids: Set<String>?
        let send: Send
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var next = 1
        /// The last status published per instance, to name what changed.
        var last: [String: InstanceStatus] = [:]
    }

    private let state = Mutex(State())
    /// The most subscribers at once; the control socket keeps slots for one-shot requests.
    package static let maximumSubscribers = 32

    package init() {}

    /// Adds a subscriber to every instance's events (`ids` nil) or to those named; nil when the
    /// host has `maximumSubscribers` already.
    package func subscribe(ids: Set<String>?, send: @escaping Send) -> Int? {
        state.withLock { state in
            guard state.subscribers.count < Self.maximumSubscribers else { return nil }
            defer { state.next += 1 }
            state.subscribers[state.next] = Subscriber(ids: ids, send: send)
            return state.next
        }
    }

    package func unsubscribe(_ token: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: token) }
    }

    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Publishes what an instance now shows, naming what changed since the last status published.
    /// Costs a dictionary update while no one subscribes: `text` is asked for only when someone does.
    package func statusChanged(
        id: String, kind: String?, family: WidgetFamily?, status: InstanceStatus, text: () -> String, now: Date
    ) {
        let (previous, watched) = state.withLock { state in
            defer { state.last[id] = status }
            return (state.last[id], state.subscribers.values.contains { $0.ids?.contains(id) ?? true })
        }
        guard watched else { return }
        let event = Self.event(Self.change(from: previous, to: status), id: id, now: now)
        publish(id: id, event + Self.shows(kind: kind, family: family, status: status, text: text(), now: now))
    }

    /// Publishes a change of the instance list: `added`, `configured`, `removed`, or `moved`
    /// (`position`: its place in the order now, from 0).
    package func instanceChanged(
        _ change: String, id: String, kind: String?, family: WidgetFamily?, status: InstanceStatus?, text: String?, now: Date,
        position: Int? = nil
    ) {
        var members = Self.event(change, id: id, now: now)
        if let position { members.append(("position", .number(Double(position)))) }
        if change == "removed" {
            _ = state.withLock { $0.last.removeValue(forKey: id) }
        } else if let status {
            members += Self.shows(kind: kind, family: family, status: status, text: text ?? "", now: now)
        } else {
            members += [("kind", kind.map(JSONValue.string) ?? .null), ("family", family.map { .string($0.rawValue) } ?? .null)]
        }
        publish(id: id, members)
    }

    /// Publishes a Live Activity's change: `activity` (started, updated, stale, ended) or
    /// `activity-removed` (dismissed), with its presentations as text: `text` (the Lock Screen's),
    /// `compact` (leading and trailing, as a bar shows it), `minimal` and `expanded`.
    package func activityChanged(_ record: ActivityRecord, removed: Bool, describe: (ViewNode) -> String, now: Date) {
        guard state.withLock({ state in state.subscribers.values.contains { $0.ids?.contains(record.id) ?? true } }) else { return }
        publish(id: record.id, Self.event(removed ? "activity-removed" : "activity", id: record.id, now: now) + Self.activityTexts(record, describe: describe))
    }

    /// An activity's presentations as text, and where it is in its life.
    package static func activityTexts(_ record: ActivityRecord, describe: (ViewNode) -> String) -> [(key: String, value: JSONValue)] {
        let drawn = record.presentations
        func text(_ view: ViewNode?) -> JSONValue { .string(view.map(describe) ?? "") }
        let compact = [drawn?.compactLeading, drawn?.compactTrailing].compactMap { $0.map(describe) }.filter { !$0.isEmpty }
        let expanded = (drawn?.expanded ?? []).map { describe($0.view) }.filter { !$0.isEmpty }
        return [
            ("type", .string(record.type)), ("phase", .string(record.phase.rawValue)), ("stale", .bool(record.isStale)),
            ("text", text(drawn?.lockScreen)), ("compact", .string(compact.joined(separator: " "))), ("minimal", text(drawn?.minimal)),
            ("expanded", .string(expanded.joined(separator: " · "))), ("activity", record.json),
        ]
    }

    /// Publishes a Control's new state: `control`, with `text` (its label and value), `isOn`,
    /// `template`, `failure`.
    package func controlChanged(_ entry: ControlEntry, describe: (ViewNode) -> String, now: Date) {
        guard state.withLock({ state in state.subscribers.values.contains { $0.ids?.contains(entry.kind) ?? true } }) else { return }
        publish(id: entry.kind, Self.event("control", id: entry.kind, now: now) + Self.controlTexts(entry, describe: describe))
    }

    /// A control's state as an event carries it.
    package static func controlTexts(_ entry: ControlEntry, describe: (ViewNode) -> String) -> [(key: String, value: JSONValue)] {
        [
            ("kind", .string(entry.kind)), ("name", .string(entry.name)), ("template", entry.control.map { .string($0.template.rawValue) } ?? .null),
            ("text", .string(entry.control?.text(describe: describe) ?? "")), ("isOn", entry.control.map { .bool($0.isOn) } ?? .null),
            ("disabled", .bool(entry.control?.disabled ?? false)), ("failure", entry.failure.map(JSONValue.string) ?? .null),
        ]
    }

    private func publish(id: String, _ members: [(key: String, value: JSONValue)]) {
        let event = JSONValue.object(JSONObject(members))
        let receivers = state.withLock { state in
            state.subscribers.filter { $0.value.ids?.contains(id) ?? true }.map { ($0.key, $0.value.send) }
        }
        // A subscriber that cannot take a line (gone, or not reading) is dropped, never waited for.
        for (token, send) in receivers where !send(event) { unsubscribe(token) }
    }

    /// What changed between two statuses of one instance, most telling first.
    package static func change(from previous: InstanceStatus?, to status: InstanceStatus) -> String {
        if status.phase == .bundleMissing { return previous?.phase == .bundleMissing ? "status" : "missing" }
        guard let previous else { return status.entry == nil ? "status" : "timeline" }
        if status.lastFailure != nil, status.lastFailure != previous.lastFailure || status.timelines == previous.timelines && !status.reloading && previous.reloading {
            return "failed"
        }
        if status.timelines != previous.timelines { return "timeline" }
        if status.entry != previous.entry { return "entry" }
        if status.reloading && !previous.reloading { return "reloading" }
        if status.deferredByBudget && (!previous.deferredByBudget || status.nextReload != previous.nextReload) { return "deferred" }
        return "status"
    }

    /// One event about an instance and what it shows.
    package static func event(
        _ name: String, id: String, kind: String?, family: WidgetFamily?, status: InstanceStatus, text: String, now: Date
    ) -> JSONValue {
        .object(JSONObject(event(name, id: id, now: now) + shows(kind: kind, family: family, status: status, text: text, now: now)))
    }

    private static func event(_ name: String, id: String, now: Date) -> [(key: String, value: JSONValue)] {
        [("event", .string(name)), ("id", .string(id)), ("time", .string(ISODate.text(now)))]
    }

    /// What an instance shows: `value` is its first gauge's or progress view's fraction (0 to 1),
    /// for a bar's percentage, when it has one.
    private static func shows(
        kind: String?, family: WidgetFamily?, status: InstanceStatus, text: String, now: Date
    ) -> [(key: String, value: JSONValue)] {
        func date(_ date: Date?) -> JSONValue { date.map { .string(ISODate.text($0)) } ?? .null }
        return [
            ("kind", kind.map(JSONValue.string) ?? .null), ("family", family.map { .string($0.rawValue) } ?? .null),
            ("phase", .string(status.phase.rawValue)), ("text", .string(text)), ("entryDate", date(status.entry.map { Date(timeIntervalSince1970: $0.date) })),
            ("nextEntry", date(status.nextEntryDate)), ("nextReload", date(status.nextReload)),
            ("reason", status.nextReloadReason.map { .string($0.rawValue) } ?? .null), ("deferredByBudget", .bool(status.deferredByBudget)),
            ("nextChange", date(status.nextChange)), ("lastFailure", status.lastFailure.map(JSONValue.string) ?? .null),
            ("stale", .bool(status.lastFailure != nil && status.entry != nil)),
            ("value", status.entry?.view.firstIndicatorFraction(now: now).map(JSONValue.number) ?? .null),
        ]
    }
}
