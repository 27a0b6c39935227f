import Foundation
import Glibc
import Testing
import WidgetHost
import WidgetTestSupport
import WidgetWire

/// The installed user service: the unit's own command line, started as systemd starts it (no
/// terminal, standard output the journal's stream), reloaded with SIGHUP and stopped with SIGTERM.
@Suite struct ServiceTests {
    static let unitTemplate = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("share/widgets.service.in")

    /// The unit's `ExecStart`, with the installed `widgets` replaced by the one under test.
    static func execStart() throws -> [String] {
        let unit = try String(contentsOf: unitTemplate, encoding: .utf8)
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        var words = line.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
        #expect(words.first == "@BINDIR@/widgets")
        words[0] = Fixtures.widgetsExecutable
        return words
    }

    @Test func theUnitsCommandRunsTheHostAsSystemdWouldWithPrioritiesReloadAndACleanStop() async throws {
        let unit = try String(contentsOf: Self.unitTemplate, encoding: .utf8)
        #expect(unit.contains("Restart=on-failure"))
        #expect(unit.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        let home = HostHome()
        let plugins = Fixtures.temporaryDirectory("plugins")
        let game = Fixtures.directory(["libGameWidgets.so"]).appendingPathComponent("libGameWidgets.so")
        try FileManager.default.copyItem(at: game, to: plugins.appendingPathComponent("libGameWidgets.so"))
        // A bundle refused at the start: a warning, with its priority.
        let refused = Fixtures.directory(["abi-major-2"]).appendingPathComponent("abi-major-2.so")
        try FileManager.default.copyItem(at: refused, to: plugins.appendingPathComponent("refused.so"))
        let store = InstanceStore(directory: home.state)
        _ = try store.update { (list) throws(StateError) in try list.add(kind: "com.mygame.leaderboard", family: .systemSmall, configuration: JSONObject()) }

        // systemd hands the service a stream to the journal as standard output, and names it.
        let journal = try ClosingPipe()
        var status = stat()
        #expect(fstat(journal.write, &status) == 0)
        var environment = home.environment
        environment["WIDGETS_PATH"] = plugins.path
        environment["XDG_STATE_HOME"] = home.state.deletingLastPathComponent().path
        environment["JOURNAL_STREAM"] = "\(status.st_dev):\(status.st_ino)"
        // The state directory the default finds is XDG_STATE_HOME/widgets.
        let stateHome = Fixtures.temporaryDirectory("state-home")
        environment["XDG_STATE_HOME"] = stateHome.path
        try FileManager.default.copyItem(at: home.state, to: stateHome.appendingPathComponent("widgets"))
        let command = try Self.execStart()
        let host = try RunningProcess(command[0], Array(command.dropFirst()), environment: environment, output: journal)
        defer { if host.process.isRunning { _ = host.terminate() } }

        #expect(await blocking { host.waitForLine { $0.hasPrefix("<6>widgets: hosting 1 instance(s)") } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.hasPrefix("<4>widgets: warning: ") && $0.contains("refused.so") } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.hasPrefix("<6>widgets: home screen: http://127.0.0.1:") } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.hasPrefix("<6>") && $0.contains("leaderboard-1: Leaderboard") } }, "\(host.output)")

        // What `widgets status` says of the running host.
        let statusOutput = await home.cli(["status"])
        #expect(statusOutput.status == 0, "\(statusOutput.standardError)")
        #expect(statusOutput.standardOutput.contains("leaderboard-1  com.mygame.leaderboard · systemSmall\n  shows: Leaderboard"), "\(statusOutput.standardOutput)")
        #expect(statusOutput.standardOutput.contains("  reloads in the last 24 h: "))
        let one = await home.cli(["status", "leaderboard-1", "--json"])
        let parsed = try JSONValue.parse(one.standardOutput)
        #expect(parsed.arrayValue?.first?["id"] == .string("leaderboard-1"))
        #expect(parsed.arrayValue?.first?["phase"] == .string("showing"))
        let typo = await home.cli(["status", "leaderbord-1"])
        #expect(typo.status == 1)
        #expect(typo.standardError.contains("(did you mean leaderboard-1?)"), "\(typo.standardError)")

        // `systemctl --user reload widgets`: an instance saved while no one told the host is taken
        // up, and the refused bundle is tried again.
        _ = try InstanceStore(directory: stateHome.appendingPathComponent("widgets")).update { (list) throws(StateError) in
            try list.add(kind: "com.mygame.game-status", family: .systemSmall, configuration: JSONObject())
        }
        kill(host.process.processIdentifier, SIGHUP)
        #expect(await blocking { host.waitForLine { $0 == "<6>widgets: SIGHUP: looking again at the bundle directories and the saved instances" } }, "\(host.output)")
        #expect(await blocking { host.waitForLine { $0.hasPrefix("<6>") && $0.contains("game-status-2: Game Status") } }, "\(host.output)")
        #expect(await blocking { host.waitForOutput { $0.components(separatedBy: "refused.so").count > 2 } }, "tried again: \(host.output)")
        // `widgets reload` of everything looks again too.
        #expect(await home.cli(["reload"]).status == 0)
        #expect(await blocking { host.waitForOutput { $0.components(separatedBy: "refused.so").count > 3 } }, "tried again on reload: \(host.output)")

        // `systemctl --user stop widgets`: SIGTERM; nothing is left behind.
        let socket = home.runtime.appendingPathComponent("widgets/control.sock").path
        #expect(FileManager.default.fileExists(atPath: socket))
        #expect(host.terminate() == 0)
        #expect(host.output.contains("<6>widgets: stopped (SIGTERM)"), "\(host.output)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the control socket is removed")
        #expect(try await eventually(within: 5) { Self.processes(mentioning: plugins.path) == 0 }, "no worker outlives the host")
    }

    /// Processes whose command line mentions `text` (a worker names its bundle's path).
    static func processes(mentioning text: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.filter { pid in
            // The arguments as the kernel keeps them, each ended by a NUL: `text`, a path, is within one.
            FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")?.contains(bytesOf: text) ?? false
        }.count
    }

    @Test func theInstalledBundlesAreOnTheDefaultSearchPathAfterTheUsersOwn() {
        #expect(BundleSearchPath.installedDirectory(executable: "/usr/local/bin/widgets") == "/usr/local/lib/widgets/widgets.d")
        #expect(BundleSearchPath.installedDirectory(executable: "/home/ada/.local/bin/widgets") == "/home/ada/.local/lib/widgets/widgets.d")
        #expect(BundleSearchPath.installedDirectory(executable: "/usr/local/lib/widgets/widgets-worker") == "/usr/local/lib/widgets/widgets.d")
        #expect(BundleSearchPath.installedDirectory(executable: "/src/widgets/.build/debug/widgets") == nil, "a checkout's build")
        #expect(BundleSearchPath.installedDirectory(executable: "/src/widgets/.build/debug/widgets-worker") == nil, "a checkout's build")
        let path = BundleSearchPath.resolve(
            environment: ["HOME": "/home/ada"], currentDirectory: "/", executable: "/home/ada/.local/bin/widgets")
        #expect(path == ["/home/ada/.local/share/widgets/widgets.d", "/home/ada/.local/lib/widgets/widgets.d"])
    }
}
