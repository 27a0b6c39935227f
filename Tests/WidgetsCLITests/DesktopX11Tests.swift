import Foundation
import Testing
@testable import WidgetDesktop
import WidgetRendering
import WidgetTestSupport

/// `widgets desktop` on X11, in Xvfb: its pixels read back from the server, clicks made by xdotool.
/// In DesktopTests' serialized suite, so that no compositor test runs beside it.
extension DesktopTests {
    /// On X11: a desktop window below the others, placed by its anchor, shaped to the widgets (the
    /// screen shows through around them), drawn as the PNG renderer draws them, its clicks reaching
    /// the bundle.
    /// With a 32-bit visual (Composite) and without one (the screen's 24-bit visual).
    @Test(.enabled(if: VirtualX.unavailable == nil, "\(VirtualX.unavailable ?? "")"), .timeLimit(.minutes(3)), arguments: [true, false])
    func theWidgetsLiveOnAnX11Desktop(composite: Bool) async throws {
        let run = try await X11DesktopRun(composite: composite)
        defer { run.stop() }
        // Bottom right, 10 from the edges: the pair of small widgets (338 × 158) at (452, 432).
        #expect(await run.said("a window of 338 x 158 at 452, 432 of the screen"), "\(run.desktop.output)")
        #expect(await run.said("drew game-status-1, character-detail-2 at scale 1"), "\(run.desktop.output)")
        let expected = try await run.game.renderedStatus(scale: 1)
        #expect(try await run.shows(expected, at: (452, 432)), "as render --png draws it")
        // Around the widgets, the screen's own black: the window is shaped to them.
        let corner = run.captured().color(x: 452, y: 432)
        #expect(corner.red == 0 && corner.green == 0 && corner.blue == 0, "a rounded corner shows the screen: \(corner)")
        #expect(Self.ink(on: run.captured(), in: (x: 0, y: 0, width: 440, height: 420)) == 0, "nothing elsewhere")

        #expect(try await run.heals(windowAt: (452, 432)), "\(run.host.output)\n\(run.desktop.output)")
        // Only the widget that changed is sent again; the other's pixels stay as they were drawn.
        #expect(await run.said("drew character-detail-2 at scale 1; sent 158 x 158 at 180, 0 of 338 x 158"), "\(run.desktop.output)")
        #expect(Self.differences(expected, on: run.captured(), at: (452, 432)) == 0)
        #expect(run.desktop.terminate() == 0)
    }

    /// On an X11 desktop whose resources say `Xft.dpi: 192` (as a desktop set to 2× sets them), the
    /// window is drawn at 2× as the PNG renderer draws at 2×, placed and clicked in points; set back
    /// to 96 while it runs, it is drawn at 1× again.
    @Test(.enabled(if: VirtualX.unavailable == nil, "\(VirtualX.unavailable ?? "")"), .timeLimit(.minutes(3)))
    func anX11DesktopsScaleIsFollowed() async throws {
        let run = try await X11DesktopRun { try $0.setResources("Xft.dpi:\t192\nXft.antialias:\t1\n") }
        defer { run.stop() }
        // 338 × 158 points at 2×, 10 points (20 pixels) from the bottom right of 800 × 600.
        #expect(await run.said("drawn at scale 2 (Xft.dpi 192)"), "\(run.desktop.output)")
        #expect(await run.said("a window of 676 x 316 at 104, 264 of the screen"), "\(run.desktop.output)")
        #expect(await run.said("drew game-status-1, character-detail-2 at scale 2"), "\(run.desktop.output)")
        let expected = try await run.game.renderedStatus(scale: 2)
        #expect(try await run.shows(expected, at: (104, 264)), "as render --png --scale 2 draws it")
        #expect(try await run.heals(windowAt: (104, 264), scale: 2), "\(run.host.output)\n\(run.desktop.output)")

        try run.screen.setResources("Xft.dpi:\t96\n")
        #expect(await run.said("drawn at scale 1 now (Xft.dpi 96)"), "\(run.desktop.output)")
        #expect(await run.said("a window of 338 x 158 at 452, 432 of the screen"), "\(run.desktop.output)")
        #expect(run.desktop.terminate() == 0)
    }

