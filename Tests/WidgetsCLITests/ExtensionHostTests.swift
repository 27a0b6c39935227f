import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

/// A built extension in a running host, beside the game sample: its taps go where iOS sends them
/// (its own URL schemes to its own handler, other URLs to the desktop), and an app's WidgetCenter
/// reloads reach that app's widgets only.
@Suite(.serialized) struct ExtensionHostTests {
    /// The fixture and the game sample in one bundle directory, and a recorder standing in for xdg-open.
    static func setUp() async throws -> (plugins: URL, opener: URL, opened: URL) {
        let plugins = try await ExtensionBuildTests.built.value.get().plugins
        let directory = Fixtures.directory(["libGameWidgets.so"])
        try FileManager.default.copyItem(at: plugins.appendingPathComponent("Forecast.widgetbundle"), to: directory.appendingPathComponent("Forecast.widgetbundle"))
        let tools = Fixtures.temporaryDirectory("opener")
        let opened = tools.appendingPathComponent("opened.txt")
        let opener = tools.appendingPathComponent("record-url")
        try writeExecutable("#!/bin/sh\nprintf '%s\\n' \"$1\" >> \(opened.path)\n", to: opener)
        return (directory, opener, opened)
    }

    @Test func linksGoToTheBundleThatClaimsTheirSchemeAndOthersToTheDesktop() async throws {
        let (plugins, opener, opened) = try await Self.setUp()
        let home = HostHome()
        let environment = ["WIDGETS_URL_OPENER": opener.path]
        func cli(_ arguments: [String]) async -> ProcessResult {
            await widgets(["--plugins", plugins.path] + arguments + [], dataHome: home.data, extraEnvironment: ["XDG_RUNTIME_DIR": home.runtime.path, "WIDGETS_URL_OPENER": opener.path])
        }
        let add = await cli(["add", "fixture.forecast", "--family", "systemMedium", "--state-dir", home.state.path])
        #expect(add.status == 0, "\(add.standardError)")
        let id = add.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let host = try home.host(plugins: plugins, extraEnvironment: environment)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.contains("\(id): Forecast") } }, "\(host.output)")

        // Its widgetURL is of the scheme its Info.plist claims (CFBundleURLTypes): its view's .onOpenURL has it.
        let tap = await cli(["tap", id])
        #expect(tap.standardOutput == "opened forecast://city/lisbon with Forecast.widgetbundle\n", "\(tap.standardError)")
        let noted = home.data.appendingPathComponent("widgets/groups/group.org.example.forecast/opened")
        #expect((try? String(contentsOf: noted, encoding: .utf8)) == "forecast://city/lisbon")

        // Its Link to the web no bundle claims: the desktop opens it.
        let link = await cli(["tap", id, "--link", "1"])
        #expect(link.standardOutput == "opened https://example.org/forecast with the desktop (record-url)\n", "\(link.standardError)")
        let open = await cli(["open", "https://example.org/other"])
        #expect(open.status == 0, "\(open.standardError)")
        #expect((try? String(contentsOf: opened, encoding: .utf8)) == "https://example.org/forecast\nhttps://example.org/other\n")
        let file = await cli(["open", "file:///etc/passwd"])
        #expect(file.status == 1)
        #expect(file.standardError.contains("file: URLs are not opened from a widget"), "\(file.standardError)")
    }

    @Test func anAppsReloadReachesItsOwnWidgetsOnly() async throws {
        let (plugins, _, _) = try await Self.setUp()
        let home = HostHome()
        func cli(_ arguments: [String]) async -> ProcessResult {
            await widgets(["--plugins", plugins.path] + arguments, dataHome: home.data, extraEnvironment: ["XDG_RUNTIME_DIR": home.runtime.path])
        }
        _ = await home.gameApp(["reset"])
        let forecast = await cli(["add", "fixture.forecast", "--state-dir", home.state.path])
        let game = await cli(["add", "com.mygame.game-status", "--state-dir", home.state.path])
        #expect(forecast.status == 0 && game.status == 0, "\(forecast.standardError)\(game.standardError)")
        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.contains("timelines: 1") } }, "\(host.output)")

        // The game app shares the game's app group: its reloadAllTimelines() reaches the game's widget only.
        #expect(await home.gameApp(["status", "Quest accepted"]).status == 0)
        #expect(await blocking { host.waitForLine { $0.contains("Quest accepted") } }, "\(host.output)")
        let counter = home.data.appendingPathComponent("widgets/groups/group.org.example.forecast/timelines")
        #expect((try? String(contentsOf: counter, encoding: .utf8)) == "1", "the forecast, another vendor's, did not reload")

        // The shell's reload (as a foreground app's, outside the budget) is every widget's.
        #expect(await cli(["reload", "--foreground"]).status == 0)
        #expect(await blocking { host.waitForLine { $0.contains("timelines: 2") } }, "\(host.output)")
    }
}

