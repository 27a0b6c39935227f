import Foundation
import Testing
import WidgetTestSupport
import WidgetABI
import WidgetSupport
import WidgetTimelines
import WidgetHost
import WidgetWire

/// Deep links and intents end to end: the real game bundle, its app, the CLI and a running host.
@Suite struct DeepLinkAndIntentTests {
    @Test func tapsOpenTheGameAppAndButtonsHealThroughTheRunningHost() async throws {
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        // The bundle's URL handler launches `game-app` from the home's PATH, as a system launches an app.
        let home = HostHome()
        let (state, runtime) = (home.state, home.runtime)
        func cli(_ arguments: [String]) async -> ProcessResult { await home.cli(["--plugins", plugins.path] + arguments) }
        #expect(await home.gameApp(["reset"]).status == 0)
        #expect(await cli(["add", "com.mygame.character-detail", "--set", "character=Unipony", "--state-dir", state.path]).status == 0)
        #expect(await cli(["add", "com.mygame.leaderboard", "--family", "systemMedium", "--state-dir", state.path]).status == 0)
        #expect(await cli(["add", "com.mygame.leaderboard", "--family", "systemSmall", "--state-dir", state.path]).status == 0)

        // With no host running, a tap is delivered all the same, on the entry the timeline shows now.
        let local = await cli(["tap", "character-detail-1", "--button", "1", "--state-dir", state.path])
        #expect(local.standardOutput == "performed GameWidgets.HealCharacterIntent; no widget host is running, so the widget shows it at its next reload\n", "\(local.standardError)")

        // A URL no bundle claims goes to the desktop's opener; this one fails, and says so.
        let host = try home.host(plugins: plugins, extraEnvironment: ["WIDGETS_URL_OPENER": "/bin/false"])
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await blocking { host.waitForLine { $0.contains("character-detail-1: 🦄 Unipony | Free Rangers | ██████░░░░ | Health 55% | Heal +10") } }, "\(host.output)")

        // The button: performed on the provider's queue, then the instance reloads at once.
        let healed = await cli(["tap", "character-detail-1", "--button", "1"])
        #expect(healed.standardOutput == "performed GameWidgets.HealCharacterIntent; the widget reloads\n", "\(healed.standardError)")
        #expect(await blocking { host.waitForLine { $0.contains("character-detail-1: 🦄 Unipony | Free Rangers | ███████░░░ | Health 65%") } }, "\(host.output)")

        // The widget's URL opens the game app there.
        let opened = await cli(["tap", "character-detail-1"])
        #expect(opened.standardOutput == "opened mygame://character/Unipony with libGameWidgets.so\n", "\(opened.standardError)")
        let show = await home.gameApp(["show"])
        #expect(show.standardOutput.contains("last opened from a widget: mygame://character/Unipony\n"))

        // Links: the Nth in reading order; none in a small widget, whose tap opens its widgetURL.
        #expect(await cli(["tap", "leaderboard-2", "--link", "2"]).standardOutput == "opened mygame://player/grace with libGameWidgets.so\n")
        let beyond = await cli(["tap", "leaderboard-2", "--link", "9"])
        #expect(beyond.status == 1)
        #expect(beyond.standardError == "widgets: error: instance leaderboard-2 shows 5 link(s); there is no link 9\n")
        let small = await cli(["tap", "leaderboard-3", "--link", "1"])
        #expect(small.standardError == "widgets: error: instance leaderboard-3 is systemSmall, where Link is ignored, as on iOS; a tap opens its widgetURL\n")
        #expect(await cli(["tap", "leaderboard-3"]).standardOutput == "opened mygame://status with libGameWidgets.so\n")
        let noButton = await cli(["tap", "leaderboard-2", "--button", "1"])
        #expect(noButton.standardError == "widgets: error: instance leaderboard-2 shows 0 button(s)/toggle(s); there is no button 1\n")

        // A URL by itself goes to the bundle claiming its scheme; an unclaimed one to the desktop.
        #expect(await cli(["open", "mygame://player/ada"]).standardOutput == "opened mygame://player/ada with libGameWidgets.so\n")
        let unclaimed = await cli(["open", "otherapp://x"])
        #expect(unclaimed.status == 1)
        #expect(unclaimed.standardError == "widgets: error: false could not open otherapp://x (status 1)\n")
        let usage = await cli(["tap", "leaderboard-2", "--link", "1", "--button", "1"])
        #expect(usage.status == 2)

        // Numbers a peer sends are checked, not trusted to fit.
        let client = try ControlClient(path: runtime.path + "/widgets/control.sock")
        #expect(try client.sendRaw(Array(#"{"request":"tap","instance":"leaderboard-2","link":1e300}"#.utf8) + [10])
            == #"{"ok":false,"error":"give at most one of \"link\" and \"button\", a whole number from 1"}"#)

        // The app asks WidgetCenter which widgets are placed, and reloads only the leaderboards.
        let placed = await home.gameApp(["widgets"])
        #expect(placed.standardOutput == """
            character-detail-1: com.mygame.character-detail (systemSmall) character=Unipony
            leaderboard-2: com.mygame.leaderboard (systemMedium)
            leaderboard-3: com.mygame.leaderboard (systemSmall)

            """, "\(placed.standardError)")
        #expect(await home.gameApp(["score", "ada", "5000"]).status == 0)
        #expect(await blocking { host.waitForLine { $0.contains("leaderboard-2: Leaderboard | 1. ada  5000") } }, "\(host.output)")
        #expect(await blocking { host.terminate() } == 0)
    }
}

/// The rule for what iOS leaves undefined, and the notes that tell the author.
@Suite struct TapTargetTests {
    func text(_ text: String) -> ViewNode { ViewNode("text", attributes: JSONObject([("text", .string(text))])) }

    @Test func theFirstWidgetURLInReadingOrderWinsAndTheAuthorIsTold() {
        var inner = text("inner")
        inner.modifiers = [ViewModifierNode("widgetURL", .string("app://inner"))]
        var root = ViewNode("vstack", children: [inner, ViewNode("link", attributes: JSONObject([("url", .string("app://l"))]), children: [text("L")])])
        root.modifiers = [ViewModifierNode("widgetURL", .string("app://outer"))]
        let targets = TapTargets(root)
        #expect(targets.widgetURL == "app://outer")
        #expect(targets.links == ["app://l"])
        #expect(TapTargets.notes(for: root, family: .systemMedium) == [
            "2 widgetURL modifiers in one entry, which iOS leaves undefined; the first in reading order applies: app://outer"
        ])
        #expect(TapTargets.notes(for: root, family: .systemSmall) == [
            "2 widgetURL modifiers in one entry, which iOS leaves undefined; the first in reading order applies: app://outer",
            "Link in a systemSmall widget is ignored, as on iOS: the whole widget is one tap target; use widgetURL",
        ])
        #expect(TapTargets.notes(for: text("plain"), family: .systemSmall).isEmpty)
        #expect(TapTargets.notes(for: inner, family: .systemSmall).isEmpty)
        let onlyALink = ViewNode("link", attributes: JSONObject([("url", .string("app://l"))]))
        #expect(TapTargets.notes(for: onlyALink, family: .systemMedium).isEmpty)
        #expect(TapTargets.notes(for: onlyALink, family: .systemSmall) == [
            "Link in a systemSmall widget is ignored, as on iOS: the whole widget is one tap target; use widgetURL"
        ])
    }
}
