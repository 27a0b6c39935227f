import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

@testable import WidgetRendering

/// What comparing WidgetExamples' drawings with its iOS screenshots found, pinned: where a line's
/// glyphs sit, label colours over a coloured background, the time's narrow space before AM/PM.
@Suite struct IOSFidelityTests {
    func svg(_ json: String, appearance: Appearance = .light) -> String {
        SVGRenderer(appearance: appearance).render(view(json), family: .systemSmall)
    }

    /// The y of the first `<text` element's baseline.
    func baseline(_ svg: String) -> Double? {
        guard let text = svg.range(of: "<text x=\""), let y = svg[text.upperBound...].range(of: "y=\"") else { return nil }
        return Double(svg[y.upperBound...].prefix { $0 != "\"" })
    }

    @Test func aLinesGlyphsSitAtItsTopWithTheLeadingBelow() throws {
        // A headline at the content's top (16 points in): its baseline 16.3 below that on iOS.
        let y = try #require(baseline(svg(#"{"view":"vstack","children":[{"view":"text","text":"Dynamic","modifiers":[{"font":"headline"}]},{"view":"spacer"}]}"#)))
        #expect(abs((y - 16) - 16.3) < 0.2, "baseline \(y - 16) below the content's top")
    }

    @Test func labelColoursAreTranslucentAsUIKitsAre() {
        let drawn = svg(#"{"view":"text","text":"Quiet","modifiers":[{"foregroundStyle":"secondary"}]}"#)
        #expect(drawn.contains(##"fill="#3c3c43" fill-opacity="0.6""##), "\(drawn)")
        let dark = svg(#"{"view":"text","text":"Quiet","modifiers":[{"foregroundStyle":"tertiary"}]}"#, appearance: .dark)
        #expect(dark.contains(##"fill="#ebebf5" fill-opacity="0.3""##), "\(dark)")
        // On the widget's own background they are what they were: #8a8a8e on white.
        #expect(SystemColors.rgb("secondary", .light) == (138, 138, 142))
    }

    @Test func aTimesNarrowSpaceBeforeAMOrPMIsKeptInTheFontAndASpaceInATerminal() {
        let node = view(#"{"view":"text","text":"","date":1800000000,"dateStyle":"time"}"#)
        let dates = DateText(timeZone: TimeZone(identifier: "UTC")!)
        #expect(dates.text(of: node, now: Date(timeIntervalSince1970: 1_800_000_000), keepingNarrowSpaces: true).contains("\u{202F}AM"))
        #expect(dates.text(of: node, now: Date(timeIntervalSince1970: 1_800_000_000)).contains("00 AM"))
        #expect(PointMetrics().drawsNarrowSpaces && !TerminalMetrics().drawsNarrowSpaces)
    }

    /// A bordered button around a symbol, as WidgetExamples' reset button: 33 points high on iOS,
    /// the symbol's frame as tall as it is wide (not a line of text), a 6-point corner.
    @Test func aBorderedSymbolButtonIsAsTallAsIOSDrawsIt() throws {
        let placed = Layout(metrics: PointMetrics()).place(
            view(#"{"view":"button","modifiers":[{"buttonStyle":"bordered"}],"children":[{"view":"image","systemName":"arrow.circlepath"}]}"#), in: (158, 158))
        let backdrop = try #require(placed.first { if case .fill(_, .roundedRectangle(6, _)) = $0.content { true } else { false } })
        #expect(backdrop.rect.height == 33, "\(backdrop.rect)")
    }

    /// `allowsTightening(true)`: a line a little too long sets its characters closer rather than
    /// being cut; without it, it is cut; one far too long is cut all the same.
    @Test(.needsInter("tightening, measured in it, is"))
    func aLineThatAllowsTighteningSetsItsCharactersCloserBeforeItIsCut() throws {
        let text = "Interactive Widgets"
        let width = try #require(SystemFont.width(of: text, points: 17, weight: 400) { _ in 0 }) - 19 * 0.43
        func drawn(_ tightening: Bool, frame: Double) -> String {
            let modifiers = (tightening ? #"{"allowsTightening":true},"# : "") + #"{"lineLimit":1},{"frame":{"width":\#(frame)}}"#
            return svg(#"{"view":"text","text":"\#(text)","modifiers":[\#(modifiers)]}"#)
        }
        let narrower = (width - 4).rounded(.down)
        #expect(drawn(true, frame: narrower).contains(">\(text)</text>"), "tightened: \(drawn(true, frame: narrower))")
        #expect(!drawn(true, frame: narrower).contains(#"letter-spacing="-0.43""#), "closer than the font's own tracking")
        #expect(drawn(false, frame: narrower).contains("…</text>"), "cut without it")
        #expect(drawn(true, frame: width / 2).contains("…</text>"), "too long to tighten: cut")
    }
}
