import Foundation
import Testing
@testable import WidgetDesktop
import WidgetRendering
import WidgetTestSupport
import WidgetWire
@testable import WidgetsCommandLine

/// `widgets desktop` in a real compositor: a headless sway, its screenshots taken with grim, clicks
/// made by a virtual pointer of the compositor's own.
@Suite(.serialized) struct DesktopTests {
    /// The widgets appear where placed, drawn as the PNG renderer draws them; a changed entry is
    /// drawn again; a click on a widget's button reaches its bundle; the client stays through a
    /// restart of the host and follows the output's new scale.
    @Test(.enabled(if: HeadlessSway.unavailable == nil, "\(HeadlessSway.unavailable ?? "")"), .timeLimit(.minutes(3)))
    func theWidgetsLiveOnTheDesktop() async throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let game = GameDesktopHome()
        let (home, plugins) = (game.home, game.plugins)
        let cli = game.cli
        let host = try await game.startHost()
        defer { if host.process.isRunning { _ = host.terminate() } }

        // What the desktop's opener is given (a right click opens the home screen), kept in a file.
        let opened = Fixtures.temporaryDirectory("opened").appendingPathComponent("urls")
        let opener = Fixtures.temporaryDirectory("opener").appendingPathComponent("open")
        try writeExecutable("#!/bin/sh\necho \"$1\" >> '\(opened.path)'\n", to: opener)
        var environment = home.environment.merging(sway.clientEnvironment) { $1 }
        environment["WIDGETS_URL_OPENER"] = opener.path
        let desktop = try RunningProcess(Fixtures.widgetsExecutable, ["-v", "desktop", "--appearance", "light", "--controls", "off"], environment: environment)
        defer { if desktop.process.isRunning { _ = desktop.terminate() } }
        #expect(await blocking { desktop.waitForLine { $0.contains("drew game-status-1, character-detail-2 at scale 1") } }, "\(desktop.output)")

        // Where placed (margin 24, top left; the second small widget one cell and 22 points on), as drawn.
        func expected(scale: Int) async throws -> RasterImage { try await game.renderedStatus(scale: scale) }
        // The compositor shows a committed buffer at its next frame: screenshots are taken until it does.
        let resting = try await expected(scale: 1)
        #expect(try await eventually { Self.differences(resting, on: try Rasterizer.shared().image(png: try sway.screenshot()), at: (24, 24)) == 0 })
        let screen = try Rasterizer.shared().image(png: try sway.screenshot())
        let first = Self.differences(resting, on: screen, at: (24, 24))
        let kept = try Self.keep(screen)
        #expect(first == 0, "\(first) pixels differ from render --png's: \(kept)")
        #expect(Self.ink(on: screen, in: (x: 204, y: 24, width: 158, height: 158)) > 500, "the character's widget is drawn beside it")
        #expect(Self.ink(on: screen, in: (x: 24, y: 210, width: 338, height: 158)) == 0, "nothing below: transparent where no widget is")

        // A new entry is drawn.
        #expect(await home.gameApp(["status", "Boss fight"]).status == 0)
        let boss = try await expected(scale: 1)
        #expect(Self.differences(boss, on: screen, at: (24, 24)) > 100, "the new entry is not the old one")
        let shown = try await eventually { Self.differences(boss, on: try Rasterizer.shared().image(png: try sway.screenshot()), at: (24, 24)) == 0 }
        #expect(shown, "the new entry, as the renderer draws it: \(desktop.output)")

        // A click on the character's Heal button performs its intent in the bundle.
        let button = try #require(try game.healButton())
        #expect(throws: ControlError.self) { try ControlClient(path: ControlSocket.path(home.environment)).send(.entries(ids: ["nope"])) }
        let pointer = try VirtualPointer(waylandDisplay: sway.waylandDisplay)
        try pointer.move(x: 700, y: 500, extent: (800, 600))
        #expect(await blocking { desktop.waitForLine { $0.contains("a pointer is there") } }, "\(desktop.output)")
        try pointer.move(x: 204 + Int(button.rect.x + button.rect.width / 2), y: 24 + Int(button.rect.y + button.rect.height / 2), extent: (800, 600))
        try pointer.click()
        try pointer.move(x: 790, y: 590, extent: (800, 600))  // the cursor off the widgets, out of the screenshots
        #expect(await blocking { host.waitForLine { $0.contains("character-detail-2: 🦄 Unipony") && $0.contains("Health 55%") } }, "\(host.output)\n\(desktop.output)")

