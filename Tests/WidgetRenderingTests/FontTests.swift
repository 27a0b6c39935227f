import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

@testable import WidgetRendering

/// Text measured as the font sets it: Inter (Debian's fonts-inter) read from its files. The widths
/// below were computed independently with fontTools from the same files (advances plus the `kern`
/// feature's GPOS pair adjustments).
@Suite(.enabled(if: SystemFont.isAvailable, "fonts-inter is not installed (apt-get install fonts-inter): the font tests are skipped"))
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
        #expect(PointMetrics().width(of: "Digital Clock", style: body) == 101, "100.5, in whole points")
        // An emoji the font lacks is an em wide, as before; the text around it is the font's.
        let mixed = PointMetrics().width(of: "Go 😀", style: body)
        let go = SystemFont.width(of: "Go ", points: 17, weight: 400) { _ in 0 }!
        #expect(mixed == (go + 17).rounded(.up))
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
        let svg = SVGRenderer(appearance: .light).render(view(#"{"view":"vstack","children":[{"view":"text","text":"Bold","modifiers":[{"bold":true}]},{"view":"text","text":"Head","modifiers":[{"font":"headline"}]}]}"#), family: .systemMedium)
        #expect(svg.contains(#"font-weight="700""#) && svg.contains(#"font-weight="600""#))
        var bold = TextStyle()
        bold.bold = true
        bold.givenWeight = 700
        var semibold = TextStyle()
        semibold.font = "headline"
        #expect(PointMetrics().width(of: "Interactive", style: bold) == 90, "89.6 in Inter Bold")
        #expect(PointMetrics().width(of: "Interactive", style: semibold) == 89, "88.1 in Inter SemiBold")
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
    }
}

/// A tree given back to the pool is emptied of everything a layout put in it: a dashboard lays
/// out a hundred widgets a frame with a few pooled trees, which must not grow from frame to frame.
@Suite struct LayoutTreeTests {
    @Test func anEmptiedTreeHoldsNothingOfItsLastLayout() {
        let tree = Layout.Tree()
        _ = tree.add(.picture(0))
        tree.effects.append(.blur(radius: 2))
        tree.tints[0] = "red"
        tree.styles.append(TextStyle())
        tree.empty()
        #expect(tree.kinds.isEmpty && tree.effects.isEmpty && tree.tints.isEmpty && tree.styles.isEmpty)
    }
}

/// SwiftUI's spacing, pinned to the distances iOS draws: lines a text style's leading apart, no
/// space of the stack's own between two texts one above the other or beside a spacer, and the
/// platform's 8 points between anything else.
@Suite struct SpacingTests {
    let points = Layout(metrics: PointMetrics())

    func texts(_ json: String, in size: (Double, Double) = (338, 158)) -> [(String, LayoutRect)] {
        points.place(view(json), in: size).compactMap { if case .text(let text, _) = $0.content { (text, $0.rect) } else { nil } }
    }

