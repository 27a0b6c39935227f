import Foundation
import Testing
import WidgetTestSupport
import WidgetABI
import WidgetSupport
import WidgetTimelines
import WidgetHost
import WidgetWire

/// `widgets run` end to end: the real CLI hosting a real bundle, apps and the shell on its socket.
@Suite struct HostRunTests {
    @Test func theHostRunsInstancesAndTheGameAppReloadsThemThroughWidgetCenter() async throws {
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        let home = HostHome()
        let (state, runtime) = (home.state, home.runtime)

        // With no host running, the app saves and says its widgets update later.
        let reset = await home.gameApp(["reset"])
        #expect(reset.status == 0)
        #expect(reset.standardError.contains("widgets show this at their next reload (no widget host is running"))
        let none = await home.cli(["reload"])
        #expect(none.status == 1)
        #expect(none.standardError == "widgets: error: no widget host is running (nothing listens on \(runtime.path)/widgets/control.sock); start one with 'widgets run'\n")

        let add = await home.cli(["--plugins", plugins.path, "add", "com.mygame.game-status", "--state-dir", state.path])
        #expect(add.standardOutput == "game-status-1\n")

        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.contains("game-status-1: Game Status | Your party is resting at the inn") } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: hosting 1 instance(s)") } }, "\(host.output)")
        // The host runs as widgets-worker, whose runtime's pages the zygote and the workers share.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(host.process.processIdentifier)/exe")
        #expect(executable.hasSuffix("/widgets-worker"), "\(executable)")

        // The socket is the owner's alone.
        var status = stat()
        #expect(stat("\(runtime.path)/widgets/control.sock", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(stat("\(runtime.path)/widgets", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)

        let configurations = await home.cli(["configurations", "--json"])
        #expect(configurations.standardOutput == #"[{"id":"game-status-1","kind":"com.mygame.game-status","family":"systemSmall","configuration":{}}]"# + "\n")
        let unknown = await home.cli(["reload", "com.nobody.nothing"])
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "widgets: error: no widget of kind \"com.nobody.nothing\" is loaded and no instance has that kind\n")

        // The app changes the game and calls WidgetCenter: the host shows it at once.
        let app = await home.gameApp(["status", "Boss fight!"])
        #expect(app.status == 0)
        #expect(app.standardError == "")
        #expect(await blocking { host.waitForLine { $0.contains("game-status-1: Game Status | Boss fight!") } }, "\(host.output)")

        // An instance added while it runs is hosted at once; one removed goes.
        let second = await home.cli(["--plugins", plugins.path, "add", "com.mygame.game-status", "--family", "systemMedium", "--state-dir", state.path])
        #expect(second.standardOutput == "game-status-2\n")
        #expect(await blocking { host.waitForLine { $0.contains("game-status-2: Game Status | Boss fight!") } }, "\(host.output)")
        #expect(await home.cli(["remove", "game-status-2", "--state-dir", state.path]).status == 0)
        let after = await home.cli(["configurations"])
        #expect(!after.standardOutput.contains("game-status-2"))

        #expect(await blocking { host.terminate() } == 0)
        #expect(host.output.hasSuffix("widgets: stopped (SIGTERM)\n"))
        #expect(access("\(runtime.path)/widgets/control.sock", F_OK) != 0, "the socket is removed on exit")
    }
}

extension HostRunTests {
    /// Bundles installed, removed, half-written and replaced while the host runs (inotify).
    @Test func bundlesDroppedInWhileTheHostRunsAreTakenUp() async throws {
        let source = Fixtures.directory(["libGameWidgets.so"])
        let plugins = Fixtures.temporaryDirectory("plugins")
        let home = HostHome()
        let added = await home.cli(["--plugins", source.path, "add", "com.mygame.game-status", "--state-dir", home.state.path])
        #expect(added.status == 0)

        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.hasSuffix("game-status-1: bundle missing (its configuration is kept)") } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: hosting 1 instance(s) (1 of them of kinds no loaded bundle provides, kept until one does: com.mygame.game-status) of 0 widget(s)") } }, "\(host.output)")

