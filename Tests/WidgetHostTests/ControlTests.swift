import Foundation
import Testing
import WidgetHost
import WidgetTestSupport
import WidgetWire

/// Controls (iOS 18's ControlWidget) offered by the running host: the game sample's pause toggle and
/// heal button, listed, pressed from the shell, followed by a bar, as a person meets them.
@Suite struct ControlTests {
    @Test func theGamesControlsAreListedPressedAndFollowedByABar() async throws {
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        let home = HostHome()
        #expect(await home.gameApp(["reset"]).status == 0)
        let list = await home.cli(["--plugins", plugins.path, "list"])
        #expect(list.standardOutput.contains("  Controls: com.mygame.pause, com.mygame.heal-unipony ('widgets control')"), "\(list.standardOutput)")
        // Not widgets: not placed.
        let add = await home.cli(["--plugins", plugins.path, "add", "com.mygame.pause", "--state-dir", home.state.path])
        #expect(add.status == 1)

        // With no host, the command loads the bundle and presses it itself.
        let alone = await home.cli(["--plugins", plugins.path, "control", "com.mygame.pause", "--press"])
        #expect(alone.status == 0, "\(alone.standardError)")
        #expect(alone.standardOutput.contains("com.mygame.pause  toggle  Pause: ⏸ Paused"), "\(alone.standardOutput)")

        let host = try home.host(plugins: plugins)
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.hasPrefix("widgets: hosting") } }, "\(host.output)")
        let controls = await home.cli(["control", "--json"])
        let entries = try JSONValue.parse(Array(controls.standardOutput.utf8)).arrayValue ?? []
        #expect(entries.map { $0["kind"]?.stringValue } == ["com.mygame.pause", "com.mygame.heal-unipony"])
        #expect(entries.first?["control"]?["isOn"] == .bool(true), "the state the press left: \(controls.standardOutput)")
        #expect(entries.first?["name"] == .string("Pause the game"))

        let feed = try RunningProcess(Fixtures.widgetsExecutable, ["watch", "com.mygame.pause", "--format", "waybar"], environment: home.environment)
        defer { if feed.process.isRunning { _ = feed.terminate() } }
        #expect(await blocking { feed.waitForLine { $0.contains(#""alt":"com.mygame.pause","class":["on"]"#) } }, "\(feed.output)")
        let off = await home.cli(["control", "com.mygame.pause", "--set", "off"])
        #expect(off.standardOutput.contains("Pause: ▶ Playing"), "\(off.standardOutput) \(off.standardError)")
        #expect(await blocking { feed.waitForLine { $0.contains(#""text":"Pause: ▶ Playing","tooltip":"Pause the game","alt":"com.mygame.pause","class":["off"]"#) } }, "\(feed.output)")
        #expect(await home.cli(["control", "com.mygame.pause", "--press"]).status == 0)
        #expect(await blocking { feed.waitForOutput { $0.components(separatedBy: "\n").filter { $0.contains(#""class":["on"]"#) }.count == 2 } }, "\(feed.output)")

        // The app pauses the game itself and reloads the control, as on iOS: the bar follows.
        #expect(await home.gameApp(["pause", "off"]).status == 0)
        #expect(await blocking { feed.waitForOutput { $0.components(separatedBy: "\n").filter { $0.contains(#""class":["off"]"#) }.count == 2 } }, "\(feed.output)")

        // A button performs its intent in the game's shared state.
        #expect(await home.cli(["control", "com.mygame.heal-unipony", "--press"]).status == 0)
        #expect(await home.gameApp(["show"]).standardOutput.contains("Unipony: health 55"))
        let set = await home.cli(["control", "com.mygame.heal-unipony", "--set", "on"])
        #expect(set.status == 1)
        #expect(set.standardError == "widgets: error: control \"com.mygame.heal-unipony\" is a button, which is pressed, not set on or off\n")
        let unknown = await home.cli(["control", "com.mygame.paus", "--press"])
        #expect(unknown.standardError.contains(#"no bundle loaded has this Control (did you mean com.mygame.pause?)"#), "\(unknown.standardError)")
        let both = await home.cli(["control", "com.mygame.pause", "--press", "--set", "on"])
        #expect(both.status == 2)
    }
}
