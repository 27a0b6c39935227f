import Foundation
import Testing
import WidgetRendering
import WidgetTestSupport
import WidgetWire

/// `widgets render` and `widgets gallery` on real bundles: what a person sees of the renderers.
@Suite struct RenderCommandTests {
    @Test func widgetsRenderDrawsTheCurrentEntryOfARealBundle() async {
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        let data = Fixtures.temporaryDirectory("data")
        _ = await runProcess(Fixtures.gameAppExecutable, ["reset"], environment: ["XDG_DATA_HOME": data.path, "XDG_RUNTIME_DIR": data.path])
        let board = await widgets(["--plugins", plugins.path, "render", "com.mygame.leaderboard", "--family", "systemMedium"], dataHome: data)
        #expect(board.status == 0, "\(board.standardError)")
        let lines = board.standardOutput.split(separator: "\n")
        #expect(lines.count == 12, "10 rows and the frame")
        #expect(lines.first == "╭─ Leaderboard ────────────────────────────╮")
        #expect(lines.contains("│  1. ada                            4200  │"))
        #expect(!board.standardOutput.contains("\u{1B}"), "no colour: the output is not a terminal")

        let coloured = await widgets(["--plugins", plugins.path, "render", "com.mygame.leaderboard", "--color", "truecolor", "--appearance", "light"], dataHome: data)
        #expect(coloured.standardOutput.contains("\u{1B}[38;2;0;0;0;48;2;255;255;255m"), "black on white")
        let placeholder = await widgets(["--plugins", plugins.path, "render", "com.mygame.leaderboard", "--placeholder"], dataHome: data)
        #expect(placeholder.standardOutput.contains("▆▆") && !placeholder.standardOutput.contains("ada"))
        let bad = await widgets(["--plugins", plugins.path, "render", "com.mygame.leaderboard", "--color", "pink"], dataHome: data)
        #expect(bad.status == 2)
        #expect(bad.standardError.hasPrefix("widgets: --color takes auto, none, 256 or truecolor, not 'pink'\n"))
    }

    @Test func widgetsRenderWritesThePNGOfTheGallerysDrawing() async throws {
        let plugins = Fixtures.directory(["libGameWidgets.so"])
        let data = Fixtures.temporaryDirectory("data")
        _ = await runProcess(Fixtures.gameAppExecutable, ["reset"], environment: ["XDG_DATA_HOME": data.path, "XDG_RUNTIME_DIR": data.path])
        let file = data.appendingPathComponent("board.png")
        let arguments = ["--plugins", plugins.path, "render", "com.mygame.leaderboard", "--family", "systemMedium"]
        let light = await widgets(arguments + ["--png", file.path, "--appearance", "light"], dataHome: data)
        #expect(light.status == 0, "\(light.standardError)")
        let size = WidgetFamily.systemMedium.displaySize
        let (width, height) = (Int(size.width * 2), Int(size.height * 2))
        #expect(light.standardOutput == "\(file.path): systemMedium, \(width) × \(height) pixels\n")
        let rasterizer = try Rasterizer.shared()
        let image = try rasterizer.image(png: Array(try Data(contentsOf: file)))
        #expect(image.width == width && image.height == height)
        #expect(image.color(x: 0, y: 0).alpha == 0, "transparent outside the rounded outline")
        let background = image.color(x: width / 2, y: 3)
        #expect(background.alpha == 255 && background.red > 240 && background.green > 240 && background.blue > 240, "\(background)")
        // The text is there: dark ink on the light background, in the rows of the list.
        var ink = 0
        for y in stride(from: 0, to: height, by: 2) {
            for x in stride(from: 0, to: width, by: 2) where image.color(x: x, y: y).alpha == 255 && image.color(x: x, y: y).red < 100 { ink += 1 }
        }
        #expect(ink > 200, "\(ink) dark pixels")

        // To standard output (through a shell, which keeps the bytes), at one pixel a point, dark.
        let darkFile = data.appendingPathComponent("dark.png")
        let command = ([Fixtures.widgetsExecutable] + arguments + ["--png", "-", "--scale", "1"]).map { "'\($0)'" }.joined(separator: " ")
        let dark = await runProcess("/bin/sh", ["-c", command + " > '\(darkFile.path)'"], environment: widgetsEnvironment(dataHome: data, extra: ["XDG_RUNTIME_DIR": data.path]))
        #expect(dark.status == 0, "\(dark.standardError)")
        let darkImage = try rasterizer.image(png: Array(try Data(contentsOf: darkFile)))
        #expect(darkImage.width == Int(size.width) && darkImage.height == Int(size.height))
        let darkBackground = darkImage.color(x: Int(size.width) / 2, y: 2)
        #expect(darkBackground.alpha == 255 && darkBackground.red < 60, "\(darkBackground)")

        let badScale = await widgets(arguments + ["--png", file.path, "--scale", "9"], dataHome: data)
        #expect(badScale.status == 2)
        #expect(badScale.standardError.hasPrefix("widgets: --scale takes a number from 0.5 to 8, not '9'\n"))
        let scaleAlone = await widgets(arguments + ["--scale", "2"], dataHome: data)
        #expect(scaleAlone.status == 2 && scaleAlone.standardError.contains("--scale is for a PNG image: give --png FILE too"))
    }

