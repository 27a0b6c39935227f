import Foundation
import Testing
@testable import WidgetDesktop
import WidgetRendering
import WidgetTestSupport
import WidgetWire
@testable import WidgetsCommandLine

/// What the desktop tests compare screens with.
extension DesktopTests {
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

    /// The status widget as `widgets render --png` draws it now, in light.
    func renderedStatus(scale: Int, appearance: String = "light") async throws -> RasterImage {
        let file = Fixtures.temporaryDirectory("png").appendingPathComponent("status.png")
        let rendered = await cli(["render", "com.mygame.game-status", "--png", file.path, "--scale", "\(scale)", "--appearance", appearance])
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
