import Foundation
import Testing
import WidgetHost
import WidgetRendering
@_spi(WidgetsInternal) import WidgetSupport
import WidgetTestSupport
import WidgetTimelines
import WidgetWire

/// Live Activities kept by the running host (ABI 1.7): started, drawn by the sample bundle's
/// `ActivityConfiguration`, stale at their date, ended and dismissed on the host's clock, saved.
@Suite struct LiveActivityTests {
    static let match = ControlRequest.ActivityContentValue(state: .object(JSONObject([("ours", .number(0)), ("theirs", .number(0)), ("period", .number(1))])))

    func daemon(clock: ManualClock, state: URL) throws -> WidgetDaemon {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["libGameWidgets.so"]).path], clock: clock, isolation: .queue)
        let daemon = WidgetDaemon(
            registry: registry, store: InstanceStore(directory: state), budget: .development,
            describeView: { PlainTextRenderer.lines($0).joined(separator: " | ") })
        try daemon.start(socketPath: nil)
        return daemon
    }

    func answer(_ daemon: WidgetDaemon, _ request: ControlRequest) async -> ControlAnswer {
        await blocking { daemon.answer(request) }
    }

    func lockScreen(_ record: ActivityRecord?) -> String {
        record?.presentations.map { PlainTextRenderer.lines($0.lockScreen).joined(separator: " | ") } ?? "not drawn"
    }

    @Test func anActivityIsDrawnTurnsStaleAtItsDateEndsAndLeavesAsItsPolicySays() async throws {
        let clock = ManualClock()
        let state = Fixtures.temporaryDirectory("state")
        let daemon = try daemon(clock: clock, state: state)
        defer { daemon.stop() }
        let start = clock.now().timeIntervalSince1970
        var content = Self.match
        content.staleDate = start + 60
        let attributes = JSONValue.object(JSONObject([("opponent", .string("Rovers"))]))
        guard case .activity(let started) = await answer(daemon, .activityStart(type: "MatchAttributes", attributes: attributes, content: content)) else {
            Issue.record("not started")
            return
        }
        #expect(started.phase == .active)
        #expect(lockScreen(started).contains("vs Rovers") && lockScreen(started).hasSuffix("0 – 0 | Period 1"), "\(lockScreen(started))")
        // The island's presentations, as a bar shows them.
        #expect(started.presentations?.compactTrailing.map { PlainTextRenderer.lines($0).joined() } == "0–0")
        #expect(started.presentations?.expanded.map(\.region) == ["leading", "trailing", "bottom"])
        #expect(started.presentations?.widgetURL == "mygame://status")
        // activityBackgroundTint is the Lock Screen presentation's background.
        #expect(started.presentations?.lockScreen.hasModifier("containerBackground") == true)
        #expect(started.presentations?.lockScreen.hasModifier("activityBackgroundTint") == false)

        // A watcher hears each change, with the compact text.
        let heard = Locked<[JSONValue]>([])
        _ = daemon.events.subscribe(ids: [started.id]) { event in
            heard.withLock { $0.append(event) }
            return true
        }

        // At its stale date it is drawn stale (context.isStale), and says so.
        clock.advance(by: 61)
        // The redraw is a task of the host's, on Swift's cooperative pool, which in a full test run
        // waits behind hundreds of tests' tasks on two threads: a minute, not 10 s (it failed twice).
        #expect(try await eventually(within: 60) { heard.withLock { $0 }.contains { $0["stale"] == .bool(true) } })
        guard case .activities(let list) = await answer(daemon, .activities(type: nil)) else { Issue.record("another answer"); return }
        #expect(list.first?.phase == .stale)
        #expect(lockScreen(list.first).hasSuffix("0 – 0 | Waiting for the score"), "\(lockScreen(list.first))")
        #expect(heard.withLock { $0 }.last?["compact"]?.stringValue?.hasSuffix(" 0–0") == true)

        // New content makes it active again.
        var scored = Self.match
        scored.state = .object(JSONObject([("ours", .number(3)), ("theirs", .number(1)), ("period", .number(2))]))
        guard case .activity(let updated) = await answer(daemon, .activityUpdate(id: started.id, content: scored)) else { Issue.record("another answer"); return }
        #expect(updated.phase == .active)
        #expect(lockScreen(updated).hasSuffix("3 – 1 | Period 2"), "\(lockScreen(updated))")

        // Ended, it stays four hours (iOS's default), then leaves; the watcher hears both.
        guard case .activity(let ended) = await answer(daemon, .activityEnd(id: started.id, content: nil, dismissal: .default)) else { Issue.record("another answer"); return }
        #expect(ended.phase == .ended)
        #expect(ended.dismissAt == clock.now().timeIntervalSince1970 + 4 * 3600)
        guard case .refused(let refusal) = await answer(daemon, .activityUpdate(id: started.id, content: scored)) else { Issue.record("another answer"); return }
        #expect(refusal == "activity \(started.id) has ended; an ended activity is not updated")
        clock.advance(by: 4 * 3600 - 1)
        guard case .activities(let stillThere) = await answer(daemon, .activities(type: "MatchAttributes")) else { Issue.record("another answer"); return }
        #expect(stillThere.map(\.phase) == [.ended])
        clock.advance(by: 1)
        #expect(try await eventually(within: 60) { heard.withLock { $0 }.contains { $0["event"] == .string("activity-removed") } })
        guard case .activities(let gone) = await answer(daemon, .activities(type: nil)) else { Issue.record("another answer"); return }
        #expect(gone.isEmpty)
        let saved = try String(contentsOf: state.appendingPathComponent("activities.json"), encoding: .utf8)
        #expect(saved == #"{"version":1,"activities":[]}"# + "\n")

        // The most relevant first, as iOS orders them; equal ones in the order they started.
        var relevant = Self.match
        relevant.relevance = 5
        guard case .activity(let low) = await answer(daemon, .activityStart(type: "MatchAttributes", attributes: attributes, content: Self.match)),
            case .activity(let high) = await answer(daemon, .activityStart(type: "MatchAttributes", attributes: attributes, content: relevant)),
            case .activity(let alsoLow) = await answer(daemon, .activityStart(type: "MatchAttributes", attributes: attributes, content: Self.match)),
            case .activities(let ordered) = await answer(daemon, .activities(type: nil))
        else { Issue.record("another answer"); return }
        #expect(ordered.map(\.id) == [high.id, low.id, alsoLow.id])
        for id in [low.id, high.id, alsoLow.id] { _ = await answer(daemon, .activityEnd(id: id, content: nil, dismissal: .immediate)) }

        // Ended with an immediate policy, it leaves at once.
        guard case .activity(let second) = await answer(daemon, .activityStart(type: "MatchAttributes", attributes: attributes, content: Self.match)) else { Issue.record("another answer"); return }
        guard case .activity(let dismissed) = await answer(daemon, .activityEnd(id: second.id, content: nil, dismissal: .immediate)) else { Issue.record("another answer"); return }
        #expect(dismissed.phase == .dismissed)
        guard case .activities(let none) = await answer(daemon, .activities(type: nil)) else { Issue.record("another answer"); return }
        #expect(none.isEmpty)
    }

    /// An update whose drawing is under way when the activity is ended and dismissed is refused when
    /// it comes back: it is never kept over the end (the activity would come back, never dismissed).
    @Test func anUpdateDrawnWhileTheActivityEndsIsNotKeptOverTheEnd() async throws {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["activity"]).path], clock: ManualClock(), isolation: .queue)
        let daemon = WidgetDaemon(registry: registry, store: InstanceStore(directory: Fixtures.temporaryDirectory("state")), budget: .development)
        try daemon.start(socketPath: nil)
        defer { daemon.stop() }
        guard case .activity(let started) = await answer(daemon, .activityStart(type: "FixtureAttributes", attributes: .object(JSONObject()), content: .init(state: .object(JSONObject([("n", .number(1))])))))
        else {
            Issue.record("not started")
            return
        }
        let files = Fixtures.temporaryDirectory("hold")
        let (release, held) = (files.appendingPathComponent("release").path, files.appendingPathComponent("held").path)
        let held2 = JSONValue.object(JSONObject([("n", .number(2)), ("hold", .string(release)), ("held", .string(held))]))
        let update = Task { await answer(daemon, .activityUpdate(id: started.id, content: .init(state: held2))) }
        #expect(try await eventually(within: 30) { FileManager.default.fileExists(atPath: held) }, "the update's drawing began")
        guard case .activity(let ended) = await answer(daemon, .activityEnd(id: started.id, content: nil, dismissal: .immediate)) else {
            Issue.record("not ended")
            return
        }
        #expect(ended.phase == .dismissed)
        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        #expect(await update.value == .refused("activity \(started.id) was dismissed meanwhile; nothing was changed"))
        guard case .activities(let left) = await answer(daemon, .activities(type: nil)) else { Issue.record("another answer"); return }
        #expect(left.isEmpty, "the end stands")
    }

    @Test func whatTheBundleCannotDrawIsRefusedNamingTheFieldAndNothingIsKept() async throws {
        let daemon = try daemon(clock: ManualClock(), state: Fixtures.temporaryDirectory("state"))
        defer { daemon.stop() }
        let attributes = JSONValue.object(JSONObject([("opponent", .string("Rovers"))]))
        let bad = ControlRequest.ActivityContentValue(state: .object(JSONObject([("ours", .string("one")), ("theirs", .number(0)), ("period", .number(1))])))
        guard case .refused(let reason) = await answer(daemon, .activityStart(type: "MatchAttributes", attributes: attributes, content: bad)) else {
            Issue.record("started")
            return
        }
        #expect(reason.hasPrefix(#"Live Activity "MatchAttributes" (libGameWidgets.so): "#), "\(reason)")
        #expect(reason.contains(#"the activity's content state (ContentState) did not decode: "ours" is not Int"#), "\(reason)")
        guard case .refused(let missing) = await answer(daemon, .activityStart(type: "MatchAttributes", attributes: .object(JSONObject()), content: Self.match)) else { Issue.record("another answer"); return }
        #expect(missing.contains(#"the activity's attributes (MatchAttributes) did not decode: no value for "opponent""#), "\(missing)")
        guard case .refused(let unknown) = await answer(daemon, .activityStart(type: "MatchAttribute", attributes: attributes, content: Self.match)) else { Issue.record("another answer"); return }
        #expect(unknown == #"Live Activity "MatchAttribute": no bundle loaded has this Live Activity (did you mean MatchAttributes?); Live Activities: MatchAttributes"#)
        guard case .refused(let widget) = await answer(daemon, .activityStart(type: "com.mygame.game-status", attributes: attributes, content: Self.match)) else { Issue.record("another answer"); return }
        #expect(widget.contains(#""com.mygame.game-status" is a widget, not a Live Activity"#), "\(widget)")
        guard case .activities(let none) = await answer(daemon, .activities(type: nil)) else { Issue.record("another answer"); return }
        #expect(none.isEmpty)
        // A Live Activity is no widget: not listed, placed or asked for timelines as one.
        #expect(!daemon.registry.widgets.contains { $0.kind == "MatchAttributes" })
        #expect(daemon.registry.activityTypes.map(\.kind) == ["MatchAttributes"])
    }

    @Test func aRestartedHostKeepsItsActivitiesAndTheirTimers() async throws {
        let clock = ManualClock()
        let state = Fixtures.temporaryDirectory("state")
        let start = clock.now().timeIntervalSince1970
        var content = Self.match
        content.staleDate = start + 60
        let attributes = JSONValue.object(JSONObject([("opponent", .string("Rovers"))]))
        let first = try daemon(clock: clock, state: state)
        guard case .activity(let running) = await answer(first, .activityStart(type: "MatchAttributes", attributes: attributes, content: content)),
            case .activity(let other) = await answer(first, .activityStart(type: "MatchAttributes", attributes: attributes, content: Self.match)),
            case .activity = await answer(first, .activityEnd(id: other.id, content: nil, dismissal: .after(start + 600)))
        else {
            first.stop()
            Issue.record("not started")
            return
        }
        first.stop()

        // Away past the first's stale date: it comes back stale; the ended one stays until its time.
        clock.advance(by: 120)
        let second = try daemon(clock: clock, state: state)
        defer { second.stop() }
        guard case .activities(let restored) = await answer(second, .activities(type: nil)) else { Issue.record("another answer"); return }
        #expect(restored.map(\.id) == [running.id, other.id])
        #expect(restored.map(\.phase) == [.stale, .ended])
        // Stale while the host was away: drawn stale once it is back.
        #expect(try await eventually {
            guard case .activities(let list) = second.answer(.activities(type: nil)) else { return false }
            return list.first.map { PlainTextRenderer.lines($0.presentations!.lockScreen).joined(separator: " | ").hasSuffix("Waiting for the score") } ?? false
        })
        clock.advance(by: 480)
        #expect(try await eventually { if case .activities(let list) = second.answer(.activities(type: nil)) { list.count == 1 } else { false } })
    }
}