        // Installed the safe way: written under a hidden name, renamed into place.
        let bundle = plugins.appendingPathComponent("libGameWidgets.so").path
        try FileManager.default.copyItem(atPath: source.appendingPathComponent("libGameWidgets.so").path, toPath: plugins.appendingPathComponent(".libGameWidgets.so.tmp").path)
        #expect(rename(plugins.appendingPathComponent(".libGameWidgets.so.tmp").path, bundle) == 0)
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: loaded \(bundle): com.mygame.game-status") } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.contains("game-status-1: Game Status | Your party is resting at the inn") } }, "\(host.output)")

        // Removed: the instance stays, marked, with its configuration.
        #expect(unlink(bundle) == 0)
        #expect(await blocking { host.waitForLine { $0 == "widgets: \(bundle) was removed; its widgets are gone until it is back: com.mygame.game-status, com.mygame.leaderboard, com.mygame.character-detail, com.mygame.character-detail-sirikit" } }, "\(host.output)")
        // Status lines come from the engine's queue: the "missing" may follow the log line. (The
        // bundle may have been loaded twice on its way in, the watch's first rescan and its event
        // racing, each marking it missing meanwhile: what counts is a "missing" after the removal.)
        #expect(await blocking {
            host.waitForOutput { output in
                guard let removal = output.range(of: "was removed; its widgets are gone until it is back") else { return false }
                return output[removal.upperBound...].contains("game-status-1: bundle missing (its configuration is kept)")
            }
        }, "\(host.output)")
        let configurations = await home.cli(["configurations"])
        #expect(configurations.standardOutput.contains("game-status-1"))

        // Half a file, as an interrupted copy leaves it: one clear line, and the host goes on.
        let half = plugins.appendingPathComponent("libHalf.so").path
        let whole = try Data(contentsOf: source.appendingPathComponent("libGameWidgets.so"))
        try whole.prefix(5000).write(to: URL(fileURLWithPath: half))
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: error: \(half): truncated: 5000 bytes, but its ELF header describes") } }, "\(host.output)")

        // Back, then replaced in place: reloaded by a new worker, the instance reloads.
        try whole.write(to: URL(fileURLWithPath: bundle))
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: loaded \(bundle)") } }, "\(host.output)")
        try FileManager.default.copyItem(atPath: source.appendingPathComponent("libGameWidgets.so").path, toPath: plugins.appendingPathComponent(".next.tmp").path)
        #expect(rename(plugins.appendingPathComponent(".next.tmp").path, bundle) == 0)
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: reloaded \(bundle): com.mygame.game-status") } }, "\(host.output)")
        // Shown again after coming back and after the replacement, never with a failure: what the old
        // bundle was asked is dropped, not reported.
        #expect(await blocking {
            host.waitForOutput { $0.split(separator: "\n").filter { $0.contains("game-status-1: Game Status | Your party is resting at the inn") && !$0.contains("[next") }.count >= 2 }
        }, "\(host.output)")
        #expect(!host.output.contains("[last reload failed"), "\(host.output)")
        #expect(await blocking { host.terminate() } == 0)
    }
}


/// What an engine reported, and a wait for a report: the provider answers on its own queue, so a
/// test waits for the engine to say so rather than looking again and again.
final class StatusLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var statuses: [InstanceStatus] = []

    func record(_ id: String, _ status: InstanceStatus) {
        condition.withLock {
            statuses.append(status)
            condition.broadcast()
        }
    }

    /// Blocks until a report satisfies `holds`; false after 60 s of real time (a broken test fails).
    func wait(_ holds: (InstanceStatus) -> Bool) -> Bool {
        let giveUp = Date().addingTimeInterval(60)
        condition.lock()
        defer { condition.unlock() }
        while !statuses.contains(where: holds) {
            if !condition.wait(until: giveUp) { return false }
        }
        return true
    }
}

