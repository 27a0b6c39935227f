import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

@testable import WidgetRendering

/// Text measured as the font sets it: Inter (Debian's fonts-inter) read from its files. The widths
/// below were computed independently with fontTools from the same files (advances plus the `kern`
/// feature's GPOS pair adjustments).
@Suite(.needsInter("the font tests are"))
struct FontTests {
    static let directory = SystemFont.directories().first { FileManager.default.fileExists(atPath: $0 + "/Inter-Regular.otf") }!

    func font(_ name: String) throws -> OpenTypeFont {
        try OpenTypeFont(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.directory + "/" + name))))
    }

    @Test func theFontsTablesAreReadAsFontToolsReadsThem() throws {
        let inter = try font("Inter-Regular.otf")
        #expect(inter.unitsPerEm == 2816)
        #expect(inter.ascender == 2728 && inter.descender == -680 && inter.lineGap == 0)
        let (a, v) = (try #require(inter.glyph(for: "A")), try #require(inter.glyph(for: "V")))
        #expect(inter.kerning(a, v) < 0, "A and V kern")
        #expect(inter.glyph(for: "😀") == nil, "an emoji is not in the font")
    }

    /// Widths of known strings within a hundredth of a point of fontTools' (the issue asks for one point).
    @Test(arguments: [
        ("Digital Clock", 17.0, 400, 100.503), ("AVA Tower", 17, 400, 86.159), ("Interactive", 17, 600, 88.067), ("Interactive", 17, 700, 89.588),
        ("Edit Widget to", 17, 400, 113.881), ("Weather", 28, 400, 99.996),
    ])
    func widthsAreTheFontsOwn(text: String, points: Double, weight: Int, expected: Double) throws {
        let width = try #require(SystemFont.width(of: text, points: points, weight: weight) { _ in 1000 })
        #expect(abs(width - expected) < 0.01, "\(text): \(width)")
    }

    @Test func theLayoutMeasuresInTheFontAndCharactersItLacksByAverage() {
        var body = TextStyle()
        body.font = "body"
        // 100.5 in the font, less SF Pro's tracking at 17 points after each of 13 characters: 94.9.
        #expect(PointMetrics().width(of: "Digital Clock", style: body) == 95, "94.9, in whole points")
        // An emoji the font lacks is an em wide, as before; the text around it is the font's.
        let mixed = PointMetrics().width(of: "Go 😀", style: body)
        let go = SystemFont.width(of: "Go ", points: 17, weight: 400) { _ in 0 }!
        #expect(mixed == (go + 17 - 4 * 0.43).rounded(.up))
    }

    /// Text placed at the width it was sized to breaks into the same lines again: a line that fits
    /// measured whole fits, though its words' rounded widths add up to more (WidgetExamples' intent
    /// widget came out as "Edit Widget / to change / the…", where iOS draws three whole lines).
    @Test func textPlacedAtItsOwnWidthKeepsItsLines() {
        let tree = view(#"{"view":"text","text":"Edit Widget to change the background","modifiers":[{"font":"subheadline"}]}"#)
        let lines = Layout(metrics: PointMetrics(), contentMargin: 16).place(tree, in: (158, 158)).compactMap { element -> String? in
            if case .text(let text, _) = element.content { text } else { nil }
        }
        #expect(lines == ["Edit Widget to", "change the", "background"])
    }

    /// Text measured in the font is drawn at its own width, with nothing stretching or squeezing it
    /// to another; only text measured by averages (no font) is held to the width measured.
    @Test func textMeasuredInTheFontIsNotForcedToAWidth() {
        let tree = view(#"{"view":"vstack","children":[{"view":"text","text":"3. linus"},{"view":"text","text":"Digital Clock"}]}"#)
        let inFont = SVGRenderer(appearance: .light).render(tree, family: .systemSmall)
        #expect(inFont.contains(">3. linus</text>") && !inFont.contains("textLength"))
        var averaged = SVGRenderer(appearance: .light)
        averaged.measuresWithFont = false
        #expect(averaged.render(tree, family: .systemSmall).contains("textLength"))
    }

    /// A file that is not a font, or a font cut short anywhere, is an error naming what is wrong,
    /// never a crash or a read past its end.
    /// Weights are drawn as given: `.bold()` 700, a headline's semibold 600, `fontWeight(.medium)` 500;
    /// each measured in its own face, and bold wherever only bold can be shown.
    @Test func weightsAreDrawnAndMeasuredAsGiven() {
        func style(_ json: String) -> TextStyle? {
            Layout(metrics: PointMetrics()).place(view(json), in: (338, 158)).compactMap { if case .text(_, let style) = $0.content { style } else { nil } }.first
        }
        #expect(style(#"{"view":"text","text":"x","modifiers":[{"bold":true}]}"#)?.weight == 700)
        #expect(style(#"{"view":"text","text":"x","modifiers":[{"font":"headline"}]}"#)?.weight == 600)
        #expect(style(#"{"view":"text","text":"x","modifiers":[{"fontWeight":"medium"}]}"#)?.weight == 500)
        #expect(style(#"{"view":"text","text":"x","modifiers":[{"fontWeight":"medium"}]}"#)?.isBold == false)
        #expect(style(#"{"view":"text","text":"x","modifiers":[{"font":{"size":40,"weight":"black"}}]}"#)?.weight == 900)
        // `fontWeight` wins over the weight a font carries, whichever comes first, as in SwiftUI
        // (`.font(.system(size: 12)).fontWeight(.semibold)`: a calendar widget's month was regular).
        #expect(style(#"{"view":"text","text":"x","modifiers":[{"font":{"size":12,"weight":"regular"}},{"fontWeight":"semibold"}]}"#)?.weight == 600)
        #expect(style(#"{"view":"text","text":"x","modifiers":[{"fontWeight":"bold"},{"font":{"size":12,"weight":"regular"}}]}"#)?.weight == 700)
        let svg = SVGRenderer(appearance: .light).render(view(#"{"view":"vstack","children":[{"view":"text","text":"Black","modifiers":[{"font":{"size":12,"weight":"black"}}]},{"view":"text","text":"Head","modifiers":[{"font":"headline"}]}]}"#), family: .systemMedium)
        // Drawn in Inter a step lighter from bold on (Inter's are heavier than SF Pro's of the name).
        #expect(svg.contains(#"font-weight="800""#) && svg.contains(#"font-weight="600""#))
        var bold = TextStyle()
        bold.bold = true
        var semibold = TextStyle()
        semibold.font = "headline"
        #expect(bold.faceWeight == 600 && semibold.faceWeight == 600)
        #expect(PointMetrics().width(of: "Interactive", style: bold) == 84, "88.1 in Inter SemiBold (bold's face), less 11 × 0.43 of tracking")
        #expect(PointMetrics().width(of: "Interactive", style: semibold) == 84, "88.1 in Inter SemiBold, less 11 × 0.43 of tracking")
    }

    @Test func aBrokenFontIsAnErrorNeverACrash() throws {
        #expect(throws: FontError.self) { try OpenTypeFont(bytes: Array("not a font at all".utf8)) }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.directory + "/Inter-Regular.otf")))
        // Cut at forty places through the tables (what is checked: no crash, no read past the end).
        for cut in stride(from: 0, to: min(bytes.count, 200_000), by: 4_999) {
            _ = try? OpenTypeFont(bytes: Array(bytes[..<cut]))
        }
        // And with four bytes set to 0xFF at sixty places, the file's length kept: offsets and
        // counts inside the tables point anywhere.
        for place in 0..<60 {
            var broken = bytes
            let offset = (place * 7_919) % (bytes.count - 4)
            for index in offset..<(offset + 4) { broken[index] = 0xFF }
            _ = try? OpenTypeFont(bytes: broken)
        }
        // Without the files: no font, and the reason to install one.
        #expect(SystemFont.load(SystemFont.Face(points: 17, weight: 400), from: "/nonexistent") == nil)
        // A file there that is no font: none either (and a warning naming it), never a crash.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fonts-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("not a font".utf8).write(to: directory.appendingPathComponent("Inter-Regular.otf"))
        #expect(SystemFont.load(SystemFont.Face(points: 17, weight: 400), from: directory.path) == nil)
    }

    /// SF Pro's tracking, as iOS sets system text: Apple's table at its sizes, straight lines
    /// between, none from 20 points (the display cut); an author's tracking is added; the drawing
    /// sets what the layout measured.
    @Test func textIsTrackedAsIOSTracksIt() {
        #expect(SystemTracking.points(at: 17) == -0.43 && SystemTracking.points(at: 13) == -0.08 && SystemTracking.points(at: 12) == 0)
        #expect(abs(SystemTracking.points(at: 16.5) - -0.37) < 0.001)
        #expect(SystemTracking.points(at: 28) == 0 && SystemTracking.points(at: 4) == 0.24)
        var body = TextStyle()
        body.font = "body"
        #expect(abs(body.letterSpacing - -0.43) < 0.0001)
        body.tracking = 2
        #expect(abs(body.letterSpacing - 1.57) < 0.0001)
        let untracked = SystemFont.width(of: "Tap anywhere", points: 17, weight: 400) { _ in 0 }!
        #expect(PointMetrics().width(of: "Tap anywhere", style: body) == (untracked + 12 * 1.57).rounded(.up))
        let tree = view(#"{"view":"text","text":"Tap anywhere","modifiers":[{"tracking":2}]}"#)
        #expect(SVGRenderer(appearance: .light).render(tree, family: .systemSmall).contains(#"letter-spacing="1.57""#))
        let large = view(#"{"view":"text","text":"Title","modifiers":[{"font":"largeTitle"}]}"#)
        #expect(!SVGRenderer(appearance: .light).render(large, family: .systemSmall).contains("letter-spacing"))
    }
}
