import FoundationEssentials
import Glibc
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
        /// Each activity's changes kept so far: a change made from revision N is kept only while the
        /// activity is still at N.
        var revisions: [String: Int] = [:]
        /// Set when the host stops: nothing is kept, saved or timed from then on.
        var stopped = false
    }
    private let state = Locked(State())
    /// Keeping and saving, one change at a time. A change is drawn before it takes this lock, so it
    /// is kept only if the activity is still as it was read (see `commit`).
    private let changes = Lock()
    /// Set when the saved file could not be read and was not set aside: nothing is saved over it.
    private var saving = true

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

    /// Stops: the timers cancelled, and no change kept from now on (a drawing under way included).
    func stop() {
        let timers = state.withLock { held in
            held.stopped = true
            defer { held.timers = [:] }
            return Array(held.timers.values)
        }
        for timer in timers { timer.cancel() }
    }

    // MARK: Saved state

    /// Reads the saved activities: those dismissed meanwhile are dropped, those whose stale date
    /// passed are marked stale, and each one's timer is set again. A file that cannot be read is
    /// set aside, named, rather than lost.
    func restore(log: (String) -> Void) {
        let path = store.directory.appendingPathComponent(Self.fileName).path
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let data = FileManager.default.contents(atPath: path) else {
            saving = false
            log("warning: cannot read \(path); the activities in it are kept there, and new ones are not saved until it can be read")
            return
        }
        var records: [ActivityRecord] = []
        do {
            let json = try JSONValue.parse(Array(data))
            if let version = json["version"]?.numberValue, version > 1 {
                saving = false
                log("warning: \(path) was written by a newer version of widgets (format \(Int(version))); it is left as it is, and activities are not saved")
                return
            }
            guard let list = json["activities"]?.arrayValue else { throw WireFormatError(path: "activities", reason: "expected an array") }
            for (index, item) in list.enumerated() {
                do { records.append(try ActivityRecord(json: item)) } catch { throw WireFormatError(path: "activities[\(index)]." + error.path, reason: error.reason) }
            }
        } catch {
            // Kept aside, never silently replaced, under a name no earlier copy has.
            var aside = path + ".corrupt-" + ISODate.text(clock.now()).replacing(":", with: "")
            var copy = 1
            while FileManager.default.fileExists(atPath: aside) {
                copy += 1
                aside = path + ".corrupt-" + ISODate.text(clock.now()).replacing(":", with: "") + "-\(copy)"
            }
            guard rename(path, aside) == 0 else {
                saving = false
                log("warning: \(path) is not a list of activities (\(error)) and cannot be set aside (\(errnoText())); it is left as it is, and activities are not saved")
                return
            }
            log("warning: \(path) is not a list of activities (\(error)); kept as \(aside), starting with none")
            return
        }
        let now = clock.now().timeIntervalSince1970
        records.removeAll { ($0.dismissAt ?? .infinity) <= now }
        var turned: [ActivityRecord] = []
        for index in records.indices where records[index].phase == .active && (records[index].staleDate ?? .infinity) <= now {
            records[index].phase = .stale
            turned.append(records[index])
        }
        state.withLock { $0.records = records }
        for record in records { arm(record) }
        // Those that turned stale while the host was away are drawn stale, as at their date.
        for record in turned { redrawStale(record, read: 0) }
    }

    private func save() throws(StateError) {
        guard saving else { return }
        let records = state.withLock { $0.records }
        let json = JSONValue.object(JSONObject([("version", .number(1)), ("activities", .array(records.map(\.json)))]))
        try store.save(Array((json.jsonText + "\n").utf8), as: Self.fileName)
    }

    // MARK: Requests

    /// Starts an activity of `type`: drawn first, so attributes its bundle cannot read are refused,
    /// with the bundle's reason, and nothing is kept.
    func start(type: String, attributes: JSONValue, content: ControlRequest.ActivityContentValue) async -> ControlAnswer {
        do { _ = try registry.apart(type, as: .activity) } catch { return .refused(Self.describe(error)) }
        let now = clock.now().timeIntervalSince1970
        var record = ActivityRecord(
            id: UUID().uuidString, type: type, attributes: attributes, state: content.state, staleDate: content.staleDate,
            relevance: content.relevance, phase: (content.staleDate ?? .infinity) <= now ? .stale : .active, started: now, updated: now)
        do {
            record.presentations = try await draw(record)
        } catch {
            return .refused(Self.describe(error))
        }
        return commit(record, readAt: nil)
    }

    /// New content for a running activity, drawn before it is kept.
    func update(id: String, content: ControlRequest.ActivityContentValue) async -> ControlAnswer {
        guard let (found, read) = find(id) else { return missing(id) }
        var record = found
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
            record.failure = nil
        } catch {
            return .refused(Self.describe(error))
        }
        return commit(record, readAt: read)
    }

    /// Ends an activity, with its final content if given; it leaves as `dismissal` says.
    func end(id: String, content: ControlRequest.ActivityContentValue?, dismissal: ActivityDismissal) async -> ControlAnswer {
        guard let (found, read) = find(id) else { return missing(id) }
        var record = found
        let now = clock.now().timeIntervalSince1970
        if let content {
            record.state = content.state
            record.staleDate = content.staleDate
            record.relevance = content.relevance
            do {
                record.presentations = try await draw(record)
                record.failure = nil
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
        return commit(record, readAt: read)
    }

    // MARK: Keeping

    /// The activity of `id` and its revision.
    private func find(_ id: String) -> (ActivityRecord, Int)? {
        state.withLock { held in held.records.first { $0.id == id }.map { ($0, held.revisions[id, default: 0]) } }
    }

    private func missing(_ id: String) -> ControlAnswer {
        let ids = list().map(\.id)
        return .refused("no activity \"\(id.onOneLine.cut(to: 200))\"\(Suggestion.hint(for: id, among: ids)); activities: \(ids.isEmpty ? "none" : ids.joined(separator: ", "))")
    }

    /// Keeps `record` (or removes it, when its dismissal has come), saves, sets its timer, and
    /// tells the subscribers. `readAt`: the revision of the record the change was made from, nil for
    /// a new one; a change whose activity changed meanwhile (another update, an end, a dismissal,
    /// while this one was drawn) is refused, never kept over it.
    private func commit(_ given: ActivityRecord, readAt: Int?) -> ControlAnswer {
        var record = given
        let now = clock.now().timeIntervalSince1970
        let removed = (record.dismissAt ?? .infinity) <= now
        if removed { record.phase = .dismissed }
        changes.lock()
        let kept: Result<[ActivityRecord], Refusal> = state.withLock { held in
            guard !held.stopped else { return .failure(Refusal("the host is stopping")) }
            let previous = held.records
            let index = held.records.firstIndex { $0.id == record.id }
            switch (index, readAt) {
            case (nil, nil):
                let live = held.records.filter { $0.phase == .active || $0.phase == .stale }.count
                guard live < Self.maximumCount else {
                    return .failure(Refusal("\(live) activities are running, the most the host keeps; end one first ('widgets activity end ID')"))
                }
                if !removed { held.records.append(record) }
            case (let index?, let read?) where held.revisions[record.id, default: 0] == read:
                if removed { held.records.remove(at: index) } else { held.records[index] = record }
            case (nil, _?):
                return .failure(Refusal("activity \(record.id) was dismissed meanwhile; nothing was changed"))
            default:
                return .failure(Refusal("activity \(record.id) changed meanwhile (another update or its end came first); nothing was changed: ask again"))
            }
            held.revisions[record.id, default: 0] += 1
            if removed { held.revisions[record.id] = nil }
            return .success(previous)
        }
        guard case .success(let previous) = kept else {
            changes.unlock()
            if case .failure(let reason) = kept { return .refused(reason.text) }
            return .refused("not kept")
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
        let kept = state.withLock { held in
            guard !held.stopped else { return false }
            held.timers[id] = timer
            return true
        }
        if !kept { timer.cancel() }
    }

    private func disarm(_ id: String) {
        state.withLock { $0.timers.removeValue(forKey: id) }?.cancel()
    }

    private func timerFired(_ id: String) {
        _ = state.withLock { $0.timers.removeValue(forKey: id) }
        guard let (found, read) = find(id) else { return }
        var record = found
        let now = clock.now().timeIntervalSince1970
        switch record.phase {
        case .active where (record.staleDate ?? .infinity) <= now:
            record.phase = .stale
            redrawStale(record, read: read)
        case .ended where (record.dismissAt ?? .infinity) <= now:
            // Off the clock's one timer thread: a commit saves, and waits for the disk.
            Task { [self] in _ = commit(record, readAt: read) }
        default:
            arm(record)
        }
    }

    /// Draws a stale activity (`context.isStale`) and keeps it, unless it changed meanwhile; should
    /// the drawing fail, the last one stays, marked stale by its phase, with the failure said.
    private func redrawStale(_ record: ActivityRecord, read: Int) {
        Task { [self] in
            var stale = record
            do throws(RequestError) {
                stale.presentations = try await draw(stale)
                stale.failure = nil
            } catch {
                stale.failure = Self.describe(error)
            }
            _ = commit(stale, readAt: read)
        }
    }

    /// A failed drawing in a Live Activity's words: `Live Activity "Type" (file.so): why`.
    static func describe(_ error: RequestError) -> String { error.described(as: "Live Activity") }

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

/// Why a change was not kept, said to whoever asked for it.
private struct Refusal: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