/// Bundle changes applied to a host running in queue isolation, where an image cannot be unloaded.
@Suite struct QueueModeBundleChangeTests {
    @Test func aBundleReplacedInQueueIsolationIsRefusedWithTheReasonAndItsInstancesWait() throws {
        let plugins = Fixtures.directory(["good"])
        let path = plugins.appendingPathComponent("good.so").path
        let registry = WidgetRegistry.load(searchPath: [plugins.path], clock: ManualClock(), isolation: .queue)
        let store = InstanceStore(directory: Fixtures.temporaryDirectory("state"))
        _ = try store.update { (list) throws(StateError) in try list.add(kind: "fixture.good", family: .systemSmall, configuration: JSONObject()) }
        let daemon = WidgetDaemon(registry: registry, store: store)
        try daemon.start(socketPath: nil)
        let lines = LockedList<String>()
        daemon.apply([.written(path)]) { lines.append($0) }
        #expect(lines.values == [
            "error: \(path): replaced while the host runs in queue isolation, where a loaded image cannot be unloaded; restart the host to load the new file"
        ])
        #expect(daemon.engine.status(id: "good-1")?.phase == .bundleMissing)
        #expect(registry.widget(kind: "fixture.good") == nil)
        // A removal of a file never loaded changes nothing.
        daemon.apply([.removed(plugins.appendingPathComponent("other.so").path)]) { lines.append($0) }
        #expect(lines.values.count == 1)
    }

    @Test func whatChangedBetweenLoadingAndWatchingIsTakenUpWhenTheWatchesAreSet() throws {
        let plugins = Fixtures.directory(["good", "abi-major-2"])
        let registry = WidgetRegistry.load(searchPath: [plugins.path], clock: ManualClock(), isolation: .queue)
        #expect(registry.problems.count == 1, "abi-major-2 is refused at load")
        let daemon = WidgetDaemon(registry: registry, store: InstanceStore(directory: Fixtures.temporaryDirectory("state")))
        try daemon.start(socketPath: nil)
        // Meanwhile: one bundle added, one removed.
        try FileManager.default.copyItem(atPath: Fixtures.path("named-by-file"), toPath: plugins.appendingPathComponent("late.so").path)
        #expect(unlink(plugins.appendingPathComponent("good.so").path) == 0)
        let lines = LockedList<String>()
        try daemon.watch(directories: [plugins.path]) { lines.append($0) }
        defer { daemon.stop() }
        #expect(lines.values == [
            "\(plugins.path)/good.so was removed; its widgets are gone until it is back: fixture.good",
            "loaded \(plugins.path)/late.so: fixture.late",
        ], "the refused file is not retried until it is written again")
    }

    /// An ancestor made on the way, removed, and made again with the bundle directory in it: the
    /// watch on the removed one is replaced by one on the nearest left, and the bundle is loaded.
    @Test func anAncestorRemovedAndMadeAgainIsWaitedForAfresh() async throws {
        let home = HostHome()
        let parent = home.data.appendingPathComponent("widgets")
        let plugins = parent.appendingPathComponent("widgets.d")
        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: hosting 0 instance(s)") } }, "\(host.output)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
        try FileManager.default.removeItem(at: parent)
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        #expect(await blocking { host.waitForLine { $0 == "widgets: \(plugins.path) was made; watching it for bundles" } }, "\(host.output)")
        let good = plugins.appendingPathComponent("good.so").path
        try FileManager.default.copyItem(atPath: Fixtures.path("good"), toPath: good)
        #expect(await blocking { host.waitForLine { $0 == "widgets: loaded \(good): fixture.good" } }, "\(host.output)")
        #expect(await blocking { host.terminate() } == 0)
    }

    /// `widgets watch ID --format waybar` lives as long as the bar: each change printed once, a line
    /// of class "missing" while the host is away, and the widget again when it is back.
    @Test func theBarFeedOutlivesAHostRestart() async throws {
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        let home = HostHome()
        #expect(await home.gameApp(["reset"]).status == 0)
        #expect(await home.cli(["--plugins", plugins.path, "add", "com.mygame.game-status", "--state-dir", home.state.path]).status == 0)
        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.contains("game-status-1: Game Status") } }, "\(host.output)")
        let feed = try RunningProcess(Fixtures.widgetsExecutable, ["watch", "game-status-1", "--format", "waybar"], environment: home.environment)
        defer { if feed.process.isRunning { _ = feed.terminate() } }
        #expect(await blocking { feed.waitForLine { $0.contains(#""text":"Game Status""#) } }, "\(feed.output)")
        #expect(await home.gameApp(["status", "Boss fight & <loot>"]).status == 0)
        #expect(await blocking { feed.waitForLine { $0.contains("Boss fight &amp; &lt;loot&gt;") } }, "\(feed.output)")

        #expect(await blocking { host.terminate() } == 0)
        #expect(await blocking { feed.waitForLine { $0.contains(#""class":["missing"]"#) && $0.contains("the widget host is not running") } }, "\(feed.output)")
        #expect(feed.process.isRunning, "the feed waits for the host")
        let again = try home.host(plugins: plugins)
        defer { if again.process.isRunning { _ = again.terminate() } }
        #expect(await blocking { feed.waitForOutput { $0.hasSuffix(#""class":[]}"# + "\n") } }, "followed again: \(feed.output)")
        let lines = feed.output.split(separator: "\n")
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0 != $1 }, "each change once: \(feed.output)")
        #expect(lines.filter { $0.contains("the widget host is not running") }.count == 1, "\(feed.output)")
    }

    /// The dashboard follows the home screen's order: the daemon tells who listens of each new
    /// order of its instances (a reorder, not an unchanged list).
    @Test func aNewOrderOfTheInstancesIsTold() throws {
        let store = InstanceStore(directory: Fixtures.temporaryDirectory("state"))
        _ = try store.update { (list) throws(StateError) in
            for _ in 0..<3 { _ = try list.add(kind: "fixture.good", family: .systemSmall, configuration: JSONObject()) }
        }
        let daemon = WidgetDaemon(registry: WidgetRegistry(), store: store)
        try daemon.start(socketPath: nil)
        defer { daemon.stop() }
        let orders = LockedList<[String]>()
        daemon.onReorder { orders.append($0) }
        try daemon.synchronize()
        #expect(orders.values.isEmpty, "nothing moved")
        _ = try store.update { (list) throws(StateError) in try list.order(["good-3", "good-1", "good-2"]) }
        try daemon.synchronize()
        #expect(orders.values == [["good-3", "good-1", "good-2"]])
    }

    @Test func aDirectoryThatCannotBeWatchedIsReportedByName() throws {
        let daemon = WidgetDaemon(registry: WidgetRegistry(), store: InstanceStore(directory: Fixtures.temporaryDirectory("state")))
        let file = Fixtures.temporaryDirectory("plugins").appendingPathComponent("a-file")
        try Data().write(to: file)
        let underAFile = file.appendingPathComponent("widgets.d").path
        let lines = LockedList<String>()
        try daemon.watch(directories: [underAFile]) { lines.append($0) }
        defer { daemon.stop() }
        #expect(lines.values == [
            "warning: cannot watch \(underAFile): Not a directory; bundles installed there are taken up on SIGHUP or when the host restarts"
        ])
    }

    /// A user's own bundle directory, not there when the host starts (a fresh home), is waited for
    /// through its nearest existing ancestor: made two levels at a time, or as a symbolic link to a
    /// directory elsewhere, a bundle put in it is loaded with no restart.
    @Test(arguments: [false, true])
    func aBundleDirectoryMadeAfterTheHostStartedIsTakenUp(asLink: Bool) async throws {
        let home = HostHome()
        let plugins = home.data.appendingPathComponent("widgets/widgets.d")
        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0 == "widgets: \(plugins.path) does not exist yet; bundles put there are loaded once it is made" } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: hosting 0 instance(s)") } }, "\(host.output)")
        if asLink {
            let elsewhere = Fixtures.temporaryDirectory("elsewhere")
            try FileManager.default.createDirectory(at: plugins.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: plugins, withDestinationURL: elsewhere)
        } else {
            try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        }
        #expect(await blocking { host.waitForLine { $0 == "widgets: \(plugins.path) was made; watching it for bundles" } }, "\(host.output)")
        let good = plugins.appendingPathComponent("good.so").path
        try FileManager.default.copyItem(atPath: Fixtures.path("good"), toPath: good)
        #expect(await blocking { host.waitForLine { $0 == "widgets: loaded \(good): fixture.good" } }, "\(host.output)")
        #expect(await blocking { host.terminate() } == 0)
    }

    @Test func bundlesOlderThanTapsAreNotSentThem() async throws {
        let plugins = Fixtures.directory(["abi-1-0"])
        let registry = WidgetRegistry.load(searchPath: [plugins.path], isolation: .queue)
        await #expect(throws: RequestError.self) { try await registry.request(.openURL, kind: "fixture.older", parameter: "x://y") }
        do {
            _ = try await registry.request(.performIntent, kind: "fixture.older", parameter: "{}")
            Issue.record("a 1.0 bundle must not be sent an intent")
        } catch {
            #expect(error.reason == .refused)
            #expect(error.description.hasSuffix("was built for ABI 1.0, older than performIntent requests (ABI 1.3): it cannot be sent one"))
        }
    }
}