        // The host restarts: the client stays, says so, and follows the new host.
        #expect(await blocking { host.terminate() } == 0)
        #expect(await blocking { desktop.waitForLine { $0.contains("the host is away") } }, "\(desktop.output)")
        #expect(desktop.process.isRunning)
        // Meanwhile the last entry stays, marked "as of" its time at its bottom: the drawing differs
        // from the entry's there, and only there.
        #expect(try await eventually {
            let screen = try Rasterizer.shared().image(png: try sway.screenshot())
            let top = Self.differences(boss, on: screen, at: (24, 24), rows: 0..<120)
            let bottom = Self.differences(boss, on: screen, at: (24, 24), rows: 120..<158)
            return top == 0 && bottom > 50
        }, "marked as of")
        // Back with its home screen served: a right click on a widget opens the page with that
        // widget's Edit Widget open.
        let again = try RunningProcess(
            Fixtures.widgetsExecutable, ["--plugins", plugins.path, "run", "--state-dir", home.state.path, "--web"], environment: home.environment)
        defer { if again.process.isRunning { _ = again.terminate() } }
        #expect(await blocking { desktop.waitForLine { $0.contains("the host is back") } }, "\(desktop.output)")
        // The page is served a moment after the control socket answers.
        #expect(await blocking { again.waitForLine { $0.contains("home screen: http://") } }, "\(again.output)")
        try pointer.move(x: 100, y: 100, extent: (800, 600))
        try pointer.click(secondary: true)
        try pointer.move(x: 790, y: 590, extent: (800, 600))
        #expect(try await eventually { ((try? String(contentsOf: opened, encoding: .utf8)) ?? "").contains("&edit=game-status-1") }, "\(desktop.output)")
        let page = (try? String(contentsOf: opened, encoding: .utf8)) ?? ""
        #expect(page.hasPrefix("http://127.0.0.1:") && page.contains("/#token="), "the host's page with its token: \(page)")
        #expect(try await eventually { Self.differences(boss, on: try Rasterizer.shared().image(png: try sway.screenshot()), at: (24, 24)) == 0 }, "the mark gone")

        // The output's scale changes: drawn again at two pixels a point, in the same place.
        try sway.message(["output", "HEADLESS-1", "scale", "2"])
        #expect(await blocking { desktop.waitForLine { $0.contains("drew game-status-1, character-detail-2 at scale 2") } }, "\(desktop.output)")
        let large = try await expected(scale: 2)
        #expect(try await eventually { Self.differences(large, on: try Rasterizer.shared().image(png: try sway.screenshot()), at: (48, 48)) == 0 })
        let doubled = try Rasterizer.shared().image(png: try sway.screenshot())
        let twice = Self.differences(large, on: doubled, at: (48, 48))
        let keptDoubled = try Self.keep(doubled)
        #expect(twice == 0, "\(twice) pixels differ from render --png --scale 2's: \(keptDoubled)")
        #expect(desktop.terminate() == 0)

        // An output named before it exists: the widgets appear on it when it comes (a monitor
        // plugged in), at the same place.
        let later = try RunningProcess(Fixtures.widgetsExecutable, ["-v", "desktop", "--appearance", "light", "--output", "HEADLESS-2", "--controls", "off"], environment: environment)
        defer { if later.process.isRunning { _ = later.terminate() } }
        #expect(await blocking { later.waitForLine { $0.contains(#"no output is named "HEADLESS-2" now (outputs: HEADLESS-1); the widgets are shown when it comes"#) } }, "\(later.output)")
        try sway.message(["create_output"])
        #expect(await blocking { later.waitForLine { $0.contains("drew game-status-1, character-detail-2 at scale 1") } }, "\(later.output)")
        #expect(try await eventually { Self.differences(boss, on: try Rasterizer.shared().image(png: try sway.screenshot(output: "HEADLESS-2")), at: (24, 24)) == 0 })
        let second = try Rasterizer.shared().image(png: try sway.screenshot(output: "HEADLESS-2"))
        let onSecond = Self.differences(boss, on: second, at: (24, 24))
        let keptSecond = try Self.keep(second)
        #expect(onSecond == 0, "\(onSecond) pixels differ on the new output: \(keptSecond)")

        // A widget removed: those after it move up a cell, and nothing is left where the last one
        // was (four widgets, then three: the surface keeps its size, two rows of two).
        for _ in 0..<2 { #expect(await cli(["add", "com.mygame.leaderboard", "--state-dir", home.state.path]).status == 0) }
        func onNewOutput(_ holds: @escaping @Sendable (RasterImage) -> Bool) async throws -> Bool {
            try await eventually { holds(try Rasterizer.shared().image(png: try sway.screenshot(output: "HEADLESS-2"))) }
        }
        #expect(try await onNewOutput { Self.ink(on: $0, in: (x: 204, y: 220, width: 158, height: 158)) > 500 }, "four: \(later.output)")
        #expect(await cli(["remove", "character-detail-2", "--state-dir", home.state.path]).status == 0)
        #expect(try await onNewOutput { Self.ink(on: $0, in: (x: 204, y: 220, width: 158, height: 158)) == 0 && Self.ink(on: $0, in: (x: 24, y: 220, width: 158, height: 158)) > 500 }, "three: \(later.output)")
        #expect(later.terminate() == 0)

        // Every output: a surface on each, drawn at the largest scale (HEADLESS-1's 2).
        let everywhere = try RunningProcess(Fixtures.widgetsExecutable, ["-v", "desktop", "--appearance", "light", "--output", "all", "--controls", "off"], environment: environment)
        defer { if everywhere.process.isRunning { _ = everywhere.terminate() } }
        #expect(await blocking { everywhere.waitForLine { $0.contains("drew game-status-1, leaderboard-3, leaderboard-4 at scale 2") } }, "\(everywhere.output)")
        #expect(everywhere.output.contains("a surface of 338 x 354 points on HEADLESS-1") && everywhere.output.contains("a surface of 338 x 354 points on HEADLESS-2"), "\(everywhere.output)")
        #expect(try await eventually {
            let first = try Rasterizer.shared().image(png: try sway.screenshot(output: "HEADLESS-1"))
            let second = try Rasterizer.shared().image(png: try sway.screenshot(output: "HEADLESS-2"))
            return Self.ink(on: first, in: (x: 48, y: 48, width: 316, height: 316)) > 2000 && Self.ink(on: second, in: (x: 24, y: 24, width: 158, height: 158)) > 500
        }, "on both outputs")
        #expect(everywhere.terminate() == 0)
    }

    /// An output unplugged, in a sway nested in another (its outputs are windows there; closing one
    /// unplugs it, as headless sway 1.7 cannot): widgets on the compositor's choice of output come
    /// back on the output left, drawn; with `--output all` the surface on the one left stays, and
    /// the client keeps drawing new entries on it.
    @Test(.enabled(if: HeadlessSway.unavailable == nil, "\(HeadlessSway.unavailable ?? "")"), .timeLimit(.minutes(3)))
    func theWidgetsFollowAWaylandOutputUnplugged() async throws {
        let outer = try HeadlessSway()
        defer { outer.stop() }
        let sway = try HeadlessSway(nestedIn: outer)
        defer { sway.stop() }
        try sway.message(["create_output"])
        try sway.message(["focus", "output", "WL-2"])
        let game = GameDesktopHome()
        let host = try await game.startHost()
        defer { if host.process.isRunning { _ = host.terminate() } }
        let environment = game.home.environment.merging(sway.clientEnvironment) { $1 }
        @Sendable func inked(_ output: String) -> Bool {
            (try? Rasterizer.shared().image(png: try sway.screenshot(output: output))).map { Self.ink(on: $0, in: (x: 24, y: 24, width: 158, height: 158)) > 500 } ?? false
        }
        func unplug(_ output: String) throws { try outer.message(["[title=\"wlroots - \(output)\"]", "kill"]) }

        let desktop = try RunningProcess(Fixtures.widgetsExecutable, ["-v", "desktop", "--appearance", "light", "--controls", "off"], environment: environment)
        defer { if desktop.process.isRunning { _ = desktop.terminate() } }
        #expect(await blocking { desktop.waitForLine { $0.contains("drew game-status-1, character-detail-2 at scale 1") } }, "\(desktop.output)")
        #expect(try await eventually { inked("WL-2") }, "on the focused output: \(desktop.output)")
        #expect(!inked("WL-1"), "on the focused output alone")
        try unplug("WL-2")
        #expect(await blocking { desktop.waitForLine { $0.contains("output WL-2 went away") } }, "\(desktop.output)")
        #expect(try await eventually { inked("WL-1") }, "on the output left: \(desktop.output)")
        #expect(desktop.terminate() == 0)

        try sway.message(["create_output"])
        let everywhere = try RunningProcess(Fixtures.widgetsExecutable, ["-v", "desktop", "--appearance", "light", "--output", "all", "--controls", "off"], environment: environment)
        defer { if everywhere.process.isRunning { _ = everywhere.terminate() } }
        #expect(await blocking { everywhere.waitForLine { $0.contains("a surface of 338 x 158 points on WL-3") } }, "\(everywhere.output)")
        #expect(try await eventually { inked("WL-1") && inked("WL-3") }, "on both: \(everywhere.output)")
        try unplug("WL-3")
        #expect(await blocking { everywhere.waitForLine { $0.contains("output WL-3 went away") } }, "\(everywhere.output)")
        // A new entry is still drawn, on the output left, as the PNG renderer draws it.
        #expect(await game.home.gameApp(["status", "Unplugged"]).status == 0)
        let unplugged = try await game.renderedStatus(scale: 1)
        #expect(try await eventually { Self.differences(unplugged, on: try Rasterizer.shared().image(png: try sway.screenshot(output: "WL-1")), at: (24, 24)) == 0 }, "\(everywhere.output)")
        #expect(everywhere.process.isRunning)
        #expect(everywhere.terminate() == 0)
    }

    /// Light or dark as the desktop prefers (the settings portal's color-scheme), followed when it
    /// changes: the widgets are drawn dark, then light again, as `render --png` draws them.
    @Test(
        .enabled(if: HeadlessSway.unavailable == nil && NotificationServer.unavailable == nil, "\(HeadlessSway.unavailable ?? NotificationServer.unavailable ?? "")"),
        .timeLimit(.minutes(3)))
    func theWidgetsFollowTheDesktopsLightOrDark() async throws {
        let bus = try NotificationServer()
        defer { bus.stop() }
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let game = GameDesktopHome()
        let host = try await game.startHost()
        defer { if host.process.isRunning { _ = host.terminate() } }
        var environment = game.home.environment.merging(sway.clientEnvironment) { $1 }
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let desktop = try RunningProcess(Fixtures.widgetsExecutable, ["-v", "desktop", "--controls", "off"], environment: environment)
        defer { if desktop.process.isRunning { _ = desktop.terminate() } }
        #expect(await blocking { desktop.waitForLine { $0.contains("drew game-status-1, character-detail-2 at scale 1") } }, "\(desktop.output)")
        // Dark at first, as the portal says (a client reading nothing would be light).
        let dark = try await game.renderedStatus(scale: 1, appearance: "dark")
        #expect(try await eventually { Self.differences(dark, on: try Rasterizer.shared().image(png: try sway.screenshot()), at: (24, 24)) == 0 }, "dark, as the portal says")

        #expect(bus.setColorScheme(2))
        #expect(await blocking { desktop.waitForLine { $0.contains("the desktop prefers light now") } }, "\(desktop.output)")
        let light = try await game.renderedStatus(scale: 1)
        #expect(Self.differences(light, on: dark, at: (0, 0)) > 1000, "light is not dark")
        #expect(try await eventually { Self.differences(light, on: try Rasterizer.shared().image(png: try sway.screenshot()), at: (24, 24)) == 0 }, "\(desktop.output)")
        #expect(desktop.terminate() == 0)
    }

    /// A click on a `Link` (in a medium widget: a small one is one target, as on iOS) opens its URL
    /// with the bundle that claims its scheme, as a tap on the home screen does: the game's app
    /// shows the player whose row was clicked.
    @Test(.enabled(if: HeadlessSway.unavailable == nil, "\(HeadlessSway.unavailable ?? "")"), .timeLimit(.minutes(3)))
    func aClickOnALinkOpensItWithTheBundle() async throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let game = GameDesktopHome()
        let host = try await game.startHost()
        defer { if host.process.isRunning { _ = host.terminate() } }
        #expect(await game.cli(["add", "com.mygame.leaderboard", "--family", "systemMedium", "--state-dir", game.home.state.path]).status == 0)
        let desktop = try RunningProcess(
            Fixtures.widgetsExecutable, ["-v", "desktop", "--appearance", "light", "--controls", "off"],
            environment: game.home.environment.merging(sway.clientEnvironment) { $1 })
        defer { if desktop.process.isRunning { _ = desktop.terminate() } }
        #expect(await blocking { desktop.waitForLine { $0.contains("drew game-status-1, character-detail-2, leaderboard-3 at scale 1") } }, "\(desktop.output)")
        // The leaderboard, a medium widget across the second row (24 + 158 + 38 points down); its second row's link.
        let client = try ControlClient(path: ControlSocket.path(game.home.environment))
        guard case .entries(let list) = try client.send(.entries(ids: ["leaderboard-3"])), let view = list.first?["view"], view != .null else {
            Issue.record("no entry for the leaderboard")
            return
        }
        let links = SVGRenderer(appearance: .light).tapAreas(try ViewNode(json: view), family: .systemMedium).filter { if case .link = $0.target { true } else { false } }
        let link = try #require(links.dropFirst().first, "\(links)")
        let pointer = try VirtualPointer(waylandDisplay: sway.waylandDisplay)
        try pointer.move(x: 700, y: 500, extent: (800, 600))
        #expect(await blocking { desktop.waitForLine { $0.contains("a pointer is there") } }, "\(desktop.output)")
        try pointer.move(x: 24 + Int(link.rect.x + link.rect.width / 2), y: 220 + Int(link.rect.y + link.rect.height / 2), extent: (800, 600))
        try pointer.click()
        #expect(await blocking { host.waitForLine { $0.contains("game-app: showing player") } }, "\(host.output)\n\(desktop.output)")
        #expect(desktop.terminate() == 0)
    }
}