extension LiveActivityTests {
    /// As a person meets it: the game app plays a match through ActivityKit against the real host,
    /// `widgets activity` lists and ends it, and a waybar feed of it shows the island's compact view.
    @Test func theGameAppsMatchIsALiveActivityInTheHostTheShellAndABar() async throws {
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        let home = HostHome()
        let none = await home.gameApp(["match", "start", "Rovers"])
        #expect(none.status == 1)
        #expect(none.standardError.hasPrefix("game-app: the match's Live Activity did not start: no widget host is running"), "\(none.standardError)")

        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: hosting") } }, "\(host.output)")
        let list = await home.cli(["--plugins", plugins.path, "list"])
        #expect(list.standardOutput.contains("  Live Activities: MatchAttributes ('widgets activity start TYPE')"), "\(list.standardOutput)")

        let started = await home.gameApp(["match", "start", "Rovers"])
        #expect(started.status == 0, "\(started.standardError)")
        let id = started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let listed = await home.cli(["activity", "list"])
        #expect(listed.standardOutput.contains(id) && listed.standardOutput.contains("MatchAttributes  active"), "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("0 – 0 | Period 1"), "\(listed.standardOutput)")

        let feed = try RunningProcess(Fixtures.widgetsExecutable, ["watch", id, "--format", "waybar"], environment: home.environment)
        defer { if feed.process.isRunning { _ = feed.terminate() } }
        #expect(await blocking { feed.waitForLine { $0.contains(#" 0–0","tooltip":"MatchAttributes: Us 0 · Rovers 0 · Period 1""#) } }, "\(feed.output)")
        #expect(await home.gameApp(["match", "score", "2", "1", "3"]).status == 0)
        #expect(await blocking { feed.waitForLine { $0.contains(#" 2–1","tooltip":"MatchAttributes: Us 2 · Rovers 1 · Period 3""#) } }, "\(feed.output)")

        // The shell: a state the bundle cannot read is refused, naming the field; an unknown action is a usage error.
        let bad = await home.cli(["activity", "update", id, "--state", #"{"ours":1}"#])
        #expect(bad.status == 1)
        #expect(bad.standardError.contains(#"did not decode: no value for "theirs""#), "\(bad.standardError)")
        let usage = await home.cli(["activity", "stop", id])
        #expect(usage.status == 2)
        #expect(usage.standardError.hasPrefix("widgets: unknown action 'stop'"), "\(usage.standardError)")

        // A tap on it opens its widgetURL (the island's, its Lock Screen view having none) in the game's app.
        let tap = await home.cli(["tap", id])
        #expect(tap.standardOutput.contains("mygame://status"), "\(tap.standardOutput) \(tap.standardError)")

        let ended = await home.gameApp(["match", "end"])
        #expect(ended.standardOutput == "\(id): ended\n", "\(ended.standardOutput) \(ended.standardError)")
        #expect(await blocking { feed.waitForLine { $0.contains(#""class":["ended"]"#) } }, "\(feed.output)")
        let gone = await home.cli(["activity", "end", id, "--dismissal", "immediate"])
        #expect(gone.standardOutput == "\(id): dismissed\n", "\(gone.standardOutput) \(gone.standardError)")
        #expect(await blocking { feed.waitForLine { $0.contains(#""class":["removed"]"#) } }, "\(feed.output)")
        #expect(await home.cli(["activity", "list"]).standardOutput == "no activities\n")
    }
}

extension LiveActivityTests {
    /// A Live Activity is a desktop notification while it runs: sent when it starts, replaced in
    /// place as it is updated (`replaces_id`), closed when it ends, through a notification server
    /// on the test's own session bus.
    @Test(.enabled(if: NotificationServer.unavailable == nil, "\(NotificationServer.unavailable ?? "")"))
    func theMatchIsANotificationReplacedAsItChangesAndClosedWhenItEnds() async throws {
        let server = try NotificationServer()
        defer { server.stop() }
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        let home = HostHome()
        let host = try home.host(plugins: plugins, extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": server.address])
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: hosting") } }, "\(host.output)")

        let started = await home.gameApp(["match", "start", "Rovers"])
        #expect(started.status == 0, "\(started.standardError)")
        #expect(try await eventually(within: 30) { server.calls.count >= 1 }, "\(host.output)")
        let first = try #require(server.calls.first)
        #expect(first["call"] as? String == "Notify")
        #expect(first["app"] as? String == "widgets")
        #expect(first["replaces"] as? Int == 0)
        #expect((first["summary"] as? String)?.contains("vs Rovers") == true, "\(first)")
        #expect((first["body"] as? String)?.contains("0–0") == true, "the island's compact text: \(first)")
        #expect((first["hints"] as? [String: String])?["x-widgets-activity"] == started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))

        #expect(await home.gameApp(["match", "score", "3", "2", "4"]).status == 0)
        #expect(try await eventually(within: 30) { server.calls.count >= 2 })
        let second = server.calls[1]
        #expect(second["replaces"] as? Int == first["id"] as? Int, "replaced in place: \(second)")
        #expect((second["body"] as? String)?.contains("Period 4") == true, "\(second)")

        #expect(await home.gameApp(["match", "end"]).status == 0)
        #expect(try await eventually(within: 30) { server.calls.count >= 3 })
        #expect(server.calls[2]["call"] as? String == "CloseNotification")
        #expect(server.calls[2]["id"] as? Int == first["id"] as? Int)
        #expect(!host.output.contains("not shown as notifications"), "\(host.output)")

        // A host that stops takes the notifications of its running activities with it.
        let again = await home.gameApp(["match", "start", "United"])
        #expect(again.status == 0)
        #expect(try await eventually(within: 30) { server.calls.count >= 4 })
        let fourth = server.calls[3]
        #expect(await blocking { host.terminate() } == 0)
        #expect(try await eventually(within: 30) { server.calls.count >= 5 })
        #expect(server.calls[4]["call"] as? String == "CloseNotification")
        #expect(server.calls[4]["id"] as? Int == fourth["id"] as? Int)
    }

    /// With no notification server on the bus, the host says so once and goes on.
    @Test func withNoNotificationServerTheHostSaysSoOnce() async throws {
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        let home = HostHome()
        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: hosting") } }, "\(host.output)")
        #expect(await home.gameApp(["match", "start", "Rovers"]).status == 0)
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: warning: Live Activities are not shown as notifications: ") } }, "\(host.output)")
        #expect(await home.gameApp(["match", "score", "1", "0", "1"]).status == 0)
        #expect(await home.cli(["activity", "list"]).standardOutput.contains("1 – 0"))
        #expect(host.output.components(separatedBy: "not shown as notifications").count == 2, "said once: \(host.output)")
    }
}