extension HostRunTests {
    /// A bundle slow to load holds neither the host's start nor its socket up: its instance waits
    /// as loading, and shows once the bundle joins.
    @Test func aBundleSlowToLoadJoinsTheRunningHostWhenItLoads() async throws {
        let plugins = Fixtures.directory(["a-slow.so": "slow", "good.so": "good"])
        let release = plugins.appendingPathComponent("a-slow.release").path
        let home = HostHome()
        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        let added = await home.cli(["--plugins", plugins.path, "add", "fixture.a-slow", "--state-dir", home.state.path])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(unlink(release) == 0)

        // The load deadline is real time in a host of its own: long enough that a loaded machine
        // cannot pass it before the test releases the bundle.
        let host = try home.host(plugins: plugins, extraEnvironment: ["WIDGETS_LOAD_DEADLINE": "600"])
        defer { if host.process.isRunning { _ = host.terminate() } }
        let slow = plugins.appendingPathComponent("a-slow.so").path
        #expect(await blocking { host.waitForLine { $0 == "widgets: still loading, joining when loaded: \(slow)" } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.hasSuffix("a-slow-1: loading") } }, "\(host.output)")
        // The socket answers meanwhile.
        let configurations = await home.cli(["configurations"])
        #expect(configurations.status == 0)
        #expect(configurations.standardOutput.contains("a-slow-1"))
        #expect(!host.output.contains("a-slow-1: bundle missing"), "\(host.output)")

        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        #expect(await blocking { host.waitForLine { $0 == "widgets: loaded \(slow), which was still loading when the host started: fixture.a-slow" } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.contains("a-slow-1: fixture.a-slow | timeline") } }, "\(host.output)")
        #expect(await blocking { host.terminate() } == 0)
    }

