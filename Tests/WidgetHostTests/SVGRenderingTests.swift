import Foundation
import FoundationXML
import Testing
import WidgetHost
import WidgetWire

/// Whether `text` is well-formed XML; the parser's error otherwise.
func xmlProblem(_ text: String) -> String? {
    let parser = XMLParser(data: Data(text.utf8))
    return parser.parse() ? nil : "\(parser.parserError.map { "\($0)" } ?? "unknown error") at line \(parser.lineNumber)"
}

@Suite struct SVGRenderingTests {
    @Test func goldenSVGLightDarkAndPlaceholderAllWellFormed() {
        for appearance in TerminalRenderer.Appearance.allCases {
            let svg = SVGRenderer(appearance: appearance).render(statusView, family: .systemMedium)
            #expect(xmlProblem(svg) == nil)
            expectGolden("status-systemMedium-\(appearance.rawValue).svg", svg)
        }
        var placeholder = statusView
        placeholder.modifiers.append(ViewModifierNode("redacted", .string("placeholder")))
        let svg = SVGRenderer(appearance: .light).render(placeholder, family: .systemSmall)
        #expect(xmlProblem(svg) == nil)
        #expect(!svg.contains("<text"), "a placeholder's text is bars")
        expectGolden("status-systemSmall-placeholder.svg", svg)
    }

    @Test func linksAndTheWidgetURLAreClickableExceptLinksInSmallWidgets() {
        var root = view(
            #"{"view":"vstack","children":[{"view":"text","text":"Top & <more>"},{"view":"link","url":"app://a?x=1&y=2","children":[{"view":"text","text":"A"}]}]}"#)
        root.modifiers.append(ViewModifierNode("widgetURL", .string("app://widget")))
        let medium = SVGRenderer(appearance: .light).render(root, family: .systemMedium)
        #expect(xmlProblem(medium) == nil)
        #expect(medium.contains(#"<a href="app://widget">"#))
        #expect(medium.contains(#"<a href="app://a?x=1&amp;y=2"><text"#))
        #expect(medium.contains("Top &amp; &lt;more&gt;"))
        let small = SVGRenderer(appearance: .light).render(root, family: .systemSmall)
        #expect(!small.contains("app://a"), "iOS ignores links in small widgets")
        #expect(small.contains(#"<a href="app://widget">"#))
    }

    @Test func theGalleryShowsEveryWidgetInEveryFamilyAsWellFormedSVG() async throws {
        let plugins = Fixtures.directory(["libGameWidgets.so", "libHostInfo.so"])
        let data = Fixtures.temporaryDirectory("data")
        let out = Fixtures.temporaryDirectory("gallery").appendingPathComponent("site")
        _ = await runProcess(Fixtures.gameAppExecutable, ["reset"], environment: ["XDG_DATA_HOME": data.path, "XDG_RUNTIME_DIR": data.path])
        let result = await widgets(["--plugins", plugins.path, "gallery", "--out", out.path], dataHome: data)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "wrote 30 images of 5 widget(s) and \(out.path)/index.html\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files.filter { $0.hasSuffix(".svg") }.count == 30)
        for file in files where file.hasSuffix(".svg") {
            let svg = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
            #expect(xmlProblem(svg) == nil, "\(file)")
        }
        let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("<h2>Leaderboard</h2>"))
        #expect(page.contains(#"<a href="mygame://player/ada">"#), "the medium leaderboard's rows link to the players")
        #expect(page.contains(#"href="com.mygame.leaderboard.systemSmall.placeholder.svg""#))
        #expect(page.components(separatedBy: "<svg ").count - 1 == 30)
    }
}