    /// On an X11 screen of several monitors (RandR's), the widgets are placed on the primary one, or
    /// the one `--output` names, and follow the monitors as they change: one set primary, one removed.
    @Test(.enabled(if: VirtualX.unavailable == nil, "\(VirtualX.unavailable ?? "")"), .timeLimit(.minutes(3)))
    func anX11DesktopsMonitorsAreFollowed() async throws {
        let run = try await X11DesktopRun { try $0.setMonitor("SIDE", x: 400, y: 100, width: 400, height: 400, primary: true) }
        defer { run.stop() }
        let (desktop, screen, game, server) = (run.desktop, run.screen, run.game, run.server)
        // 338 × 158 at the bottom right of the primary monitor, 10 from its edges.
        #expect(await run.said("on the monitor SIDE, 400 x 400 at 400, 100"), "\(desktop.output)")
        #expect(await run.said("a window of 338 x 158 at 452, 332 of the screen"), "\(desktop.output)")
        let expected = try await game.renderedStatus(scale: 1)
        #expect(try await run.shows(expected, at: (452, 332)), "drawn there")

        // Another monitor made primary: the widgets move to it.
        try screen.setMonitor("MAIN", x: 0, y: 0, width: 400, height: 300, primary: true)
        #expect(await run.said("a window of 338 x 158 at 52, 132 of the screen"), "\(desktop.output)")
        #expect(try await run.shows(expected, at: (52, 132)), "drawn there")
        // That monitor removed (unplugged): back on the one left that shows them, SIDE.
        try screen.deleteMonitor("MAIN")
        #expect(
            await blocking {
                desktop.waitForOutput { output in
                    guard let moved = output.ranges(of: "at 52, 132 of the screen").last else { return false }
                    return output[moved.upperBound...].contains("a window of 338 x 158 at 452, 332 of the screen")
                }
            }, "\(desktop.output)")
        #expect(try await run.shows(expected, at: (452, 332)), "drawn there")
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
}

/// An X server of its own (800 × 600), the game sample hosted, and `widgets desktop` on it (light,
/// bottom right, 10 points from the edges): what each X11 test starts with.
struct X11DesktopRun {
    let server: VirtualX
    let screen: X11Screen
    let game = GameDesktopHome()
    let host: RunningProcess
    let desktop: RunningProcess

    /// `configure`: what is set on the screen before the desktop starts (monitors, resources).
    init(composite: Bool = true, configure: (X11Screen) throws -> Void = { _ in }) async throws {
        server = try VirtualX(composite: composite)
        do {
            screen = try X11Screen(display: server.display)
            try configure(screen)
            host = try await game.startHost()
        } catch {
            server.stop()
            throw error
        }
        do {
            desktop = try game.x11Desktop(on: server.display)
        } catch {
            _ = host.terminate()
            server.stop()
            throw error
        }
    }

    /// Ends what is still running (each test's `defer`).
    func stop() {
        if desktop.process.isRunning { _ = desktop.terminate() }
        if host.process.isRunning { _ = host.terminate() }
        server.stop()
    }

    /// Whether the desktop says a line containing `text` (within its wait).
    func said(_ text: String) async -> Bool {
        let desktop = desktop
        return await blocking { desktop.waitForLine { $0.contains(text) } }
    }

    /// The screen's pixels.
    func captured() -> RasterImage { Self.capture(screen) }

    static func capture(_ screen: X11Screen) -> RasterImage {
        RasterImage(width: 800, height: 600, stride: 3200, pixels: screen.capture(x: 0, y: 0, width: 800, height: 600) ?? [])
    }

    /// Whether the screen shows `image` at `origin` where it is opaque, once the server has it.
    func shows(_ image: RasterImage, at origin: (Int, Int)) async throws -> Bool {
        let screen = screen
        return try await eventually { DesktopTests.differences(image, on: Self.capture(screen), at: origin) == 0 }
    }

    /// Clicks Unipony's Heal button in the window drawn at `origin` at `scale`; whether the host then
    /// shows the health risen (the click reached the bundle).
    func heals(windowAt origin: (Int, Int), scale: Int = 1) async throws -> Bool {
        let button = try #require(try game.healButton())
        // The details widget is the second, 180 points on.
        try server.click(
            x: origin.0 + scale * (180 + Int(button.rect.x + button.rect.width / 2)), y: origin.1 + scale * Int(button.rect.y + button.rect.height / 2))
        let host = host
        return await blocking { host.waitForLine { $0.contains("character-detail-2: 🦄 Unipony") && $0.contains("Health 55%") } }
    }
}
