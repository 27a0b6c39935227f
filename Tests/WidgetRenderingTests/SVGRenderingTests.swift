import Foundation
import FoundationXML
import Testing
import WidgetTestSupport
import WidgetRendering
import WidgetWire

@Suite struct SVGRenderingTests {
    /// The goldens are measured in Inter (fonts-inter), as the gallery and the page draw them.
    @Test(.needsInter("the SVG goldens, measured in it, are"))
    func goldenSVGLightDarkAndPlaceholderAllWellFormed() {
        for appearance in Appearance.allCases {
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

/// The home screen's drawing: what ticks and what is tapped, marked for the page's script.
@Suite struct InteractiveSVGTests {
    let root = view(
        #"""
        {"view":"vstack","children":[
          {"view":"text","text":"","date":1800000600,"dateStyle":"timer"},
          {"view":"text","text":"","parts":["Ends in ",{"date":1800000600,"dateStyle":"relative"}]},
          {"view":"progress","timerInterval":[1800000000,1800000600]},
          {"view":"link","url":"app://b","children":[{"view":"text","text":"B"}]},
          {"view":"button","intent":{"type":"Heal"},"children":[{"view":"text","text":"Heal"}]},
          {"view":"text","text":"still"}
        ]}
        """#)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func liveTextsBarsLinksAndControlsAreMarkedOnlyForThePage() throws {
        let page = SVGRenderer(appearance: .light).render(root, family: .systemLarge, now: now, interactive: true)
        #expect(xmlProblem(page) == nil)
        #expect(page.contains(#"data-live="[{&quot;timer&quot;:1800000600}]""#), "\(page)")
        #expect(page.contains(#"data-live="[&quot;Ends in &quot;,{&quot;relative&quot;:1800000600}]""#))
        #expect(page.contains(#"data-live-bar="{&quot;from&quot;:1800000000,&quot;to&quot;:1800000600,&quot;down&quot;:true}""#))
        #expect(page.contains(#"<a href="app://b" data-link="1">"#))
        #expect(page.contains(#"<g data-button="1" cursor="pointer">"#))
        #expect(page.components(separatedBy: "data-live=").count - 1 == 2, "a plain text does not tick")
        // What the page shows first is what the host formats for the moment drawn.
        #expect(page.contains(">10:00</text>"))
        // Drawn again (the layout's tree is reused from one drawing to the next): numbered afresh.
        let again = SVGRenderer(appearance: .light).render(root, family: .systemLarge, now: now, interactive: true)
        #expect(again.contains(#"<g data-button="1" cursor="pointer">"#) && !again.contains(#"data-button="2""#))
        let still = SVGRenderer(appearance: .light).render(root, family: .systemLarge, now: now)
        #expect(!still.contains("data-"), "files and the gallery carry no page markup")
    }
}