    @Test func twoBodyTextsStandALineApartAsOnIOS() {
        let placed = texts(#"{"view":"vstack","children":[{"view":"text","text":"First"},{"view":"text","text":"Second"}]}"#)
        #expect(placed.map(\.1.height) == [22, 22], "body's leading")
        #expect(placed[1].1.y - placed[0].1.y == 22, "iOS's 22, not 29")
        let captions = texts(#"{"view":"vstack","children":[{"view":"text","text":"a","modifiers":[{"font":"caption"}]},{"view":"text","text":"b","modifiers":[{"font":"caption"}]}]}"#)
        #expect(captions[1].1.y - captions[0].1.y == 16)
        // A spacing given is kept.
        let given = texts(#"{"view":"vstack","spacing":10,"children":[{"view":"text","text":"a"},{"view":"text","text":"b"}]}"#)
        #expect(given[1].1.y - given[0].1.y == 32)
    }

    @Test func otherViewsStandEightPointsApartAndASpacerAddsNoneOfTheStacks() {
        // A text above a shape: the default 8.
        let mixed = points.place(
            view(#"{"view":"vstack","children":[{"view":"text","text":"a"},{"view":"shape","shape":"rectangle","fill":"red","modifiers":[{"frame":{"width":10,"height":10}}]}]}"#),
            in: (158, 158))
        let text = mixed.first { if case .text = $0.content { true } else { false } }!.rect
        let shape = mixed.first { if case .fill = $0.content { true } else { false } }!.rect
        #expect(shape.y - (text.y + text.height) == 8)
        // Beside a spacer, squeezed: the spacer's own 8, not 8 on each side of it as well. Ten
        // points more than the two words: both fit whole (with 8 on each side, they would not).
        var body = TextStyle()
        body.font = "body"
        let width = PointMetrics().width(of: "Left", style: body) + PointMetrics().width(of: "Right", style: body) + 10
        let row = texts(#"{"view":"hstack","children":[{"view":"text","text":"Left"},{"view":"spacer"},{"view":"text","text":"Right"}]}"#, in: (width, 40))
        #expect(row.map(\.0) == ["Left", "Right"])
        #expect(row[1].1.x - (row[0].1.x + row[0].1.width) == 10)
    }
}

/// SF Symbols the project draws as shapes: in SVG a vector drawing in the view's colour, never a
/// font's character (a colour emoji that ignores the tint, or a missing-glyph box); other names as
/// their glyph, as in a terminal.
@Suite struct SymbolShapeTests {
    @Test func variantsAreReadFromTheName() throws {
        let filled = try #require(SymbolShapes.resolve("heart.fill"))
        #expect(filled.0 == "heart" && filled.1 == (fill: true, circle: false, slash: false))
        let slashed = try #require(SymbolShapes.resolve("heart.slash"))
        #expect(slashed.0 == "heart" && slashed.1 == (fill: false, circle: false, slash: true))
        let circled = try #require(SymbolShapes.resolve("checkmark.circle.fill"))
        #expect(circled.0 == "checkmark" && circled.1 == (fill: true, circle: true, slash: false))
        #expect(SymbolShapes.resolve("sun.max.fill")?.0 == "sun.max")
        #expect(SymbolShapes.resolve("bell.badge")?.0 == "bell", "a name of the family")
        #expect(SymbolShapes.resolve("circle.fill")?.0 == "circle")
        #expect(SymbolShapes.resolve("cpu") == nil, "not drawn here: its glyph")
    }

    /// A name drawn by no shape and no glyph of its family is told to the author, once each.
    @Test func symbolsNotDrawnAreNamed() {
        let tree = view(
            #"{"view":"vstack","children":[{"view":"image","systemName":"heart.fill"},{"view":"image","systemName":"figure.skiing.downhill"},"#
                + #"{"view":"text","text":"x","parts":["Go ",{"systemName":"zzz.unknown"}]},{"view":"image","systemName":"zzz.unknown"},{"view":"image","systemName":"cpu"}]}"#)
        #expect(SymbolGlyphs.unknown(in: tree) == ["figure.skiing.downhill", "zzz.unknown"], "in the order met, once each; heart and cpu are drawn")
    }

    @Test func aSymbolIsDrawnAsItsShapeInTheViewsColour() {
        let svg = SVGRenderer(appearance: .light).render(
            view(#"{"view":"image","systemName":"pause.fill","modifiers":[{"foregroundColor":"orange"}]}"#), family: .systemSmall)
        #expect(xmlProblem(svg) == nil)
        #expect(svg.contains(##"<path d="M24 12 H42 V88 H24 Z M58 12 H76 V88 H58 Z" fill-rule="evenodd" fill="#ff9500"/>"##), "\(svg)")
        #expect(!svg.contains("⏸"), "never the emoji")
        // In a filled circle, the symbol is knocked out in the background's colour.
        let circled = SVGRenderer(appearance: .dark).render(view(#"{"view":"image","systemName":"checkmark.circle.fill"}"#), family: .systemSmall)
        #expect(circled.contains(##"stroke="#1c1c1e""##))
        // A name without a shape is its glyph, as before.
        let chip = SVGRenderer(appearance: .light).render(view(#"{"view":"image","systemName":"cpu"}"#), family: .systemSmall)
        #expect(chip.contains("▣"))
        // Measured as a square a little wider than its size.
        var style = TextStyle()
        style.symbol = "heart"
        #expect(PointMetrics().width(of: "♡", style: style) == 21)
        // The terminal draws the glyph.
        #expect(TerminalRenderer(colorMode: .none, appearance: .light).render(view(#"{"view":"image","systemName":"heart.fill"}"#), family: .systemSmall).joined().contains("♥"))
    }
}