    @Test func theGalleryShowsEveryWidgetInEveryFamilyAsWellFormedSVG() async throws {
        let plugins = Fixtures.directory(["libGameWidgets.so", "libHostInfo.so"])
        let data = Fixtures.temporaryDirectory("data")
        let out = Fixtures.temporaryDirectory("gallery").appendingPathComponent("site")
        _ = await runProcess(Fixtures.gameAppExecutable, ["reset"], environment: ["XDG_DATA_HOME": data.path, "XDG_RUNTIME_DIR": data.path])
        let result = await widgets(["--plugins", plugins.path, "gallery", "--out", out.path], dataHome: data)
        #expect(result.status == 0, "\(result.standardError)")
        // A placeholder and a snapshot of each widget in each family, and the C sample's three
        // previews (33), each light and dark: the page shows those of the browser's appearance.
        #expect(result.standardOutput == "wrote 66 images of 5 widget(s) and \(out.path)/index.html\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files.filter { $0.hasSuffix(".svg") }.count == 66)
        #expect(files.contains("com.mygame.leaderboard.systemMedium.snapshot.light.svg"))
        for file in files where file.hasSuffix(".svg") {
            let svg = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
            #expect(xmlProblem(svg) == nil, "\(file)")
        }
        let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("<h2>Leaderboard</h2>"))
        #expect(page.contains(#"<a href="mygame://player/ada">"#), "the medium leaderboard's rows link to the players")
        #expect(page.contains(#"href="com.mygame.leaderboard.systemSmall.placeholder.svg""#))
        #expect(page.components(separatedBy: "<svg ").count - 1 == 66)
        #expect(page.contains("@media (prefers-color-scheme: dark)") && page.contains(#"<meta name="color-scheme" content="light dark">"#))
        #expect(page.contains(#"<link rel="icon""#))
        // The fidelity page: each snapshot with its guides, beside what iOS draws for it.
        let fidelity = try String(contentsOf: out.appendingPathComponent("fidelity.html"), encoding: .utf8)
        #expect(page.contains(#"<a href="fidelity.html">"#))
        #expect(fidelity.contains("<h2>Game Status · systemSmall</h2>") && fidelity.contains("What iOS draws"))
        #expect(fidelity.contains("systemSmall: 158 × 158 points on a 390-point-wide iPhone"))
        #expect(fidelity.contains("content margins of 16 points on every side"))
        #expect(fidelity.contains("headline: 17 points, weight 600 (semibold), lines 22 points apart"), "\(fidelity)")
        #expect(fidelity.contains(#"<svg xmlns="http://www.w3.org/2000/svg" class="guides""#))
        // An appearance given: that one only, and the page in it.
        let darkOnly = await widgets(["--plugins", plugins.path, "gallery", "--out", out.path + "-dark", "--appearance", "dark"], dataHome: data)
        #expect(darkOnly.standardOutput == "wrote 33 images of 5 widget(s) and \(out.path)-dark/index.html\n")
        let darkPage = try String(contentsOf: URL(fileURLWithPath: out.path + "-dark/index.html"), encoding: .utf8)
        #expect(!darkPage.contains("prefers-color-scheme") && darkPage.contains(#"content="dark""#))
        // With --png, a PNG beside each drawing: the SVG beside it, rasterized.
        let withPNG = await widgets(["--plugins", plugins.path, "gallery", "--out", out.path + "-png", "--appearance", "dark", "--png"], dataHome: data)
        #expect(withPNG.status == 0, "\(withPNG.standardError)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path + "-png")
        #expect(written.filter { $0.hasSuffix(".png") }.count == 33, "one PNG per drawing")
        let pngName = "com.mygame.character-detail.systemMedium.snapshot"
        let rasterizer = try Rasterizer.shared()
        let png = try rasterizer.image(png: Array(try Data(contentsOf: URL(fileURLWithPath: out.path + "-png/\(pngName).png"))))
        let svg = try String(contentsOf: URL(fileURLWithPath: out.path + "-png/\(pngName).svg"), encoding: .utf8)
        let size = WidgetFamily.systemMedium.displaySize
        #expect(png == (try rasterizer.image(svg: svg, width: Int(size.width * 2), height: Int(size.height * 2))))
        #expect(page.contains("systemSmall · Workstation 1/2"), "the C sample's previews")
        // A configurable widget is shown in its default configuration, as a new instance would be.
        let detail = try String(contentsOf: out.appendingPathComponent("com.mygame.character-detail.systemMedium.snapshot.svg"), encoding: .utf8)
        #expect(detail.contains("Power Panda") && !detail.contains("Choose a character"), "\(detail)")
        // Nothing drawn spills out of the widget's outline; text measured in the font is drawn at its
        // own width (held to the measured width only when measured by averages).
        #expect(detail.contains(#"<clipPath id="w"#) && detail.contains(#"clip-path="url(#w"#))
        #expect(detail.contains(#"lengthAdjust="spacingAndGlyphs""#) != SystemFont.isAvailable)
        #expect(page.contains("display: flex; flex-wrap: wrap"), "the page is a grid, not one column")
        #expect(!result.standardError.contains("fonts-inter") || !SystemFont.isAvailable)

        // Without the font, the gallery is drawn all the same, and says what to install.
        let without = await widgets(
            ["--plugins", plugins.path, "gallery", "--out", out.path + "-plain"], dataHome: data, extraEnvironment: ["WIDGETS_FONT_DIR": "/nonexistent"])
        #expect(without.status == 0)
        let plainDetail = try String(contentsOf: URL(fileURLWithPath: out.path + "-plain/com.mygame.character-detail.systemMedium.snapshot.svg"), encoding: .utf8)
        #expect(plainDetail.contains(#"lengthAdjust="spacingAndGlyphs""#))
        #expect(
            without.standardError.contains(
                "widgets: note: text is measured by average glyph widths: install Debian's fonts-inter (Inter, which stands in for SF Pro) for widths as the font measures them"),
            "\(without.standardError)")
    }

    @Test func anUnknownRenderingModeIsAUsageErrorNamingTheChoices() async {
        let result = await widgets(["render", "org.widgets.any", "--rendering-mode", "sepia"])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("widgets: --rendering-mode takes fullColor, accented, vibrant, not 'sepia'\n"))
    }
}