extension DesktopTests {
    /// A Live Activity drawn before the widgets (a medium widget's place, its Lock Screen view) and
    /// the Controls as a tile after them, whose toggle a click presses.
    @Test(.enabled(if: HeadlessSway.unavailable == nil, "\(HeadlessSway.unavailable ?? "")"), .timeLimit(.minutes(3)))
    func liveActivitiesAndControlsAreOnTheDesktop() async throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let game = GameDesktopHome()
        let home = game.home
        let host = try await game.startHost()
        defer { if host.process.isRunning { _ = host.terminate() } }
        let started = await home.cli(["activity", "start", "MatchAttributes", "--attributes", #"{"opponent":"Rovers"}"#, "--state", #"{"ours":2,"theirs":1,"period":3}"#])
        let id = started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(started.status == 0, "\(started.standardError)")
        let environment = home.environment.merging(sway.clientEnvironment) { $1 }
        let desktop = try RunningProcess(Fixtures.widgetsExecutable, ["-v", "desktop", "--appearance", "light"], environment: environment)
        defer { if desktop.process.isRunning { _ = desktop.terminate() } }
        #expect(await blocking { desktop.waitForLine { $0.contains("drew \(id), game-status-1, character-detail-2, #controls at scale 1") } }, "\(desktop.output)")
        // The activity a medium widget's place at the top, the widgets below it, the Controls below them.
        #expect(try await eventually { Self.ink(on: try Rasterizer.shared().image(png: try sway.screenshot()), in: (x: 24, y: 24, width: 338, height: 158)) > 500 })
        let screen = try Rasterizer.shared().image(png: try sway.screenshot())
        #expect(Self.ink(on: screen, in: (x: 24, y: 220, width: 158, height: 158)) > 500, "the status below the activity")
        let kept = try Self.keep(screen)
        #expect(Self.ink(on: screen, in: (x: 24, y: 416, width: 338, height: 158)) > 500, "the Controls below the widgets: \(kept)")

        // The pause toggle, clicked on the desktop, is pressed in the bundle.
        let client = try ControlClient(path: ControlSocket.path(home.environment))
        guard case .entries(let list) = try client.send(.entries(ids: nil, activities: true, controls: true)),
            let tile = list.last, tile["id"] == .string("#controls"), let view = tile["view"]
        else {
            Issue.record("no Controls tile")
            return
        }
        let toggle = try #require(SVGRenderer(appearance: .light).tapAreas(try ViewNode(json: view), family: .systemMedium).first { $0.target == .control(1) })
        let pointer = try VirtualPointer(waylandDisplay: sway.waylandDisplay)
        try pointer.move(x: 700, y: 300, extent: (800, 600))
        #expect(await blocking { desktop.waitForLine { $0.contains("a pointer is there") } }, "\(desktop.output)")
        try pointer.move(x: 24 + Int(toggle.rect.x + toggle.rect.width / 2), y: 416 + Int(toggle.rect.y + toggle.rect.height / 2), extent: (800, 600))
        try pointer.click()
        let socket = ControlSocket.path(home.environment)
        #expect(try await eventually {
            guard case .controls(let entries) = try ControlClient(path: socket).send(.controls(kind: "com.mygame.pause")) else { return false }
            return entries.first?.control?.isOn == true
        }, "\(desktop.output)")
        // Dismissed, the activity leaves the desktop.
        #expect(await home.cli(["activity", "end", id, "--dismissal", "immediate"]).status == 0)
        #expect(await blocking { desktop.waitForLine { $0.contains("drew game-status-1, character-detail-2, #controls at scale 1") } }, "\(desktop.output)")
    }
}