    /// A bundle directory moved away and back is said gone once, and watched again when back: a
    /// bundle put there then is taken up.
    @Test func aDirectoryMovedAwayAndBackIsWatchedAgain() async throws {
        let parent = Fixtures.temporaryDirectory("parent")
        let plugins = parent.appendingPathComponent("widgets.d")
        let aside = parent.appendingPathComponent("aside")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: false)
        let home = HostHome()
        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: hosting 0 instance(s)") } }, "\(host.output)")
        #expect(rename(plugins.path, aside.path) == 0)
        #expect(await blocking { host.waitForLine { $0.contains("\(plugins.path) was removed or moved; its bundles keep running, and it is watched again once it is back") } }, "\(host.output)")
        #expect(rename(aside.path, plugins.path) == 0)
        #expect(await blocking { host.waitForLine { $0 == "widgets: \(plugins.path) is back; watching it again" } }, "\(host.output)")
        let good = plugins.appendingPathComponent("good.so").path
        try FileManager.default.copyItem(atPath: Fixtures.path("good"), toPath: good)
        #expect(await blocking { host.waitForLine { $0 == "widgets: loaded \(good): fixture.good" } }, "\(host.output)")
        #expect(host.output.components(separatedBy: "was removed or moved").count == 2, "said once: \(host.output)")
        #expect(await blocking { host.terminate() } == 0)
    }
}

