import Foundation
import Testing
import WidgetTestSupport
import WidgetRendering
import WidgetWire

/// The modifiers and views iOS widgets use, as the layout sizes and places them and the renderers
/// draw them. Trees are written as a bundle sends them.
@Suite struct ModifierLayoutTests {
    let points = Layout(metrics: PointMetrics())
    let cells = Layout(metrics: TerminalMetrics())

    /// The texts placed, with their rectangles.
    func texts(_ layout: Layout, _ json: String, in size: (Double, Double)) -> [(String, LayoutRect, TextStyle)] {
        layout.place(view(json), in: size).compactMap {
            if case .text(let text, let style) = $0.content { return (text, $0.rect, style) }
            return nil
        }
    }

    @Test func fixedSizeKeepsTextOnOneLineBeyondItsFrame() {
        let wrapped = texts(cells, #"{"view":"text","text":"one two three","modifiers":[{"frame":{"width":48}}]}"#, in: (20, 10))
        #expect(wrapped.map(\.0) == ["one", "two", "three"])
        let fixed = texts(
            cells, #"{"view":"text","text":"one two three","modifiers":[{"fixedSize":{"horizontal":true,"vertical":true}},{"frame":{"width":48}}]}"#,
            in: (20, 10))
        #expect(fixed.map(\.0) == ["one two three"])
        #expect(fixed.first?.1.width == 13, "its ideal width, wider than the 6-column frame")
    }

    @Test func aHigherLayoutPriorityIsOfferedTheSpaceFirst() {
        let tree = #"""
            {"view":"hstack","spacing":0,"children":[
              {"view":"text","text":"aaaaaaaaaa","modifiers":[{"lineLimit":1}]},
              {"view":"text","text":"bbbbbbbbbb","modifiers":[{"lineLimit":1}%@]}]}
            """#
        let even = texts(cells, tree.replacingOccurrences(of: "%@", with: ""), in: (12, 1)).map(\.0)
        #expect(even == ["aaaaa…", "bbbbb…"], "equal shares without priorities")
        let favoured = texts(cells, tree.replacingOccurrences(of: "%@", with: #",{"layoutPriority":1}"#), in: (12, 1)).map(\.0)
        #expect(favoured == ["a…", "bbbbbbbbbb"], "the favoured text whole, the other what is left")
    }

    @Test func aspectRatioFitsOrFillsTheOfferAndCountsCellsAsTallerThanWide() {
        func rect(_ layout: Layout, _ mode: String, _ size: (Double, Double)) -> LayoutRect? {
            layout.place(view(#"{"view":"shape","shape":"rectangle","fill":"red","modifiers":[{"aspectRatio":{"ratio":1,"contentMode":"\#(mode)"}}]}"#), in: size)
                .first?.rect
        }
        #expect(rect(points, "fit", (100, 40))?.width == 40)
        #expect(rect(points, "fit", (100, 40))?.height == 40)
        #expect(rect(points, "fill", (100, 40))?.width == 100)
        #expect(rect(points, "fill", (100, 40))?.height == 100)
        // A square in cells is twice as many columns as rows.
        #expect(rect(cells, "fit", (20, 5)).map { ($0.width, $0.height) } ?? (0, 0) == (10, 5))
    }

    @Test func offsetMovesHiddenAndTransparentDrawNothingOpacityFades() {
        let moved = texts(points, #"{"view":"text","text":"x","modifiers":[{"offset":{"x":10,"y":-4}}]}"#, in: (100, 100))
        let still = texts(points, #"{"view":"text","text":"x"}"#, in: (100, 100))
        #expect(moved.first?.1.x == still.first!.1.x + 10)
        #expect(moved.first?.1.y == still.first!.1.y - 4)
        #expect(texts(points, #"{"view":"text","text":"x","modifiers":[{"hidden":true}]}"#, in: (100, 100)).isEmpty)
        #expect(texts(points, #"{"view":"text","text":"x","modifiers":[{"opacity":0}]}"#, in: (100, 100)).isEmpty)
        let faded = texts(points, #"{"view":"text","text":"x","modifiers":[{"foregroundColor":"red"},{"opacity":0.5}]}"#, in: (100, 100))
        #expect(faded.first?.2.color == "red/0.5")
        // A hidden view keeps its place: the text after it is where it would be.
        let stack = #"{"view":"vstack","spacing":0,"children":[{"view":"text","text":"a"%@},{"view":"text","text":"b"}]}"#
        let b1 = texts(cells, stack.replacingOccurrences(of: "%@", with: ""), in: (20, 10)).last?.1
        let b2 = texts(cells, stack.replacingOccurrences(of: "%@", with: #","modifiers":[{"hidden":true}]"#), in: (20, 10)).last?.1
        #expect(b1 == b2)
    }

    @Test func anOverlayIsDrawnInFrontAtItsAlignment() {
        let json = #"""
            {"view":"overlay","alignment":"topTrailing","children":[
              {"view":"shape","shape":"rectangle","fill":"blue","modifiers":[{"frame":{"width":100,"height":50}}]},
              {"view":"shape","shape":"circle","fill":"red","modifiers":[{"frame":{"width":10,"height":10}}]}]}
            """#
        let elements = points.place(view(json), in: (100, 50))
        #expect(elements.count == 2)
        #expect(elements.last?.content == .fill(.color("red"), .circle), "in front: drawn last")
        #expect(elements.last?.rect == LayoutRect(x: 90, y: 0, width: 10, height: 10))
    }

    @Test func aClipShapeBoundsWhatIsDrawn() {
        let json = #"""
            {"view":"shape","shape":"rectangle","fill":"red","modifiers":[{"frame":{"width":80,"height":32}},{"clipShape":{"shape":"roundedRectangle","cornerRadius":8}}]}
            """#
        let svg = SVGRenderer(appearance: .light).render(view(json), family: .systemSmall)
        #expect(svg.contains(##"<clipPath id="clip1"><path d="M51.2 63 L106.8 63 "##) && svg.contains(##"Z" /></clipPath><g clip-path="url(#clip1)">"##), "\(svg)")
        #expect(xmlProblem(svg) == nil)
        // In a terminal, a circle's clip leaves out the cells of its square outside it.
        let circle = #"{"view":"shape","shape":"rectangle","fill":"red","modifiers":[{"clipShape":"circle"}]}"#
        let box = TerminalRenderer(colorMode: .none, appearance: .light).grid(view(circle), family: .systemSmall, contentMarginsDisabled: true)
        let filled = box.dropFirst().dropLast().map { $0.filter { $0.fill == "red" }.count }
        #expect(filled.max() == 20 && filled.first! < 10, "\(filled)")
    }

    @Test func aTrimmedStrokeIsARingInSVGAndTheCellsAlongItInATerminal() {
        let json = #"""
            {"view":"shape","shape":"circle","fill":"clear","stroke":{"paint":"green","lineWidth":8},"trim":[0,0.25],"rotation":-90}
            """#
        let svg = SVGRenderer(appearance: .light).render(view(json), family: .systemSmall, contentMarginsDisabled: true)
        #expect(svg.contains(##"fill="none" stroke="#34c759" stroke-width="8" pathLength="100" stroke-dasharray="25 100" stroke-dashoffset="0""##), "\(svg)")
        #expect(svg.contains(##"transform="rotate(-90 79 79)""##))
        // A quarter turned to start at the top: the cells of the top-right quarter of the ring.
        let box = TerminalRenderer(colorMode: .none, appearance: .light).grid(view(json), family: .systemSmall, contentMarginsDisabled: true)
        var lit: [(column: Int, row: Int)] = []
        for (row, line) in box.dropFirst().dropLast().enumerated() {
            for (column, cell) in line.dropFirst().dropLast().enumerated() where cell.fill == "green" { lit.append((column, row)) }
        }
        #expect(!lit.isEmpty)
        #expect(lit.allSatisfy { $0.column >= 10 && $0.row < 5 }, "\(lit)")
        #expect(!lit.contains { $0.column == 15 && $0.row == 3 }, "not its middle: a ring, not a disc")
    }

    @Test func translucentColoursHaveTheirOpacityInSVGAndBlendInATerminal() {
        let json = #"""
            {"view":"zstack","children":[
              {"view":"shape","shape":"rectangle","fill":"blue"},
              {"view":"shape","shape":"rectangle","fill":"white/0.5"}]}
            """#
        let svg = SVGRenderer(appearance: .light).render(view(json), family: .systemSmall)
        #expect(svg.contains(##"fill="#ffffff" fill-opacity="0.5""##), "\(svg)")
        let box = TerminalRenderer(colorMode: .none, appearance: .light).grid(view(json), family: .systemSmall)
        // Half white over iOS's blue (0, 122, 255).
        #expect(box[5][5].fill == "#80bdff")
    }

    @Test func aRadialGradientIsAnSVGRadialGradient() {
        let json = #"""
            {"view":"shape","shape":"rectangle","fill":{"radialGradient":{"stops":[{"color":"yellow","location":0},{"color":"orange","location":1}],"center":[0.5,0.5],"startRadius":0,"endRadius":50}}}
            """#
        let svg = SVGRenderer(appearance: .light).render(view(json), family: .systemSmall)
        #expect(svg.contains(#"<radialGradient id="gradient1" gradientUnits="userSpaceOnUse" cx="79" cy="79" r="50">"#), "\(svg)")
        #expect(xmlProblem(svg) == nil)
        let box = TerminalRenderer(colorMode: .none, appearance: .light).grid(view(json), family: .systemSmall)
        #expect(box[5][10].fill != box[1][3].fill, "the middle and a corner differ")
    }

    @Test func minimumScaleFactorShrinksTextInPointsAndATerminalCutsIt() {
        let json = #"{"view":"text","text":"A long line of text","modifiers":[{"font":"title"},{"minimumScaleFactor":0.5},{"lineLimit":1}]}"#
        let placed = texts(points, json, in: (150, 100))
        #expect(placed.count == 1)
        #expect(placed.first?.0 == "A long line of text", "whole, smaller")
        #expect((placed.first?.2.points ?? 28) < 28)
        #expect((placed.first?.1.width ?? 999) <= 150)
        let floor = texts(points, json, in: (60, 100))
        #expect(floor.first?.2.points == 14, "no smaller than half")
        #expect(floor.first?.0.hasSuffix("…") == true)
        #expect(texts(cells, json, in: (10, 5)).first?.0 == "A long…")
    }

    @Test func aTextOfPartsFormatsItsDatesAndSymbols() {
        let json = #"""
            {"view":"text","text":"fallback","parts":["Ends in ",{"date":1000,"dateStyle":"timer"}," ",{"systemName":"play.fill"}]}
            """#
        #expect(DateText(timeZone: TimeZone(identifier: "UTC")!).text(of: view(json), now: Date(timeIntervalSince1970: 880)) == "Ends in 2:00 ▶")
        #expect(DateText.isLive(view(json)))
    }

    @Test func labelsShowTheirIconAndTitleOrOneAsTheirStyleSays() {
        let label = #"{"view":"label","children":[{"view":"image","systemName":"star.fill"},{"view":"text","text":"Favourite"}]%@}"#
        #expect(texts(cells, label.replacingOccurrences(of: "%@", with: ""), in: (20, 5)).map(\.0) == ["★", "Favourite"])
        #expect(texts(cells, label.replacingOccurrences(of: "%@", with: #","modifiers":[{"labelStyle":"titleOnly"}]"#), in: (20, 5)).map(\.0) == ["Favourite"])
        #expect(texts(cells, label.replacingOccurrences(of: "%@", with: #","modifiers":[{"labelStyle":"iconOnly"}]"#), in: (20, 5)).map(\.0) == ["★"])
        #expect(PlainTextRenderer.lines(view(label.replacingOccurrences(of: "%@", with: ""))) == ["★ Favourite"])
        let upper = texts(cells, #"{"view":"text","text":"walk","modifiers":[{"textCase":"uppercase"}]}"#, in: (20, 5))
        #expect(upper.first?.0 == "WALK")
    }

    @Test func aCircularGaugeIsARingWithItsValueInTheMiddle() {
        let json = #"""
            {"view":"gauge","value":25,"min":0,"max":100,"children":[{"view":"text","text":"Steps"},{"view":"gaugeValue","children":[{"view":"text","text":"25"}]}],
             "modifiers":[{"gaugeStyle":"accessoryCircularCapacity"},{"tint":"green"}]}
            """#
        let elements = points.place(view(json), in: (72, 72))
        let strokes = elements.compactMap { element -> Stroke? in
            if case .stroke(let stroke, .circle) = element.content { return stroke }
            return nil
        }
        #expect(strokes.count == 2, "the track and the value")
        #expect(strokes.last?.trim == 0...0.25)
        #expect(strokes.last?.paint == .color("green"))
        #expect(strokes.first?.paint == .color("green/0.3"))
        let text = elements.compactMap { element -> (String, LayoutRect)? in
            if case .text(let text, _) = element.content { return (text, element.rect) }
            return nil
        }
        #expect(text.map(\.0) == ["25"], "the current value, not the label")
        #expect(abs((text.first!.1.x + text.first!.1.width / 2) - 36) <= 1, "in the middle")
    }

    @Test func contentMarginsInsetTheRootUnlessDisabled() {
        let json = #"{"view":"text","text":"x","modifiers":[{"frame":{"maxWidth":"infinity","maxHeight":"infinity","alignment":"topLeading"}}]}"#
        let inset = Layout(metrics: PointMetrics(), contentMargin: 16).place(view(json), in: (158, 158))
        #expect(inset.first?.rect.x == 16)
        #expect(inset.first?.rect.y == 16)
        #expect(points.place(view(json), in: (158, 158)).first?.rect.x == 0)
        let terminal = TerminalRenderer(colorMode: .none, appearance: .light)
        #expect(terminal.render(view(json), family: .systemSmall)[2].hasPrefix("│  x"))
        #expect(terminal.render(view(json), family: .systemSmall, contentMarginsDisabled: true)[1].hasPrefix("│x"))
        #expect(terminal.render(view(json), family: .accessoryRectangular)[1].hasPrefix("│x"), "no margins on the Lock Screen")
    }
}
