import Foundation
import Synchronization
import Testing
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTestSupport
import WidgetTimelines
import WidgetWire

/// The running host's event stream (`widgets watch`): a `watch` request on the control socket gets
/// what each instance shows now, then a line per change.
@Suite struct EventStreamTests {
    func socketPath() -> String { Fixtures.temporaryDirectory("runtime").path + "/widgets/control.sock" }

    /// The next event for `id` (others skipped); fails rather than hangs when none comes (60 s: CI machines stall).
    /// Waited for on a thread of its own: the events come from the host's tasks, which a test blocking
    /// the cooperative pool (a thread per core) would starve.
    func next(_ client: ControlClient, id: String, where holds: @escaping @Sendable (JSONValue) -> Bool = { _ in true }) async throws -> JSONValue? {
        nonisolated(unsafe) let client = client
        return try await offThePool {
            while let event = try client.nextEvent(timeout: 60) {
                if event["id"]?.stringValue == id, holds(event) { return event }
            }
            return nil
        }
    }

    /// A request to the host, sent and answered on a thread of its own (see `next`).
    func send(_ request: JSONValue, to path: String) async throws -> JSONValue {
        try await offThePool { try ControlClient(path: path, timeout: 60).send(request) }
    }

    /// A `home` request made while the host is about to serve its home screen (a desktop's right
    /// click just after a restart) waits for its address, rather than being told there is none.
    @Test func theHomeScreensAddressIsWaitedForWhileItIsAboutToBeServed() async throws {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["good"]).path], clock: ManualClock(), isolation: .queue)
        let daemon = WidgetDaemon(registry: registry, store: InstanceStore(directory: Fixtures.temporaryDirectory("state")), budget: .development)
        daemon.servesHome = true
        try daemon.start(socketPath: nil)
        defer { daemon.stop() }
        // Asked, and the address served once the request waits, from threads of their own: in a full
        // run the pool's threads may all be busy for longer than the host waits (10 s).
        let answered = Mutex<ControlAnswer?>(nil)
        let sawWaiter = Mutex(false)
        Thread.detachNewThread {
            let answer = daemon.answer(.home)
            answered.withLock { $0 = answer }
        }
        Thread.detachNewThread {
            let giveUp = Date().addingTimeInterval(10)
            while daemon.homeWaiters == 0, Date() < giveUp { usleep(1000) }
            sawWaiter.withLock { $0 = daemon.homeWaiters == 1 }
            daemon.homeURL = "http://127.0.0.1:1/#token=t"
        }
        #expect(try await eventually(within: 30) { answered.withLock { $0 != nil } })
        #expect(sawWaiter.withLock { $0 }, "the request waited")
        #expect(answered.withLock { $0 } == .home(url: "http://127.0.0.1:1/#token=t"))
        // A host that serves none says so at once.
        daemon.homeURL = nil
        daemon.servesHome = false
        #expect(daemon.answer(.home) == .refused("this host serves no home screen; start it with 'widgets run --web'"))
    }

    @Test func aWatcherGetsWhatEachInstanceShowsThenEveryChange() async throws {
        let clock = ManualClock()
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["good"]).path], clock: clock, isolation: .queue)
        let store = InstanceStore(directory: Fixtures.temporaryDirectory("state"))
        _ = try store.update { (list) throws(StateError) in try list.add(kind: "fixture.good", family: .systemSmall, configuration: JSONObject()) }
        let statuses = StatusLog()
        let daemon = WidgetDaemon(
            registry: registry, store: store, budget: .development, describe: { $0.entry == nil ? "nothing yet" : "shows an entry" },
            observer: statuses.record)
        let path = socketPath()
        try daemon.start(socketPath: path)
        defer { daemon.stop() }
        #expect(await blocking { statuses.wait { $0.timelines == 1 } })

        let watcher = try ControlClient(path: path, timeout: 60)
        let answer = try watcher.send(.object(JSONObject([("request", .string("watch"))])))
        let current = try #require(answer["current"]?.arrayValue)
        #expect(current.count == 1)
        #expect(current.first?["event"] == .string("current"))
        #expect(current.first?["id"] == .string("good-1"))
        #expect(current.first?["kind"] == .string("fixture.good"))
        #expect(current.first?["phase"] == .string("showing"))
        #expect(current.first?["text"] == .string("shows an entry"))
        #expect(daemon.events.subscriberCount == 1)

        // A reload through the socket, as an app's WidgetCenter asks: due when the clock says, it
        // starts, then a timeline comes; each step is an event.
        _ = try await send(.object(JSONObject([("request", .string("reload"))])), to: path)
        clock.advance(by: 300)
        var seen: [String] = []
        while let event = try await next(watcher, id: "good-1") {
            seen.append(event["event"]?.stringValue ?? "?")
            if seen.last == "timeline" {
                #expect(event["text"] == .string("shows an entry"))
                break
            }
        }
        #expect(seen.suffix(2) == ["reloading", "timeline"], "\(seen)")

        // The instance list changes: added (before its first status), configured, removed.
        let second = try store.update { (list) throws(StateError) in try list.add(kind: "fixture.good", family: .systemMedium, configuration: JSONObject()) }
        try daemon.synchronize()
        let added = try await next(watcher, id: second.id)
        #expect(added?["event"] == .string("added"))
        #expect(added?["family"] == .string("systemMedium"))
        try store.update { list in list.instances.removeAll { $0.id == second.id } }
        try daemon.synchronize()
        #expect(try await next(watcher, id: second.id, where: { $0["event"] == .string("removed") }) != nil)

        // A watcher that goes away is forgotten at the next event it cannot take.
        watcher.close()
        _ = try await send(.object(JSONObject([("request", .string("reload"))])), to: path)
        #expect(await blocking { () -> Bool in
            let giveUp = Date().addingTimeInterval(60)
            while daemon.events.subscriberCount != 0 && Date() < giveUp { usleep(10_000) }
            return daemon.events.subscriberCount == 0
        })
    }

    @Test func watchingAnInstanceThatIsNotHostedIsRefusedByName() async throws {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["good"]).path], clock: ManualClock(), isolation: .queue)
        let store = InstanceStore(directory: Fixtures.temporaryDirectory("state"))
        _ = try store.update { (list) throws(StateError) in try list.add(kind: "fixture.good", family: .systemSmall, configuration: JSONObject()) }
        let daemon = WidgetDaemon(registry: registry, store: store)
        let path = socketPath()
        try daemon.start(socketPath: path)
        defer { daemon.stop() }
        let client = try ControlClient(path: path, timeout: 60)
        #expect(throws: ControlError("no instance \"clock-9\" is hosted; instances: good-1 (a Live Activity's id or a Control's kind is watched too: 'widgets activity list', 'widgets control')", isRefusal: true)) {
            try client.send(.object(JSONObject([("request", .string("watch")), ("ids", .array([.string("clock-9")]))])))
        }
        #expect(daemon.events.subscriberCount == 0)
    }

    @Test func whatChangedIsNamedMostTellingFirst() {
        let entry = WireEntry(date: 0, view: ViewNode("text", attributes: JSONObject([("text", .string("a"))])))
        let later = WireEntry(date: 60, view: ViewNode("text", attributes: JSONObject([("text", .string("b"))])))
        let showing = InstanceStatus(phase: .showing, entry: entry, timelines: 1)
        #expect(EventHub.change(from: showing, to: InstanceStatus(phase: .showing, entry: later, timelines: 1)) == "entry")
        #expect(EventHub.change(from: showing, to: InstanceStatus(phase: .showing, entry: later, timelines: 2)) == "timeline")
        #expect(EventHub.change(from: showing, to: InstanceStatus(phase: .showing, entry: entry, timelines: 1, reloading: true)) == "reloading")
        let reloading = InstanceStatus(phase: .showing, entry: entry, timelines: 1, reloading: true)
        #expect(EventHub.change(from: reloading, to: InstanceStatus(phase: .showing, entry: entry, timelines: 1, lastFailure: "boom")) == "failed")
        #expect(
            EventHub.change(
                from: showing,
                to: InstanceStatus(phase: .showing, entry: entry, timelines: 1, nextReload: Date(timeIntervalSince1970: 600), deferredByBudget: true))
                == "deferred")
        #expect(EventHub.change(from: showing, to: InstanceStatus(phase: .bundleMissing, entry: entry, timelines: 1)) == "missing")
        #expect(EventHub.change(from: nil, to: InstanceStatus(phase: .loading)) == "status")
    }

    @Test func anInstanceIsDrawnInAnotherFamilyForABar() async throws {
        let clock = ManualClock(now: Date().addingTimeInterval(60))
        let registry = try await offThePool {
            WidgetRegistry.load(
                searchPath: [Fixtures.directory(["libSystemWidgets.so"]).path], clock: clock,
                isolation: .process(ProcessIsolation(workerExecutable: Fixtures.workerExecutable)))
        }
        defer { registry.shutDownWorkers() }
        let store = InstanceStore(directory: Fixtures.temporaryDirectory("state"))
        let instance = try store.update { (list) throws(StateError) in try list.add(kind: "org.widgets.system.clock", family: .systemSmall, configuration: JSONObject()) }
        let statuses = StatusLog()
        let daemon = WidgetDaemon(
            registry: registry, store: store, budget: .development, describe: { _ in "own" },
            describeView: { PlainTextRenderer.lines($0).joined(separator: " | ") }, observer: statuses.record)
        let path = socketPath()
        try daemon.start(socketPath: path)
        defer { daemon.stop() }
        #expect(await blocking { statuses.wait { $0.timelines == 1 } })
        func text(_ family: String) async throws -> JSONValue {
            // The host asks a worker for a snapshot: time enough for a loaded CI machine to start one.
            try await send(.object(JSONObject([("request", .string("text")), ("id", .string(instance.id)), ("family", .string(family))])), to: path)
        }
        // The clock's inline view is the time alone: "12:34".
        let inline = try await text("accessoryInline")
        #expect(inline["family"] == .string("accessoryInline"))
        let time = try #require(inline["text"]?.stringValue)
        #expect(time.count == 5 && time.dropFirst(2).hasPrefix(":"), "\(time)")
        // A family it does not have: its own text, and which family that is.
        let medium = try await text("systemMedium")
        #expect(medium["text"] == .string("own"))
        #expect(medium["family"] == .string("systemSmall"))
        await #expect(throws: (any Error).self, "a family that is none") { try await text("huge") }
    }
}
