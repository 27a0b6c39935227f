import Foundation
import Testing
import WidgetTestSupport

/// `widgets home`: the running host's home screen, opened, printed, or as a window of its own.
@Suite struct HomeCommandTests {
    @Test func theHomeScreenOpensAsAWindowOfItsOwn() async throws {
        let game = GameDesktopHome()
        let home = game.home
        #expect(await game.cli(["add", "com.mygame.game-status", "--state-dir", home.state.path]).status == 0)
        let host = try RunningProcess(
            Fixtures.widgetsExecutable, ["--plugins", game.plugins.path, "run", "--state-dir", home.state.path, "--web"], environment: home.environment)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.contains("home screen: http://") } }, "\(host.output)")
        let printed = await home.cli(["home", "--print"])
        let url = printed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("http://127.0.0.1:") && url.contains("#token="), "\(printed.standardError)")
        #expect(await home.cli(["home", "--app", "--print"]).standardOutput == printed.standardOutput, "--print wins")

        // The browser is given the page as an app (--app=URL), and stays.
        let given = Fixtures.temporaryDirectory("browser").appendingPathComponent("given")
        let browser = Fixtures.temporaryDirectory("browser").appendingPathComponent("chromium")
        try writeExecutable("#!/bin/sh\necho \"$@\" > '\(given.path)'\n", to: browser)
        func homeCommand(_ arguments: [String], _ environment: [String: String]) async -> ProcessResult {
            await widgets(arguments, dataHome: home.data, extraEnvironment: ["XDG_RUNTIME_DIR": home.runtime.path].merging(environment) { $1 })
        }
        let opened = await homeCommand(["home", "--app"], ["PATH": browser.deletingLastPathComponent().path])
        #expect(opened.status == 0, "\(opened.standardError)")
        #expect(opened.standardOutput == "opened \(url) in a window of its own (chromium)\n")
        #expect((try? String(contentsOf: given, encoding: .utf8)) == "--app=\(url)\n")

        // No such browser: said, with the package to install and where the page is.
        let none = await homeCommand(["home", "--app"], ["PATH": Fixtures.temporaryDirectory("empty").path])
        #expect(none.status == 1)
        #expect(none.standardError.contains("no browser that shows a page as a window of its own (chromium, "), "\(none.standardError)")
        #expect(none.standardError.contains("Debian's chromium is one; $WIDGETS_APP_BROWSER names another); the home screen is at \(url)"), "\(none.standardError)")
        // One that fails at once: its words.
        try writeExecutable("#!/bin/sh\necho 'no display' >&2\nexit 3\n", to: browser)
        // $WIDGETS_APP_BROWSER by name, looked up on PATH as a shell would.
        let failed = await homeCommand(["home", "--app"], ["WIDGETS_APP_BROWSER": "chromium", "PATH": browser.deletingLastPathComponent().path])
        #expect(failed.status == 1)
        #expect(failed.standardError.contains("chromium could not show the page (status 3): no display"), "\(failed.standardError)")
    }
}
