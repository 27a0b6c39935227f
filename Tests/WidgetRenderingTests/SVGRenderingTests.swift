import Foundation
import FoundationXML
import Testing
import WidgetTestSupport
import WidgetRendering
import WidgetWire

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
}
