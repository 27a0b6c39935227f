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
        try "#!/bin/sh\necho \"$1\" >> '\(opened.path)'\n".write(to: opener, atomically: true, encoding: .utf8)
        chmod(opener.path, 0o755)
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

    /// On X11: a desktop window below the others, placed by its anchor, shaped to the widgets (the
    /// screen shows through around them), drawn as the PNG renderer draws them, its clicks reaching
    /// the bundle.
    /// With a 32-bit visual (Composite) and without one (the screen's 24-bit visual).
    @Test(.enabled(if: VirtualX.unavailable == nil, "\(VirtualX.unavailable ?? "")"), .timeLimit(.minutes(3)), arguments: [true, false])
    func theWidgetsLiveOnAnX11Desktop(composite: Bool) async throws {
        let server = try VirtualX(composite: composite)
        defer { server.stop() }
        let game = GameDesktopHome()
        let host = try await game.startHost()
        defer { if host.process.isRunning { _ = host.terminate() } }

        let desktop = try game.x11Desktop(on: server.display)
        defer { if desktop.process.isRunning { _ = desktop.terminate() } }
        // Bottom right, 10 from the edges: the pair of small widgets (338 × 158) at (452, 432).
        #expect(await blocking { desktop.waitForLine { $0.contains("a window of 338 x 158 at 452, 432 of the screen") } }, "\(desktop.output)")
        #expect(await blocking { desktop.waitForLine { $0.contains("drew game-status-1, character-detail-2 at scale 1") } }, "\(desktop.output)")
        let expected = try await game.renderedStatus(scale: 1)
        let screen = try X11Screen(display: server.display)
        @Sendable func captured() -> RasterImage { RasterImage(width: 800, height: 600, stride: 3200, pixels: screen.capture(x: 0, y: 0, width: 800, height: 600) ?? []) }
        #expect(try await eventually { Self.differences(expected, on: captured(), at: (452, 432)) == 0 }, "as render --png draws it")
        // Around the widgets, the screen's own black: the window is shaped to them.
        let corner = captured().color(x: 452, y: 432)
        #expect(corner.red == 0 && corner.green == 0 && corner.blue == 0, "a rounded corner shows the screen: \(corner)")
        #expect(Self.ink(on: captured(), in: (x: 0, y: 0, width: 440, height: 420)) == 0, "nothing elsewhere")

        let button = try #require(try game.healButton())
        try server.click(x: 452 + 180 + Int(button.rect.x + button.rect.width / 2), y: 432 + Int(button.rect.y + button.rect.height / 2))
        #expect(await blocking { host.waitForLine { $0.contains("character-detail-2: 🦄 Unipony") && $0.contains("Health 55%") } }, "\(host.output)\n\(desktop.output)")
        // Only the widget that changed is sent again, and the shape is left as it was: the other
        // widget's pixels stay as they were drawn.
        #expect(await blocking { desktop.waitForLine { $0.contains("drew character-detail-2 at scale 1; sent 158 x 158 at 180, 0 of 338 x 158") } }, "\(desktop.output)")
        #expect(Self.differences(expected, on: captured(), at: (452, 432)) == 0)
        #expect(desktop.terminate() == 0)
    }

    /// On an X11 desktop whose resources say `Xft.dpi: 192` (as a desktop set to 2× sets them), the
    /// window is drawn at 2× as the PNG renderer draws at 2×, placed and clicked in points; set back
    /// to 96 while it runs, it is drawn at 1× again.
    @Test(.enabled(if: VirtualX.unavailable == nil, "\(VirtualX.unavailable ?? "")"), .timeLimit(.minutes(3)))
    func anX11DesktopsScaleIsFollowed() async throws {
        let server = try VirtualX(composite: true)
        defer { server.stop() }
        let screen = try X11Screen(display: server.display)
        try screen.setResources("Xft.dpi:\t192\nXft.antialias:\t1\n")
        let game = GameDesktopHome()
        let host = try await game.startHost()
        defer { if host.process.isRunning { _ = host.terminate() } }

        let desktop = try game.x11Desktop(on: server.display)
        defer { if desktop.process.isRunning { _ = desktop.terminate() } }
        // 338 × 158 points at 2×, 10 points (20 pixels) from the bottom right of 800 × 600.
        #expect(await blocking { desktop.waitForLine { $0.contains("drawn at scale 2 (Xft.dpi 192)") } }, "\(desktop.output)")
        #expect(await blocking { desktop.waitForLine { $0.contains("a window of 676 x 316 at 104, 264 of the screen") } }, "\(desktop.output)")
        #expect(await blocking { desktop.waitForLine { $0.contains("drew game-status-1, character-detail-2 at scale 2") } }, "\(desktop.output)")
        let expected = try await game.renderedStatus(scale: 2)
        @Sendable func captured() -> RasterImage { RasterImage(width: 800, height: 600, stride: 3200, pixels: screen.capture(x: 0, y: 0, width: 800, height: 600) ?? []) }
        #expect(try await eventually { Self.differences(expected, on: captured(), at: (104, 264)) == 0 }, "as render --png --scale 2 draws it")

        let button = try #require(try game.healButton())
        try server.click(x: 104 + 2 * (180 + Int(button.rect.x + button.rect.width / 2)), y: 264 + 2 * Int(button.rect.y + button.rect.height / 2))
        #expect(await blocking { host.waitForLine { $0.contains("character-detail-2: 🦄 Unipony") && $0.contains("Health 55%") } }, "\(host.output)\n\(desktop.output)")

        try screen.setResources("Xft.dpi:\t96\n")
        #expect(await blocking { desktop.waitForLine { $0.contains("drawn at scale 1 now (Xft.dpi 96)") } }, "\(desktop.output)")
        #expect(await blocking { desktop.waitForLine { $0.contains("a window of 338 x 158 at 452, 432 of the screen") } }, "\(desktop.output)")
        #expect(desktop.terminate() == 0)
    }

    /// On an X11 screen of several monitors (RandR's), the widgets are placed on the primary one, or
    /// the one `--output` names, and follow the monitors as they change: one set primary, one removed.
    @Test(.enabled(if: VirtualX.unavailable == nil, "\(VirtualX.unavailable ?? "")"), .timeLimit(.minutes(3)))
    func anX11DesktopsMonitorsAreFollowed() async throws {
        let server = try VirtualX(composite: true)
        defer { server.stop() }
        let screen = try X11Screen(display: server.display)
        try screen.setMonitor("SIDE", x: 400, y: 100, width: 400, height: 400, primary: true)
        let game = GameDesktopHome()
        let host = try await game.startHost()
        defer { if host.process.isRunning { _ = host.terminate() } }

        let desktop = try game.x11Desktop(on: server.display)
        defer { if desktop.process.isRunning { _ = desktop.terminate() } }
        // 338 × 158 at the bottom right of the primary monitor, 10 from its edges.
        #expect(await blocking { desktop.waitForLine { $0.contains("on the monitor SIDE, 400 x 400 at 400, 100") } }, "\(desktop.output)")
        #expect(await blocking { desktop.waitForLine { $0.contains("a window of 338 x 158 at 452, 332 of the screen") } }, "\(desktop.output)")
        let expected = try await game.renderedStatus(scale: 1)
        @Sendable func captured() -> RasterImage { RasterImage(width: 800, height: 600, stride: 3200, pixels: screen.capture(x: 0, y: 0, width: 800, height: 600) ?? []) }
        #expect(try await eventually { Self.differences(expected, on: captured(), at: (452, 332)) == 0 }, "drawn there")

        // Another monitor made primary: the widgets move to it.
        try screen.setMonitor("MAIN", x: 0, y: 0, width: 400, height: 300, primary: true)
        #expect(await blocking { desktop.waitForLine { $0.contains("a window of 338 x 158 at 52, 132 of the screen") } }, "\(desktop.output)")
        #expect(try await eventually { Self.differences(expected, on: captured(), at: (52, 132)) == 0 }, "drawn there")
        // That monitor removed (unplugged): back on the one left that shows them, SIDE.
        try screen.deleteMonitor("MAIN")
        #expect(
            await blocking {
                desktop.waitForOutput { output in
                    guard let moved = output.ranges(of: "at 52, 132 of the screen").last else { return false }
                    return output[moved.upperBound...].contains("a window of 338 x 158 at 452, 332 of the screen")
                }
            }, "\(desktop.output)")
        #expect(try await eventually { Self.differences(expected, on: captured(), at: (452, 332)) == 0 }, "drawn there")
        #expect(desktop.terminate() == 0)

        // One named, and one that is not there (said, with those that are).
        let named = try game.x11Desktop(on: server.display, ["--output", "SIDE"])
        defer { if named.process.isRunning { _ = named.terminate() } }
        #expect(await blocking { named.waitForLine { $0.contains("a window of 338 x 158 at 452, 332 of the screen") } }, "\(named.output)")
        #expect(named.terminate() == 0)
        let missing = try game.x11Desktop(on: server.display, ["--output", "HDMI-9"])
        defer { if missing.process.isRunning { _ = missing.terminate() } }
        #expect(
            await blocking { missing.waitForLine { $0.contains("no monitor is named HDMI-9 on this X server (it has ") && $0.contains("SIDE") && $0.contains("): on SIDE") } },
            "\(missing.output)")
        #expect(missing.terminate() == 0)
    }

    /// The scale of X11 programs: GTK's GDK_SCALE first, else Xft.dpi over 96 to the nearest whole
    /// number, else 1; 1 to 4.
    @Test func anX11ScaleIsTakenAsGTKAndTheResourcesSayIt() {
        #expect(X11Scale(dpi: 0, gdkScale: "zero").factor == 1 && !X11Scale(dpi: 0, gdkScale: "zero").isGiven)
        #expect(X11Scale(dpi: 0, gdkScale: nil).factor == 1)
        #expect([96.0, 120, 144, 192, 288, 1200].map { X11Scale(dpi: $0, gdkScale: nil).factor } == [1, 1, 2, 2, 3, 4])
        #expect(X11Scale(dpi: 96, gdkScale: "2").factor == 2 && X11Scale(dpi: 96, gdkScale: "2").isGiven, "the resources do not change it")
        #expect(X11Scale(dpi: 192, gdkScale: "1").reason == "GDK_SCALE=1")
        #expect(X11Scale(dpi: 192, gdkScale: "0").factor == 2, "a GDK_SCALE below 1 is not one")
        #expect(X11Scale(dpi: 143.5, gdkScale: nil).reason == "Xft.dpi 143.5")
    }

    /// An X server whose pixels are not 32-bit TrueColor is refused, naming its format.
    @Test(.enabled(if: VirtualX.unavailable == nil, "\(VirtualX.unavailable ?? "")"))
    func anXServerOfSixteenBitsIsRefusedByName() async throws {
        let server = try VirtualX(depth: 16, composite: false)
        defer { server.stop() }
        let result = await widgets(["desktop"], extraEnvironment: ["WAYLAND_DISPLAY": "", "DISPLAY": server.display])
        #expect(result.status == 1)
        #expect(
            result.standardError.contains("the X server's pixels (depth 16, 16 bits a pixel, least significant byte first) are not the 32-bit TrueColor this draws"),
            "\(result.standardError)")
    }

    /// The pixels of `image` that are wholly opaque and differ (by more than 2 in a channel) from
    /// the screen's at `origin` + their place: where a widget is opaque, the screen shows it exactly.
    static func differences(_ image: RasterImage, on screen: RasterImage, at origin: (Int, Int), rows: Range<Int>? = nil) -> Int {
        var count = 0
        for y in (rows ?? 0..<image.height).clamped(to: 0..<image.height) {
            for x in 0..<image.width {
                let want = image.color(x: x, y: y)
                guard want.alpha == 255 else { continue }
                guard origin.0 + x < screen.width, origin.1 + y < screen.height else {
                    count += 1
                    continue
                }
                let got = screen.color(x: origin.0 + x, y: origin.1 + y)
                if abs(want.red - got.red) > 2 || abs(want.green - got.green) > 2 || abs(want.blue - got.blue) > 2 { count += 1 }
            }
        }
        return count
    }

    /// The pixels of a rectangle of the screen that are not the desktop's own background (its
    /// colour at the bottom right corner).
    static func ink(on screen: RasterImage, in rect: (x: Int, y: Int, width: Int, height: Int)) -> Int {
        let background = screen.color(x: screen.width - 1, y: screen.height - 1)
        var count = 0
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) where screen.color(x: x, y: y) != background { count += 1 }
        }
        return count
    }

    /// A screenshot kept for the failure's message.
    static func keep(_ image: RasterImage) throws -> String {
        let file = Fixtures.temporaryDirectory("screenshot").appendingPathComponent("screen.png")
        try Data(try Rasterizer.shared().png(image)).write(to: file)
        return file.path
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

/// The game sample in a home of its own, with two small widgets for a desktop to show: its status
/// and Unipony's details, whose Heal button a click performs.
struct GameDesktopHome {
    let plugins = Fixtures.directory(["libGameWidgets.so"])
    let home = HostHome()

    func cli(_ arguments: [String]) async -> ProcessResult { await home.cli(["--plugins", plugins.path] + arguments) }

    /// The two instances saved and the host started, once it shows them.
    func startHost() async throws -> RunningProcess {
        #expect(await home.gameApp(["reset"]).status == 0)
        #expect(await cli(["add", "com.mygame.game-status", "--state-dir", home.state.path]).status == 0)
        #expect(await cli(["add", "com.mygame.character-detail", "--set", "character=Unipony", "--state-dir", home.state.path]).status == 0)
        let host = try home.host(plugins: plugins)
        #expect(await blocking { host.waitForLine { $0.contains("character-detail-2: 🦄 Unipony") } }, "\(host.output)")
        return host
    }

    /// The status widget as `widgets render --png` draws it now, in light.
    /// `widgets -v desktop` on the X server `display`: light, at the bottom right 10 points from the
    /// edges, without the Controls tile, at the scale the X resources give (and `extra`).
    func x11Desktop(on display: String, _ extra: [String] = []) throws -> RunningProcess {
        var environment = home.environment
        environment["WAYLAND_DISPLAY"] = nil
        environment["GDK_SCALE"] = nil
        environment["DISPLAY"] = display
        return try RunningProcess(
            Fixtures.widgetsExecutable, ["-v", "desktop", "--appearance", "light", "--anchor", "bottom-right", "--margin", "10", "--controls", "off"] + extra,
            environment: environment)
    }

    func renderedStatus(scale: Int) async throws -> RasterImage {
        let file = Fixtures.temporaryDirectory("png").appendingPathComponent("status.png")
        let rendered = await cli(["render", "com.mygame.game-status", "--png", file.path, "--scale", "\(scale)", "--appearance", "light"])
        #expect(rendered.status == 0, "\(rendered.standardError)")
        return try Rasterizer.shared().image(png: Array(try Data(contentsOf: file)))
    }

    /// Where the Heal button of Unipony's details lies in its widget, from the entry the host gives
    /// the desktop (`entries`).
    func healButton() throws -> TapArea? {
        let client = try ControlClient(path: ControlSocket.path(home.environment))
        guard case .entries(let list) = try client.send(.entries(ids: ["character-detail-2"])), let view = list.first?["view"], view != .null else {
            return nil
        }
        return SVGRenderer(appearance: .light).tapAreas(try ViewNode(json: view), family: .systemSmall).first { $0.target == .control(1) }
    }
}

/// What `widgets desktop` decides without a compositor: where widgets go, its options, what it says
/// when it cannot run.
struct DesktopPlacementTests {
    /// The home screen's grid: small widgets a cell each, a medium one two cells across, a large one
    /// two by two, each in the first place it fits, in the saved order.
    @Test func widgetsTakeTheirFamiliesCellsInOrder() {
        let arrangement = DesktopArrangement(
            [("a", .systemSmall), ("b", .systemMedium), ("c", .systemSmall), ("d", .systemLarge), ("e", .accessoryCircular)], columns: 2)
        let frames = arrangement.placed.map { "\($0.id) \(Int($0.x)),\(Int($0.y)) \(Int($0.width))x\(Int($0.height))" }
        #expect(frames == ["a 0,0 158x158", "b 0,196 338x158", "c 180,0 158x158", "d 0,392 338x354", "e 43,827 72x72"])
        #expect(arrangement.width == 338)
        #expect(arrangement.height == 899)
        #expect(arrangement.widget(at: 200, 10)?.id == "c")
        #expect(arrangement.widget(at: 165, 10) == nil, "the gap between cells is no widget")
        // Three columns: the medium widget fits beside the first small one.
        let wide = DesktopArrangement([("a", .systemSmall), ("b", .systemMedium)], columns: 3)
        #expect(wide.placed.map { Int($0.x) } == [0, 180])
        #expect(DesktopArrangement([], columns: 2).width == 0)
    }

    @Test func marginsAreWrittenAsCSSWritesThem() {
        #expect(DesktopMargins("24") == DesktopMargins(all: 24))
        #expect(DesktopMargins("8,16") == DesktopMargins(top: 8, right: 16, bottom: 8, left: 16))
        #expect(DesktopMargins("1, 2, 3, 4") == DesktopMargins(top: 1, right: 2, bottom: 3, left: 4))
        for bad in ["", "a", "1,2,3", "-1", "1,,2,3", "99999"] { #expect(DesktopMargins(bad) == nil, "\(bad)") }
    }

    /// The settings file: the options' names and values, comments, the command line winning.
    @Test func theSettingsFileGivesWhatNoOptionGives() async throws {
        let config = Fixtures.temporaryDirectory("config")
        let file = config.appendingPathComponent("widgets/desktop.conf")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# where the widgets go\nanchor = bottom-right\n\nmargin = 8,16   # top and bottom, sides\ncolumns=4\n".write(to: file, atomically: true, encoding: .utf8)
        let settings = try DesktopSettings(path: file.path)
        #expect(try settings.value(Options.anchor) == .bottomRight)
        #expect(try settings.value(Options.margin) == DesktopMargins(top: 8, right: 16, bottom: 8, left: 16))
        #expect(try settings.value(Options.columns) == 4)
        #expect(try settings.value(Options.output) == nil)
        #expect(try DesktopSettings(path: config.appendingPathComponent("none.conf").path).value(Options.anchor) == nil, "no file, no settings")
        #expect(DesktopSettings.path(["XDG_CONFIG_HOME": config.path]) == file.path)
        #expect(DesktopSettings.path(["HOME": "/home/ada"]) == "/home/ada/.config/widgets/desktop.conf")

        // Each bad line is named by the file and its line, before anything is shown.
        for (text, said) in [
            ("anchor = bottom-right\ncolums = 3\n", "line 2: no setting 'colums' (did you mean columns?) (settings: output, anchor, margin, columns, appearance, activities, controls)"),
            ("columns = 40\n", "line 1: --columns takes a whole number from 1 to 12, not '40'"),
            ("anchor\n", "line 1: expected 'name = value', not 'anchor'"),
        ] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            let result = await widgets(["desktop"], extraEnvironment: ["XDG_CONFIG_HOME": config.path])
            #expect(result.status == 2)
            #expect(result.standardError.contains("\(file.path) \(said)"), "\(result.standardError)")
        }
        // The command line wins over the file: a bad value in the file is never read then.
        try "columns = 40\n".write(to: file, atomically: true, encoding: .utf8)
        let missing = Fixtures.temporaryDirectory("wayland").appendingPathComponent("wayland-9").path
        let overridden = await widgets(["desktop", "--columns", "3"], extraEnvironment: ["XDG_CONFIG_HOME": config.path, "WAYLAND_DISPLAY": missing])
        #expect(overridden.standardError.hasPrefix("widgets: error: cannot connect to the Wayland compositor"), "\(overridden.standardError)")
    }

    @Test func badOptionsAndNoCompositorAreSaidPlainly() async {
        let columns = await widgets(["desktop", "--columns", "0"])
        #expect(columns.status == 2)
        #expect(columns.standardError.contains("--columns takes a whole number from 1 to 12, not '0'"), "\(columns.standardError)")
        let margin = await widgets(["desktop", "--margin", "1,2,3"])
        #expect(margin.standardError.contains("--margin takes points from 0 to 10000: N, V,H or T,R,B,L, not '1,2,3'"), "\(margin.standardError)")
        let anchor = await widgets(["desktop", "--anchor", "middle"])
        #expect(anchor.standardError.contains("--anchor takes top-left, top, top-right"), "\(anchor.standardError)")
        let missing = Fixtures.temporaryDirectory("wayland").appendingPathComponent("wayland-9").path
        let nowhere = await widgets(["desktop"], extraEnvironment: ["WAYLAND_DISPLAY": missing])
        #expect(nowhere.status == 1)
        #expect(nowhere.standardError.hasPrefix("widgets: error: cannot connect to the Wayland compositor at \(missing) ("), "\(nowhere.standardError)")
        let noDisplay = await widgets(["desktop"], extraEnvironment: ["WAYLAND_DISPLAY": "", "DISPLAY": ""])
        #expect(noDisplay.standardError.hasPrefix("widgets: error: no display to show the widgets on: neither WAYLAND_DISPLAY"), "\(noDisplay.standardError)")
        let noX = await widgets(["desktop"], extraEnvironment: ["WAYLAND_DISPLAY": "", "DISPLAY": ":97"])
        #expect(noX.standardError.hasPrefix("widgets: error: cannot connect to the X server at :97"), "\(noX.standardError)")
    }
}