extension ExtensionHostTests {
    /// `widgets build --watch` with a host running on its output: a save builds again, the build is
    /// renamed into place, and the host swaps the new bundle in and shows its entry, without a restart.
    @Test(.timeLimit(.minutes(5))) func aSaveUnderWatchReachesTheRunningHost() async throws {
        let copy = try ExtensionBuildTests.copy()
        let home = HostHome()
        let out = Fixtures.temporaryDirectory("watched-bundles")
        var environment = home.environment
        environment["XDG_CACHE_HOME"] = home.cache.path
        environment["NO_COLOR"] = "1"
        let first = await runProcess(Fixtures.widgetsExecutable, ["build", copy.path, "--out", out.path], environment: environment)
        #expect(first.status == 0, "\(first.standardError)")
        let add = await home.cli(["--plugins", out.path, "add", "fixture.forecast", "--family", "systemMedium", "--state-dir", home.state.path])
        #expect(add.status == 0, "\(add.standardError)")
        let id = add.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let host = try home.host(plugins: out)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.contains("\(id): Forecast") && $0.contains("1 sunny day") } }, "\(host.output)")

        let watch = try RunningProcess(Fixtures.widgetsExecutable, ["build", copy.path, "--out", out.path, "--watch"], environment: environment)
        defer { if watch.process.isRunning { _ = watch.terminate() } }
        #expect(await blocking { watch.waitForLine { $0.hasPrefix("widgets: watching") } }, "\(watch.output)")
        #expect(watch.output.contains("(up to date,"), "\(watch.output)")

        // An editor's save: written beside, renamed over.
        let source = copy.appendingPathComponent("ForecastWidget.swift")
        try String(contentsOf: source, encoding: .utf8).replacingOccurrences(of: "sunnyDays: 1,", with: "sunnyDays: 3,")
            .write(to: source, atomically: true, encoding: .utf8)
        #expect(await blocking { watch.waitForLine(limit: 120) { $0.contains("(compiled,") } }, "\(watch.output)")
        #expect(await blocking { host.waitForLine { $0.contains("\(id): Forecast") && $0.contains("3 sunny days") } }, "\(host.output)")
        #expect(host.process.isRunning, "the host swapped the bundle without restarting")

        // A save that does not compile leaves the running bundle as it was, and the watch goes on.
        try "let broken = \n".write(to: copy.appendingPathComponent("Broken.swift"), atomically: true, encoding: .utf8)
        #expect(await blocking { watch.waitForLine(limit: 120) { $0.contains("Broken.swift:1:") } }, "\(watch.output)")
        // Mended at once (a save while a build may still run is not lost): built again.
        try "let mended = 1\n".write(to: copy.appendingPathComponent("Broken.swift"), atomically: true, encoding: .utf8)
        #expect(await blocking { watch.waitForOutput(limit: 120) { $0.components(separatedBy: "(compiled,").count == 3 } }, "\(watch.output)")
        #expect(watch.process.isRunning && host.process.isRunning)
    }
}
