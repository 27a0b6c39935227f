import Foundation
import WidgetABI
@_spi(WidgetsInternal) import WidgetSupport
import WidgetWire

/// The Live Activities the running host keeps, as iOS's system does for apps: an app (or `widgets
/// activity`) starts, updates and ends them; the bundle whose `ActivityConfiguration` is for the
/// activity's attributes type draws each state; at its `staleDate` an activity turns stale and is
/// drawn so (`context.isStale`); an ended one stays, as on the Lock Screen, until its dismissal
/// policy removes it (four hours at most). Saved in the state directory (`activities.json`), so
/// a restarted host shows the same activities, with the timers they had.
package final class ActivityCenter: @unchecked Sendable {
    private let registry: WidgetRegistry
    private let store: InstanceStore
    private let publish: @Sendable (ActivityRecord, _ removed: Bool) -> Void
    private var clock: WidgetClock { registry.clock }

    private struct State {
        var records: [ActivityRecord] = []
        var timers: [String: ScheduledAction] = [:]
    }
    private let state = Locked(State())
    /// Changes of one activity, one at a time (a drawing is awaited between reading and saving).
    private let changes = NSLock()

    static let fileName = "activities.json"
    /// The most activities kept at once (iOS allows an app five; the host holds every app's).
    static let maximumCount = 64

    init(registry: WidgetRegistry, store: InstanceStore, publish: @escaping @Sendable (ActivityRecord, _ removed: Bool) -> Void) {
        self.registry = registry
        self.store = store
        self.publish = publish
    }

    /// The activities (of one type, or all), the most relevant first (`relevanceScore`, as iOS
    /// orders them), then in the order they started.
    package func list(type: String? = nil) -> [ActivityRecord] {
        state.withLock { $0.records }.enumerated().filter { type == nil || $0.element.type == type }
            .sorted { ($1.element.relevance, $0.offset) < ($0.element.relevance, $1.offset) }.map(\.element)
    }

    // MARK: Saved state

    /// Reads the saved activities: those dismissed meanwhile are dropped, those whose stale date
    /// passed are marked stale, and each one's timer is set again. A file that cannot be read is
    /// set aside, named, rather than lost.
    func restore(log: (String) -> Void) {
        let url = store.directory.appendingPathComponent(Self.fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return }
        var records: [ActivityRecord] = []
        do {
            let json = try JSONValue.parse(Array(data))
            guard let list = json["activities"]?.arrayValue else { throw WireFormatError(path: "activities", reason: "expected an array") }
            for item in list { records.append(try ActivityRecord(json: item)) }
        } catch {
            let aside = url.path + ".corrupt-\(Int(clock.now().timeIntervalSince1970))"
            rename(url.path, aside)
            log("widgets: warning: \(url.path) is not a list of activities (\(error)); set aside as \(aside), starting with none")
            return
        }
        let now = clock.now().timeIntervalSince1970
        records.removeAll { ($0.dismissAt ?? .infinity) <= now }
        for index in records.indices where records[index].phase == .active && (records[index].staleDate ?? .infinity) <= now {
            records[index].phase = .stale
        }
        state.withLock { $0.records = records }
        for record in records { arm(record) }
    }

    private func save() throws(StateError) {
        let records = state.withLock { $0.records }
        let json = JSONValue.object(JSONObject([("version", .number(1)), ("activities", .array(records.map(\.json)))]))
        try store.save(Array((json.jsonText + "\n").utf8), as: Self.fileName)
    }

    // MARK: Requests

    /// Starts an activity of `type`: drawn first, so attributes its bundle cannot read are refused,
    /// with the bundle's reason, and nothing is kept.
    func start(type: String, attributes: JSONValue, content: ControlRequest.ActivityContentValue) async -> ControlAnswer {
        do { _ = try registry.activity(type: type) } catch { return .refused(Self.describe(error)) }
        let now = clock.now().timeIntervalSince1970
        let live = state.withLock { $0.records.filter { $0.phase == .active || $0.phase == .stale }.count }
        guard live < Self.maximumCount else {
            return .refused("\(live) activities are running, the most the host keeps; end one first ('widgets activity end ID')")
        }
        var record = ActivityRecord(
            id: UUID().uuidString, type: type, attributes: attributes, state: content.state, staleDate: content.staleDate,
            relevance: content.relevance, phase: (content.staleDate ?? .infinity) <= now ? .stale : .active, started: now, updated: now)
        do {
            record.presentations = try await draw(record)
        } catch {
            return .refused(Self.describe(error))
        }
        return commit(record)
    }

    /// New content for a running activity, drawn before it is kept.
    func update(id: String, content: ControlRequest.ActivityContentValue) async -> ControlAnswer {
        guard var record = find(id) else { return missing(id) }
        guard record.phase == .active || record.phase == .stale else {
            return .refused("activity \(id) has ended; an ended activity is not updated")
        }
        let now = clock.now().timeIntervalSince1970
        record.state = content.state
        record.staleDate = content.staleDate
        record.relevance = content.relevance
        record.updated = now
        record.phase = (content.staleDate ?? .infinity) <= now ? .stale : .active
        do {
            record.presentations = try await draw(record)
        } catch {
            return .refused(Self.describe(error))
        }
        return commit(record)
    }

    /// Ends an activity, with its final content if given; it leaves as `dismissal` says.
    func end(id: String, content: ControlRequest.ActivityContentValue?, dismissal: ActivityDismissal) async -> ControlAnswer {
        guard var record = find(id) else { return missing(id) }
        let now = clock.now().timeIntervalSince1970
        if let content {
            record.state = content.state
            record.staleDate = content.staleDate
            record.relevance = content.relevance
            do {
                record.presentations = try await draw(record)
            } catch {
                return .refused(Self.describe(error))
            }
        }
        let ended = record.ended ?? now
        record.ended = ended
        record.updated = now
        record.phase = .ended
        switch dismissal {
        case .default: record.dismissAt = ended + ActivityDismissal.longest
        case .immediate: record.dismissAt = now
        case .after(let date): record.dismissAt = min(max(date, now), ended + ActivityDismissal.longest)
        }
        return commit(record)
    }

    // MARK: Keeping

    private func find(_ id: String) -> ActivityRecord? {
        state.withLock { $0.records.first { $0.id == id } }
    }

    private func missing(_ id: String) -> ControlAnswer {
        let ids = list().map(\.id)
        return .refused("no activity \"\(id.onOneLine.cut(to: 200))\"\(Suggestion.hint(for: id, among: ids)); activities: \(ids.isEmpty ? "none" : ids.joined(separator: ", "))")
    }

    /// Keeps `record` (or removes it, when its dismissal has come), saves, sets its timer, and
    /// tells the subscribers.
    private func commit(_ given: ActivityRecord) -> ControlAnswer {
        var record = given
        let now = clock.now().timeIntervalSince1970
        let removed = (record.dismissAt ?? .infinity) <= now
        if removed { record.phase = .dismissed }
        changes.lock()
        let previous = state.withLock { held in
            let previous = held.records
            if let index = held.records.firstIndex(where: { $0.id == record.id }) {
                if removed { held.records.remove(at: index) } else { held.records[index] = record }
            } else if !removed {
                held.records.append(record)
            }
            return previous
        }
        do {
            try save()
        } catch {
            state.withLock { $0.records = previous }
            changes.unlock()
            return .refused("\(error)")
        }
        changes.unlock()
        if removed { disarm(record.id) } else { arm(record) }
        publish(record, removed)
        return .activity(record)
    }

    /// The timer of an activity's next change: its stale date while it runs, its dismissal once ended.
    private func arm(_ record: ActivityRecord) {
        disarm(record.id)
        let due: Double?
        switch record.phase {
        case .active: due = record.staleDate
        case .ended: due = record.dismissAt
        case .stale, .dismissed: due = nil
        }
        guard let due else { return }
        let id = record.id
        let timer = clock.schedule(at: Date(timeIntervalSince1970: due)) { [weak self] in self?.timerFired(id) }
        state.withLock { $0.timers[id] = timer }
    }

    private func disarm(_ id: String) {
        state.withLock { $0.timers.removeValue(forKey: id) }?.cancel()
    }

    private func timerFired(_ id: String) {
        _ = state.withLock { $0.timers.removeValue(forKey: id) }
        guard var record = find(id) else { return }
        let now = clock.now().timeIntervalSince1970
        switch record.phase {
        case .active where (record.staleDate ?? .infinity) <= now:
            record.phase = .stale
            // Drawn stale; should that fail, the last drawing stays, marked stale by its phase.
            Task { [self] in
                var stale = record
                do throws(RequestError) { stale.presentations = try await draw(stale) } catch { stale.failure = Self.describe(error) }
                guard find(id)?.updated == record.updated else { return }
                _ = commit(stale)
            }
        case .ended where (record.dismissAt ?? .infinity) <= now:
            _ = commit(record)
        default:
            arm(record)
        }
    }

    /// A failed drawing in a Live Activity's words: `Live Activity "Type" (file.so): why`.
    static func describe(_ error: RequestError) -> String {
        let bundle = error.bundlePath.map { " (\(($0 as NSString).lastPathComponent))" } ?? ""
        return "Live Activity \"\(error.kind)\"\(bundle): \(error.message)"
    }

    /// The presentations the activity's bundle draws for its attributes and state.
    private func draw(_ record: ActivityRecord) async throws(RequestError) -> WireActivityPresentations {
        let configuration = JSONValue.object(
            JSONObject([
                ("id", .string(record.id)), ("attributes", record.attributes), ("state", record.state), ("isStale", .bool(record.isStale)),
            ]))
        let result = try await registry.request(.activity, kind: record.type, configuration: configuration.jsonText)
        guard let payload = result.payload else {
            throw RequestError(kind: record.type, bundlePath: nil, reason: .invalidResult, message: "drew no activity")
        }
        do {
            return try WireActivityPresentations(json: payload)
        } catch {
            throw RequestError(kind: record.type, bundlePath: nil, reason: .invalidResult, message: "invalid activity result: \(error)")
        }
    }
}
