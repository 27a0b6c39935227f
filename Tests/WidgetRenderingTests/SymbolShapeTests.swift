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
        #expect(filled.0 == "heart" && filled.1 == SymbolShapes.Variant(fill: true))
        let slashed = try #require(SymbolShapes.resolve("heart.slash"))
        #expect(slashed.0 == "heart" && slashed.1 == SymbolShapes.Variant(slash: true))
        let circled = try #require(SymbolShapes.resolve("checkmark.circle.fill"))
        #expect(circled.0 == "checkmark" && circled.1 == SymbolShapes.Variant(fill: true, enclosure: "circle"))
        #expect(SymbolShapes.resolve("sun.max.fill")?.0 == "sun.max")
        #expect(SymbolShapes.resolve("bell.badge")?.0 == "bell", "a name of the family")
        #expect(SymbolShapes.resolve("circle.fill")?.0 == "circle")
        #expect(SymbolShapes.resolve("zzz.unknown") == nil, "not drawn here: its glyph")
        // Enclosures other than the circle, names of a family, other spellings.
        let squared = try #require(SymbolShapes.resolve("heart.text.square.fill"))
        #expect(squared.0 == "heart" && squared.1 == SymbolShapes.Variant(fill: true, enclosure: "square"))
        #expect(SymbolShapes.resolve("xmark.octagon")?.1.enclosure == "octagon")
        #expect(SymbolShapes.resolve("cloud.sun.rain.fill")?.0 == "cloud.sun")
        #expect(SymbolShapes.resolve("tram.fill")?.0 == "bus")
        #expect(SymbolShapes.resolve("person.crop.circle")?.0 == "person")
        #expect(SymbolShapes.resolve("person.crop.circle")?.1.enclosure == "circle")
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
        #expect(hierarchical.contains(##"<g opacity="0.45"><path d="M50 4 A46 46 0 1 1 49.99 4 Z" fill-rule="evenodd" fill="#34c759"/></g>"##), "the circle, fainter: \(hierarchical)")
        #expect(!hierarchical.contains(##"stroke="#ffffff""##) && hierarchical.contains(##"stroke="#34c759""##), "the checkmark lies on it in green, not knocked out")
        let palette = SVGRenderer(appearance: .light).render(
            view(#"{"view":"image","systemName":"checkmark.circle.fill","modifiers":[{"foregroundStyle":"white"},{"secondaryForegroundStyle":"blue"},{"symbolRenderingMode":"palette"}]}"#),
            family: .systemSmall)
        #expect(palette.contains(##"<path d="M50 4 A46 46 0 1 1 49.99 4 Z" fill-rule="evenodd" fill="#007aff"/>"##), "the circle in the second style: \(palette)")
        let monochrome = SVGRenderer(appearance: .light).render(view(#"{"view":"image","systemName":"checkmark.circle.fill"}"#), family: .systemSmall)
        #expect(!monochrome.contains("opacity=\"0.45\""))
        // A translucent colour (a label colour is one) keeps its own opacity and gets the layer's
        // from a group: one opacity attribute per element, well-formed XML.
        let secondary = SVGRenderer(appearance: .light).render(
            view(#"{"view":"image","systemName":"wifi.slash","modifiers":[{"foregroundStyle":"secondary"},{"symbolRenderingMode":"hierarchical"}]}"#),
            family: .systemSmall)
        #expect(xmlProblem(secondary) == nil, "\(secondary)")
        #expect(secondary.contains(#"<g opacity="0.45">"#))
    }

    /// Every name the glyph table knows, and the names widget code uses most, has a shape; each
    /// shape is a well-formed drawing (an SVG path of its commands only) and every alias names one.
    @Test func theNamesWidgetsUseMostAreShapes() {
        let common = [
            "star.fill", "heart.fill", "checkmark.circle.fill", "xmark.circle.fill", "plus.circle.fill", "bolt.fill", "flame.fill", "drop.fill",
            "sun.max.fill", "moon.stars.fill", "cloud.sun.fill", "cloud.rain.fill", "cloud.bolt.rain.fill", "cloud.snow.fill", "wind", "thermometer",
            "umbrella.fill", "sunrise.fill", "sunset.fill", "timer", "stopwatch", "alarm", "calendar", "clock.fill", "hourglass",
            "play.fill", "pause.fill", "forward.fill", "backward.fill", "forward.end.fill", "backward.end.fill", "shuffle", "repeat",
            "music.note", "headphones", "waveform", "speaker.wave.2.fill", "mic.fill", "video.fill", "tv", "film", "gamecontroller.fill",
            "person.fill", "person.2.fill", "person.crop.circle.fill", "house.fill", "building.2.fill", "mappin.and.ellipse", "location.fill",
            "car.fill", "bus.fill", "tram.fill", "bicycle", "airplane", "bed.double.fill", "cup.and.saucer.fill", "fork.knife", "cart.fill",
            "bag.fill", "creditcard.fill", "gift.fill", "book.fill", "newspaper.fill", "doc.text.fill", "folder.fill", "tray.fill",
            "archivebox.fill", "trash.fill", "pencil", "paintbrush.fill", "scissors", "hammer.fill", "wrench.fill", "magnifyingglass",
            "envelope.fill", "paperplane.fill", "phone.fill", "message.fill", "bubble.left.fill", "link", "lock.fill", "lock.open.fill",
            "key.fill", "eye.fill", "eye.slash", "gearshape.fill", "slider.horizontal.3", "line.3.horizontal", "list.bullet",
            "square.grid.2x2.fill", "square.and.arrow.up", "cpu", "memorychip", "desktopcomputer", "laptopcomputer", "iphone", "applewatch",
            "battery.100", "battery.75", "battery.50", "battery.25", "battery.0", "wifi", "antenna.radiowaves.left.and.right", "network",
            "dice.fill", "puzzlepiece.fill", "bitcoinsign.circle.fill", "dollarsign.circle.fill", "eurosign.circle", "chart.bar.fill",
            "chart.pie.fill", "chart.line.uptrend.xyaxis", "arrow.up.right", "arrow.down.right", "arrow.clockwise", "arrow.triangle.2.circlepath",
            "arrow.up.arrow.down", "arrowtriangle.up.fill", "arrowtriangle.down.fill", "chevron.right", "chevron.down", "info.circle.fill",
            "exclamationmark.triangle.fill", "questionmark.circle", "ellipsis", "ellipsis.circle", "sparkles", "sparkle", "crown.fill", "trophy.fill",
            "medal.fill", "flag.fill", "bookmark.fill", "tag.fill", "leaf.fill", "tree.fill", "pawprint.fill", "snowflake", "tornado",
            "figure.walk", "figure.run", "heart.text.square.fill", "xmark.octagon.fill", "shield.fill", "checkmark.seal.fill", "hexagon.fill",
            "pills.fill", "cross.fill", "graduationcap.fill", "briefcase.fill", "building.columns.fill", "banknote", "lightbulb.fill", "power",
            "fuelpump.fill", "app.fill", "rectangle.fill", "capsule.fill", "hand.thumbsup.fill", "face.smiling", "birthday.cake.fill",
            "wineglass", "basketball", "soccerball", "dumbbell.fill", "mountain.2.fill", "water.waves", "qrcode", "barcode", "paperclip",
            "pin.fill", "printer.fill", "keyboard", "eyeglasses", "tshirt.fill", "signature", "gauge", "safari", "externaldrive.fill",
            "server.rack", "hifispeaker.fill", "radio", "pianokeys", "nosign", "location.north.fill", "square.stack.fill", "speedometer",
            "yensign.circle", "sterlingsign.circle", "number", "percent", "equal", "multiply", "divide", "tortoise.fill", "hare.fill",
            "circle.lefthalf.filled", "record.circle", "circle.dashed", "square.and.pencil", "smoke.fill", "cloud.moon.fill", "sun.min.fill",
            "arrow.uturn.left", "arrow.left.arrow.right", "arrow.up.left", "arrow.down.left", "chart.line.downtrend.xyaxis", "timer.circle",
            "bell.badge.fill", "bell.slash.fill", "star.circle.fill", "heart.circle.fill", "bolt.circle.fill", "house.circle", "leaf.circle",
        ]
        let missing = common.filter { !SymbolShapes.has($0) }
        #expect(missing.isEmpty, "\(missing)")
        #expect(common.count >= 200, "\(common.count)")
        for (name, shape) in SymbolShapes.shapes {
            #expect(shape.path.allSatisfy { "MLHVCQAZ0123456789. -".contains($0) }, "\(name)")
        }
        for (alias, target) in SymbolShapes.aliases { #expect(SymbolShapes.shapes[target] != nil, "\(alias) names \(target)") }
        for (name, glyph) in SymbolGlyphs.table where !SymbolShapes.has(name) { Issue.record("\(name) (\(glyph)) has a glyph and no shape") }
    }

    /// A resizable symbol fills its frame, as `Image(systemName:).resizable().scaledToFit()` does
    /// (WidgetExamples' shared view: a star 63 points across in a 63-point frame, not 50): its
    /// drawing's bounds, not its 100-unit square, fit the frame.
    @Test func aResizableSymbolFillsItsFrame() throws {
        let svg = SVGRenderer(appearance: .light).render(
            view(#"{"view":"image","systemName":"star.fill","resizable":true,"modifiers":[{"frame":{"width":63,"height":63}}]}"#),
            family: .systemSmall)
        let scale = try #require(svg.range(of: "scale(").map { Double(svg[$0.upperBound...].prefix { $0 != ")" }) ?? 0 })
        let box = try #require(SymbolShapes.bounds("star.fill"))
        #expect(abs(scale * box.width - 63) < 0.5, "the star 63 points across: \(scale * box.width)")
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
        let (large, small): (Double, Double) = (17 * 1.3, 17 * 0.8)
        #expect(symbolPoints("large") == [large, 17])
        #expect(symbolPoints("small") == [small, 17])
        #expect(symbolPoints("medium") == [17, 17])
        // A name drawn by nothing is a neutral placeholder (and named to the author).
        let unknown = SVGRenderer(appearance: .light).render(view(#"{"view":"image","systemName":"zzz.unknown"}"#), family: .systemSmall)
        #expect(unknown.contains(SymbolGlyphs.placeholder))
        // Its frame 1.2 times its size high, as wide as its drawing's proportions make it.
        var style = TextStyle()
        style.symbol = "heart"
        #expect(PointMetrics().width(of: "♡", style: style) == 22 && PointMetrics().lineHeight(style) == 21)
        style.symbol = "photo"
        #expect(PointMetrics().width(of: "🖼", style: style) == 26, "a landscape frame, wider than tall")
        // The terminal draws the glyph.
        #expect(TerminalRenderer(colorMode: .none, appearance: .light).render(view(#"{"view":"image","systemName":"heart.fill"}"#), family: .systemSmall).joined().contains("♥"))
    }
}