extension HostRunTests {
    /// The state file set aside as corrupt while the host runs: the host writes back the instances
    /// it runs, and the next instance added gets an id none had.
    @Test func aStateFileSetAsideWhileTheHostRunsIsWrittenBackByTheHost() async throws {
        let plugins = Fixtures.directory(["good"])
        let home = HostHome()
        func cli(_ arguments: [String]) async -> ProcessResult { await home.cli(["--plugins", plugins.path] + arguments + ["--state-dir", home.state.path]) }
        #expect((await cli(["add", "fixture.good"])).standardOutput == "good-1\n")
        #expect((await cli(["add", "fixture.good"])).standardOutput == "good-2\n")
        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: hosting 2 instance(s)") } }, "\(host.output)")

        let stateFile = home.state.appendingPathComponent("instances.json")
        try Data("{\"version\": 1, \"instances\": [".utf8).write(to: stateFile)
        let refused = await cli(["add", "fixture.good"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("is corrupt"))
        #expect(await blocking { host.waitForLine { $0.contains("the 2 instance(s) it runs were written back: good-1, good-2") } }, "\(host.output)")
        let instances = await cli(["instances"])
        #expect(instances.standardOutput.contains("good-1") && instances.standardOutput.contains("good-2"), "\(instances.standardOutput)")
        #expect((await cli(["add", "fixture.good"])).standardOutput == "good-3\n")

        // Deleted outright and started afresh by another command: written back all the same.
        #expect(unlink(stateFile.path) == 0)
        #expect((await cli(["add", "fixture.good"])).standardOutput == "good-4\n")
        #expect(await blocking { host.waitForLine { $0.contains("the instance state was started afresh while this host ran (its file set aside as corrupt, or deleted); the 3 instance(s) it runs were written back: good-1, good-2, good-3") } }, "\(host.output)")
        let after = await cli(["instances"])
        for id in ["good-1", "good-2", "good-3", "good-4"] { #expect(after.standardOutput.contains(id), "\(id): \(after.standardOutput)") }

        // Found corrupt by the host itself: kept aside by it, and written back.
        try Data("not json".utf8).write(to: stateFile)
        let client = try ControlClient(path: home.runtime.path + "/widgets/control.sock")
        let answer = try client.send(.object(JSONObject([("request", .string("sync"))])))
        #expect(answer["ok"]?.boolValue == true, "\(answer)")
        #expect(await blocking { host.waitForLine { $0.contains("the instance state was corrupt; it was kept as \(stateFile.path).corrupt-") && $0.hasSuffix("and the 4 instance(s) this host runs were written back: good-1, good-2, good-3, good-4") } }, "\(host.output)")
        #expect(await blocking { host.terminate() } == 0)
    }
}
