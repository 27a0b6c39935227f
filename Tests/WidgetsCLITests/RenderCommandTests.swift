import Foundation
import Testing
import WidgetRendering
import WidgetTestSupport

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
