import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

@testable import WidgetRendering

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

    /// `symbolVariant` reaches the images inside, as SwiftUI's environment does: `heart` under
    /// `.fill` is `heart.fill`, under `.circle.fill` `heart.circle.fill`; parts a name has are kept.
    @Test func symbolVariantsApplyToTheImagesInside() {
        #expect(SymbolShapes.name("heart", variant: "fill") == "heart.fill")
        #expect(SymbolShapes.name("heart", variant: "circle.fill") == "heart.circle.fill")
        #expect(SymbolShapes.name("heart.fill", variant: "slash") == "heart.slash.fill")
        #expect(SymbolShapes.name("checkmark.circle", variant: "circle.fill") == "checkmark.circle.fill")
        #expect(SymbolShapes.name("heart", variant: "none") == "heart")
        let placed = Layout(metrics: PointMetrics()).place(
            view(#"{"view":"hstack","children":[{"view":"image","systemName":"heart"},{"view":"image","systemName":"star"}],"modifiers":[{"symbolVariant":"fill"}]}"#),
            in: (158, 158))
        let symbols = placed.compactMap { if case .text(_, let style) = $0.content { style.symbol } else { nil } }
        #expect(symbols == ["heart.fill", "star.fill"])
    }

    /// Hierarchical rendering draws a symbol's secondary layer (its circle) in the primary colour,
    /// fainter, the symbol on it; palette in the second foreground style.
    @Test func hierarchicalAndPaletteColourTheSecondaryLayer() {
        let hierarchical = SVGRenderer(appearance: .light).render(
            view(#"{"view":"image","systemName":"checkmark.circle.fill","modifiers":[{"foregroundColor":"green"},{"symbolRenderingMode":"hierarchical"}]}"#),
            family: .systemSmall)
        #expect(hierarchical.contains(##"fill="#34c759" fill-opacity="0.45""##), "the circle, fainter: \(hierarchical)")
        #expect(!hierarchical.contains(##"stroke="#ffffff""##) && hierarchical.contains(##"stroke="#34c759""##), "the checkmark lies on it in green, not knocked out")
        let palette = SVGRenderer(appearance: .light).render(
            view(#"{"view":"image","systemName":"checkmark.circle.fill","modifiers":[{"foregroundStyle":"white"},{"secondaryForegroundStyle":"blue"},{"symbolRenderingMode":"palette"}]}"#),
            family: .systemSmall)
        #expect(palette.contains(##"<path d="M50 4 A46 46 0 1 1 49.99 4 Z" fill-rule="evenodd" fill="#007aff"/>"##), "the circle in the second style: \(palette)")
        let monochrome = SVGRenderer(appearance: .light).render(view(#"{"view":"image","systemName":"checkmark.circle.fill"}"#), family: .systemSmall)
        #expect(!monochrome.contains("fill-opacity=\"0.45\""))
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
        // Its lines are as heavy as the text's weight: 8 units at regular, 13 at black.
        let regular = SVGRenderer(appearance: .light).render(view(#"{"view":"image","systemName":"checkmark"}"#), family: .systemSmall)
        let black = SVGRenderer(appearance: .light).render(
            view(#"{"view":"image","systemName":"checkmark","modifiers":[{"fontWeight":"black"}]}"#), family: .systemSmall)
        #expect(regular.contains(#"stroke-width="8""#) && black.contains(#"stroke-width="13""#))
        // imageScale: a symbol 0.8 or 1.3 times its font's size, text beside it unchanged.
        func symbolPoints(_ scale: String) -> [Double] {
            Layout(metrics: PointMetrics()).place(
                view(#"{"view":"hstack","modifiers":[{"imageScale":"\#(scale)"}],"children":[{"view":"image","systemName":"star"},{"view":"text","text":"Rate"}]}"#), in: (158, 158)
            ).compactMap { if case .text(_, let style) = $0.content { style.points } else { nil } }
        }
        #expect(symbolPoints("large") == [17 * 1.3, 17])
        #expect(symbolPoints("small") == [17 * 0.8, 17])
        #expect(symbolPoints("medium") == [17, 17])
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
