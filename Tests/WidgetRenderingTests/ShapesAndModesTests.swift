import Foundation
import Testing
import WidgetTestSupport
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// Colours and gradients as views and styles, shapes, ViewThatFits, view backgrounds; the rendering
/// modes, privacy redaction and invalidated content.
@Suite struct ShapesAndModesTests {
    let truecolor = TerminalRenderer(colorMode: .truecolor, appearance: .light)

    func placed(_ json: String, in size: (Double, Double), layout: Layout = Layout(metrics: TerminalMetrics())) -> [PlacedElement] {
        layout.place(view(json), in: size)
    }

    /// The text of the placed text elements, in order.
    func texts(_ elements: [PlacedElement]) -> [String] {
        elements.compactMap { if case .text(let text, _) = $0.content { text } else { nil } }
    }

    func styles(_ elements: [PlacedElement]) -> [TextStyle] {
        elements.compactMap { if case .text(_, let style) = $0.content { style } else { nil } }
    }

    @Test func aColorFillsWhatItIsOfferedAndShapesShareAStackAfterText() {
        // Color in a ZStack: a backdrop the size of the ZStack's offer.
        let backdrop = placed(##"{"view":"zstack","children":[{"view":"shape","shape":"rectangle","fill":"#102030"},{"view":"text","text":"hi"}]}"##, in: (20, 10))
        #expect(backdrop[0].rect == LayoutRect(x: 0, y: 0, width: 20, height: 10))
        #expect(backdrop[0].content == .fill(.color("#102030"), .rectangle))
        #expect(backdrop[1].rect == LayoutRect(x: 9, y: 4, width: 2, height: 1))
        // ZStack(alignment:) places its layers by it, as background(alignment:) { ... } does.
        let cornered = placed(
            ##"{"view":"zstack","alignment":"bottomTrailing","children":[{"view":"shape","shape":"rectangle","fill":"#102030"},{"view":"text","text":"hi"}]}"##,
            in: (20, 10))
        #expect(cornered[1].rect == LayoutRect(x: 18, y: 9, width: 2, height: 1))
        // In an HStack the text keeps its width and the circle takes the rest.
        let row = placed(#"{"view":"hstack","spacing":0,"children":[{"view":"text","text":"abc"},{"view":"shape","shape":"circle","fill":"red"}]}"#, in: (20, 4))
        #expect(row.map(\.rect) == [LayoutRect(x: 0, y: 1, width: 3, height: 1), LayoutRect(x: 3, y: 0, width: 17, height: 4)])
        #expect(row[1].content == .fill(.color("red"), .circle))
        // A colour is the most flexible: the text is offered an equal share first, as SwiftUI's
        // stacks do, and the colour takes what the text leaves.
        let json = #"{"view":"hstack","spacing":0,"children":[{"view":"text","text":"Price 42000"},{"view":"shape","shape":"rectangle","fill":"red"}]}"#
        let wide = placed(json, in: (30, 4))
        #expect(texts(wide) == ["Price 42000"])
        #expect(wide.last?.rect.width == 19)
        let narrow = placed(json, in: (20, 4))
        #expect(texts(narrow) == ["Price", "42000"], "offered half of 20, the text wraps")
        #expect(narrow.last?.rect.width == 15)
        // An unfilled shape takes the foreground colour; the clear colour draws nothing.
        let unfilled = placed(#"{"view":"shape","shape":"capsule","modifiers":[{"foregroundStyle":"green"}]}"#, in: (6, 2))
        #expect(unfilled.first?.content == .fill(.color("green"), .capsule))
        #expect(placed(#"{"view":"shape","shape":"rectangle","fill":"clear"}"#, in: (6, 2)).isEmpty)
        // An inset container-relative shape is drawn inside its bounds: 8 points are a cell across and half a row down.
        let inset = placed(#"{"view":"shape","shape":"containerRelative","inset":16,"fill":"blue"}"#, in: (20, 10))
        #expect(inset.first?.rect == LayoutRect(x: 2, y: 1, width: 16, height: 8))
    }

    /// A translucent container background lies on the system background, as on iOS, so the page
    /// the drawing is shown on does not show through; an opaque one is drawn alone.
    @Test func aTranslucentContainerBackgroundLiesOnTheSystemBackground() {
        let translucent = SVGRenderer(appearance: .dark).render(
            view(#"{"view":"text","text":"x","modifiers":[{"containerBackground":"blue/0.3"}]}"#), family: .systemSmall)
        #expect(translucent.contains(##"Z" fill="#1c1c1e"/>\##n<path d="M33.6 0 "##) && translucent.contains(##"Z" fill="#0a84ff" fill-opacity="0.3"/>"##), "\(translucent)")
        let opaque = SVGRenderer(appearance: .dark).render(
            view(#"{"view":"text","text":"x","modifiers":[{"containerBackground":"blue"}]}"#), family: .systemSmall)
        #expect(!opaque.contains("#1c1c1e"))
    }

    /// A linear capacity gauge is a 16-point capsule, a progress view's bar 4 points, each on a
    /// translucent grey track, as iOS draws them.
    @Test func aLinearCapacityGaugeIsASixteenPointCapsule() {
        let points = Layout(metrics: PointMetrics())
        func bar(_ json: String) -> PlacedElement? {
            points.place(view(json), in: (158, 158)).first { if case .bar = $0.content { true } else { false } }
        }
        let gauge = bar(#"{"view":"gauge","value":0.4,"modifiers":[{"gaugeStyle":"linearCapacity"}]}"#)
        #expect(gauge?.rect.height == 16)
        #expect(bar(#"{"view":"progress","value":0.4}"#)?.rect.height == 4)
        let svg = SVGRenderer(appearance: .light).render(view(#"{"view":"gauge","value":0.4,"modifiers":[{"gaugeStyle":"linearCapacity"}]}"#), family: .systemSmall)
        #expect(svg.contains(##"height="16" rx="8" fill="#767680" fill-opacity="0.12"/>"##), "iOS's tertiary system fill: \(svg)")
        // Its label stands 9 points clear of the capsule (its baseline 14.7 above it; iOS 14.3).
        let labelled = points.place(
            view(#"{"view":"gauge","value":0.4,"modifiers":[{"gaugeStyle":"linearCapacity"}],"children":[{"view":"text","text":"Battery"}]}"#), in: (158, 158))
        let label = labelled.first { if case .text = $0.content { true } else { false } }
        let capsule = labelled.first { if case .bar = $0.content { true } else { false } }
        if let label, let capsule {
            #expect(capsule.rect.y - (label.rect.y + label.rect.height) == 9, "\(label.rect) \(capsule.rect)")
        } else {
            Issue.record("no label or capsule: \(labelled)")
        }
    }

    /// Each gauge style as iOS draws it: accessory linear capacity a 6-point capsule, accessory
    /// linear a track with a dot at the value (in SVG a circle; in a terminal ● on ─); bounds labels
    /// flank the bar, the least at its start, the greatest at its end.
    @Test func everyLinearGaugeStyleIsDrawnAsIOSDrawsIt() {
        let points = Layout(metrics: PointMetrics())
        func placed(_ style: String, labels: String = "") -> [PlacedElement] {
            points.place(view(#"{"view":"gauge","value":0.25,"min":0,"max":1\#(labels),"modifiers":[{"gaugeStyle":"\#(style)"}]}"#), in: (158, 158))
        }
        func bar(_ elements: [PlacedElement]) -> PlacedElement? { elements.first { if case .bar = $0.content { true } else { false } } }
        #expect(bar(placed("accessoryLinearCapacity"))?.rect.height == 6)
        let linear = bar(placed("accessoryLinear"))
        #expect(linear?.rect.height == 8)
        #expect(linear?.content == .bar(0.25, tint: "accent", marker: true))
        let svg = SVGRenderer(appearance: .light).render(view(#"{"view":"gauge","value":0.25,"min":0,"max":1,"modifiers":[{"gaugeStyle":"accessoryLinear"}]}"#), family: .systemSmall)
        #expect(svg.contains("<circle cx="), "\(svg)")
        let terminal = TerminalRenderer(colorMode: .none, appearance: .light).grid(
            view(#"{"view":"gauge","value":0.25,"min":0,"max":1,"modifiers":[{"gaugeStyle":"accessoryLinear"}]}"#), family: .systemMedium)
        let row = terminal.map { $0.map(\.text).joined() }.first { $0.contains("●") } ?? ""
        #expect(row.contains("─●─") || row.contains("─●"), "\(row)")
        let labelled = placed("linearCapacity", labels: #","minimumLabel":"0","maximumLabel":"100""#)
        let texts = labelled.compactMap { element -> (String, Double)? in if case .text(let text, _) = element.content { (text, element.rect.x) } else { nil } }
        let barX = bar(labelled)?.rect.x ?? 0
        #expect(texts.count == 2 && texts[0].0 == "0" && texts[0].1 < barX && texts[1].0 == "100" && texts[1].1 > barX, "\(texts) bar at \(barX)")
    }

    /// An open ring's bounds labels sit in its opening, the least at the left end of its arc, the
    /// greatest at the right, below its middle.
    @Test func anOpenRingsBoundsLabelsSitInItsOpening() {
        let placed = Layout(metrics: PointMetrics()).place(
            view(#"{"view":"gauge","value":20,"min":0,"max":100,"minimumLabel":"0","maximumLabel":"100","modifiers":[{"gaugeStyle":"accessoryCircular"}]}"#),
            in: (72, 72))
        let texts = placed.compactMap { element -> (String, LayoutRect)? in if case .text(let text, _) = element.content { (text, element.rect) } else { nil } }
        let low = texts.first { $0.0 == "0" }, high = texts.first { $0.0 == "100" }
        #expect(low != nil && high != nil, "\(texts)")
        if let low, let high {
            #expect(low.1.x < high.1.x && low.1.y > 36 && high.1.y > 36, "\(texts)")
        }
        // Offered more room than it needs, the ring with its labels takes its own size, the labels
        // beside its ends, not at the far edges of what was offered.
        let wide = Layout(metrics: PointMetrics()).place(
            view(#"{"view":"gauge","value":20,"min":0,"max":100,"minimumLabel":"0","maximumLabel":"100","modifiers":[{"gaugeStyle":"accessoryCircular"}]}"#),
            in: (300, 72))
        let xs = wide.compactMap { element -> Double? in if case .text(let text, _) = element.content, text == "0" || text == "100" { element.rect.x } else { nil } }
        #expect(xs.count == 2 && xs.allSatisfy { $0 > 100 && $0 < 200 }, "\(xs)")
    }

    /// A ring's value shrinks to fit inside the ring, as iOS sets it, instead of being cut.
    @Test func aRingsValueShrinksToFitInsideIt() {
        let placed = Layout(metrics: PointMetrics()).place(
            view(#"{"view":"gauge","value":0.5,"min":0,"max":1,"children":[{"view":"gaugeValue","children":[{"view":"text","text":"12345"}]}],"modifiers":[{"gaugeStyle":"accessoryCircularCapacity"}]}"#),
            in: (50, 50))
        let value = placed.compactMap { element -> (String, Double, LayoutRect)? in
            if case .text(let text, let style) = element.content { (text, style.points, element.rect) } else { nil }
        }.first
        #expect(value?.0 == "12345", "whole, not cut: \(String(describing: value))")
        #expect((value?.1 ?? 17) < 17, "smaller than its 17 points")
        if let rect = value?.2 { #expect(rect.x >= 4 && rect.x + rect.width <= 46, "inside the ring's line: \(rect)") }
    }

    /// Corners as iOS draws them: the widget's outline and a rounded rectangle (continuous, the
    /// default) leave each side 1.53 radii from the corner and bend along Bézier curves; a
    /// `.circular` one is an arc (an SVG rect's rx).
    @Test func cornersAreContinuousAsIOSDrawsThem() {
        let svg = SVGRenderer(appearance: .light).render(
            view(#"{"view":"vstack","children":[{"view":"shape","shape":"roundedRectangle","cornerRadius":10,"fill":"red"},{"view":"shape","shape":"roundedRectangle","cornerRadius":10,"style":"circular","fill":"blue"}]}"#),
            family: .systemSmall)
        #expect(xmlProblem(svg) == nil)
        #expect(svg.contains(#"<path d="M33.6 0 L124.4 0 C134.1 0 138.9 0 144.1 1.6 C149.8 3.7 154.3 8.2 156.4 13.9"#), "the outline, 22 points: \(svg)")
        #expect(!svg.contains(#"rx="22""#))
        #expect(svg.contains(##"fill="#ff3b30""##) && svg.components(separatedBy: "<path d=").count >= 3, "the continuous shape is a path")
        #expect(svg.contains(##" rx="10" fill="#007aff""##), "the circular one an arc")
    }

    /// `mask { ... }` draws the view only where the mask is opaque: in SVG a mask by alpha, the mask
    /// itself not shown; a terminal and plain text show the view whole, not the mask.
    @Test func aMaskShowsTheViewWhereTheMaskIsOpaque() {
        let json = #"{"view":"mask","children":[{"view":"shape","shape":"rectangle","fill":"orange"},{"view":"text","text":"MASK"}]}"#
        let svg = SVGRenderer(appearance: .light).render(view(json), family: .systemSmall)
        #expect(xmlProblem(svg) == nil)
        let begin = svg.range(of: #"<mask id="effect1" mask-type="alpha">"#)
        let end = svg.range(of: ##"</mask><g mask="url(#effect1)">"##)
        #expect(begin != nil && end != nil)
        if let begin, let end {
            #expect(svg[begin.upperBound..<end.lowerBound].contains(">MASK</text>"), "the mask's drawing is inside the mask")
            #expect(svg[end.upperBound...].contains(##"fill="#ff9500""##), "the view after it, masked")
        }
        #expect(PlainTextRenderer.lines(view(json)).isEmpty, "plain text: the view (a shape), not the mask's text")
        let cells = TerminalRenderer(colorMode: .none, appearance: .light).render(view(json), family: .systemSmall).joined()
        #expect(!cells.contains("MASK"))
    }

    /// A toggle is its label and a switch, as iOS draws one: a 51-by-31 capsule in the tint (green
    /// by default) when on, grey when off, the white knob at the end it is set to; as a button
    /// (`.toggleStyle(.button)`), bordered, prominent when on.
    @Test func aToggleIsDrawnAsASwitch() throws {
        let points = Layout(metrics: PointMetrics())
        func fills(_ json: String) -> [(Paint, ShapeKind, LayoutRect)] {
            points.place(view(json), in: (338, 158)).compactMap { if case .fill(let paint, let shape) = $0.content { (paint, shape, $0.rect) } else { nil } }
        }
        let on = fills(#"{"view":"toggle","isOn":true,"children":[{"view":"text","text":"Lights"}]}"#)
        let track = try #require(on.first { $0.1 == .capsule })
        let knob = try #require(on.first { $0.1 == .circle })
        #expect(track.0 == .color("green") && track.2.width == 51 && track.2.height == 31)
        #expect(knob.0 == .color("white") && knob.2.width == 27 && knob.2.x + knob.2.width == track.2.x + track.2.width - 2, "the knob at the right, 2 points in")
        let off = fills(#"{"view":"toggle","isOn":false,"modifiers":[{"tint":"orange"}],"children":[{"view":"text","text":"Lights"}]}"#)
        #expect(off.first { $0.1 == .capsule }?.0 == .color("quaternary"))
        #expect(off.first { $0.1 == .circle }.map { $0.2.x - off.first { $0.1 == .capsule }!.2.x } == 2, "the knob at the left")
        let tinted = fills(#"{"view":"toggle","isOn":true,"modifiers":[{"tint":"orange"}],"children":[{"view":"text","text":"Lights"}]}"#)
        #expect(tinted.first { $0.1 == .capsule }?.0 == .color("orange"))
        // The label comes first, the switch at the trailing edge.
        let texts = points.place(view(#"{"view":"toggle","isOn":true,"children":[{"view":"text","text":"Lights"}]}"#), in: (338, 158))
            .compactMap { if case .text(let text, _) = $0.content { ($0.rect, text) } else { nil } }
        #expect(texts.first?.1 == "Lights" && (texts.first.map { $0.0.x + $0.0.width } ?? 999) < track.2.x)
        // As a button: a rounded rectangle in the tint when on.
        let button = fills(#"{"view":"toggle","isOn":true,"modifiers":[{"toggleStyle":"button"}],"children":[{"view":"text","text":"Lights"}]}"#)
        #expect(button.first?.1 == .roundedRectangle(cornerRadius: 6) && button.first?.0 == .color("accent"))
    }

    /// `.bordered` is a grey rounded rectangle behind a label in the tint, `.borderedProminent` one
    /// in the tint behind a white label, as iOS 17 draws them in a widget; a label's own colour wins.
    @Test func borderedButtonsAreDrawnAsIOSDrawsThem() {
        let points = Layout(metrics: PointMetrics())
        func look(_ style: String, tint: String? = nil, label: String = #"{"view":"text","text":"Heal"}"#) -> (fill: PlacedElement.Content?, text: TextStyle?) {
            var modifiers = [#"{"buttonStyle":"\#(style)"}"#]
            if let tint { modifiers.append(#"{"tint":"\#(tint)"}"#) }
            let json = #"{"view":"button","children":[\#(label)],"modifiers":[\#(modifiers.joined(separator: ","))]}"#
            let elements = points.place(view(json), in: (158, 158))
            let fill = elements.first { if case .fill = $0.content { true } else { false } }?.content
            return (fill, styles(elements).first)
        }
        let bordered = look("bordered")
        #expect(bordered.fill == .fill(.color("gray/0.2"), .roundedRectangle(cornerRadius: 6)))
        #expect(bordered.text?.color == "accent")
        let tinted = look("bordered", tint: "red")
        #expect(tinted.text?.color == "red", "the label in the tint")
        let prominent = look("borderedProminent", tint: "green")
        #expect(prominent.fill == .fill(.color("green"), .roundedRectangle(cornerRadius: 6)))
        #expect(prominent.text?.color == "white")
        let own = look("bordered", label: #"{"view":"text","text":"Heal","modifiers":[{"foregroundColor":"orange"}]}"#)
        #expect(own.text?.color == "orange", "a label's own colour wins")
        #expect(look("plain").fill == nil && look("plain").text?.color == nil)
    }

    /// Rotation, scale, shadow and blur are drawn in SVG about the view's own frame, which keeps its
    /// place in the layout; a terminal draws the view as laid out.
    @Test func effectsAreDrawnAboutTheViewsFrameWhichKeepsItsPlace() throws {
        let hand = #"{"view":"shape","shape":"capsule","fill":"red","modifiers":[{"frame":{"width":4,"height":60}},"#
            + #"{"rotationEffect":{"degrees":90,"anchorX":0.5,"anchorY":1}}]}"#
        let svg = SVGRenderer(appearance: .light).render(view(hand), family: .systemSmall)
        #expect(xmlProblem(svg) == nil)
        // The frame is 4 by 60 in the middle of the 158-point widget: turned about its bottom centre.
        #expect(svg.contains(##"<g transform="rotate(90 79 109)">"##), "\(svg)")
        let points = Layout(metrics: PointMetrics())
        let laid = points.place(view(hand), in: (158, 158))
        let unturned = points.place(view(#"{"view":"shape","shape":"capsule","fill":"red","modifiers":[{"frame":{"width":4,"height":60}}]}"#), in: (158, 158))
        #expect(laid.filter { if case .fill = $0.content { true } else { false } }.map(\.rect) == unturned.map(\.rect), "laid out in place")

        let scaled = SVGRenderer(appearance: .dark).render(
            view(#"{"view":"text","text":"Hi","modifiers":[{"scaleEffect":{"x":2,"y":2,"anchorX":0,"anchorY":0}},{"shadow":{"color":"black/0.5","radius":6,"x":0,"y":2}},{"blur":{"radius":4}}]}"#),
            family: .systemSmall)
        #expect(xmlProblem(scaled) == nil)
        #expect(scaled.contains(" scale(2 2) "), "\(scaled)")
        #expect(scaled.contains(##"<feDropShadow dx="0" dy="2" stdDeviation="3" flood-color="#000000" flood-opacity="0.5"/>"##), "\(scaled)")
        #expect(scaled.contains(##"<feGaussianBlur stdDeviation="2"/>"##))
        #expect(scaled.components(separatedBy: "<g").count == scaled.components(separatedBy: "</g>").count, "every group closed")
        // A blend mode: a CSS property, by style for an image of its own and by class for the page.
        let blended = SVGRenderer(appearance: .light).render(view(#"{"view":"text","text":"Hi","modifiers":[{"blendMode":"colorDodge"}]}"#), family: .systemSmall)
        #expect(blended.contains(##"<g class="blend-color-dodge" style="mix-blend-mode: color-dodge">"##))
        // No effect at all: nothing added.
        let plain = SVGRenderer(appearance: .light).render(view(#"{"view":"text","text":"Hi","modifiers":[{"rotationEffect":{"degrees":360}},{"scaleEffect":{"x":1,"y":1}}]}"#), family: .systemSmall)
        #expect(!plain.contains("transform=\"rotate") && !plain.contains("scale("))
        // The terminal draws the turned view as laid out, saying nothing false.
        #expect(truecolor.render(view(hand), family: .systemSmall) == truecolor.render(view(#"{"view":"shape","shape":"capsule","fill":"red","modifiers":[{"frame":{"width":4,"height":60}}]}"#), family: .systemSmall))
    }

    /// `Color.clear` in a gradient is no colour: the colour beside it fades out (each side's own
    /// between two), as SwiftUI draws it, never a band of the background's colour.
    @Test func clearInAGradientFadesTheColourBesideIt() throws {
        func gradient(_ colors: [String]) -> ViewNode {
            let stops = colors.enumerated().map { index, color in
                JSONValue.object(JSONObject([("color", .string(color)), ("location", .number(Double(index) / Double(colors.count - 1)))]))
            }
            let line: [(key: String, value: JSONValue)] = [
                ("stops", .array(stops)), ("startPoint", .array([.number(0), .number(0.5)])), ("endPoint", .array([.number(1), .number(0.5)])),
            ]
            let paint = JSONValue.object(JSONObject([("linearGradient", .object(JSONObject(line)))]))
            return ViewNode("text", attributes: JSONObject([("text", .string("x"))]), modifiers: [ViewModifierNode("containerBackground", paint)])
        }
        let fading = SVGRenderer(appearance: .dark).render(gradient(["red", "clear"]), family: .systemSmall)
        #expect(xmlProblem(fading) == nil)
        #expect(fading.contains(##"<stop offset="0" stop-color="#ff453a"/><stop offset="1" stop-color="#ff453a" stop-opacity="0"/>"##), "\(fading)")
        let between = SVGRenderer(appearance: .light).render(gradient(["red", "clear", "blue"]), family: .systemSmall)
        #expect(between.contains(##"<stop offset="0.5" stop-color="#ff3b30" stop-opacity="0"/><stop offset="0.5" stop-color="#007aff" stop-opacity="0"/>"##), "\(between)")
        #expect(!between.contains(##"stop-color="#ffffff""##), "never the background's colour in the gradient")
    }

    @Test func aGradientBlendsAlongItsLine() throws {
        let json = JSONValue.object(
            JSONObject([
                (
                    "linearGradient",
                    .object(
                        JSONObject([
                            ("stops", .array([.object(JSONObject([("color", .string("#ff0000")), ("location", .number(0))])), .object(JSONObject([("color", .string("#0000ff")), ("location", .number(1))]))])),
                            ("startPoint", .array([.number(0), .number(0.5)])), ("endPoint", .array([.number(1), .number(0.5)])),
                        ]))
                )
            ]))
        let paint = try #require(Paint(json))
        #expect(paint.rgb(x: 0, y: 0.5, .light) == (255, 0, 0) as (Int, Int, Int))
        #expect(paint.rgb(x: 0.5, y: 0.9, .light) == (128, 0, 128) as (Int, Int, Int), "halfway across, whatever the height")
        #expect(paint.rgb(x: 1.2, y: 0.5, .light) == (0, 0, 255) as (Int, Int, Int), "beyond the end: the last colour")
        #expect(Paint(.object(JSONObject([("linearGradient", .object(JSONObject([("stops", .array([]))])))]))) == nil, "no stops: not a paint")

        // As a background in the terminal: a colour per cell, red at the leading edge, blue at the trailing one.
        let tree = ViewNode("text", attributes: JSONObject([("text", .string("x"))]), modifiers: [ViewModifierNode("containerBackground", json)])
        let row = truecolor.render(tree, family: .systemSmall)[1]
        #expect(row.contains("48;2;249;0;6m"), "the first cell's centre, 1/40 of the way")
        #expect(row.contains("48;2;6;0;249m"), "the last cell's")
        // In SVG: a gradient definition, and the widget's outline filled with it.
        let svg = SVGRenderer(appearance: .light).render(tree, family: .systemSmall)
        #expect(xmlProblem(svg) == nil)
        #expect(svg.contains(##"<linearGradient id="gradient1" x1="0" y1="0.5" x2="1" y2="0.5"><stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/>"##))
        #expect(svg.contains(##"Z" fill="url(#gradient1)"/>"##))
        // Text painted with a gradient gets one too.
        var painted = tree
        painted.modifiers = [ViewModifierNode("foregroundStyle", json)]
        let text = SVGRenderer(appearance: .light).render(painted, family: .systemSmall)
        #expect(xmlProblem(text) == nil)
        #expect(text.contains(##"fill="url(#gradient1)" xml:space="preserve">x</text>"##))
    }

    @Test func shapesDrawTheirOutlinesInSVGAndTheirCellsInTheTerminal() {
        let tree = view(
            #"""
            {"view":"vstack","spacing":0,"children":[
              {"view":"shape","shape":"circle","fill":"red","modifiers":[{"frame":{"width":40,"height":40}}]},
              {"view":"shape","shape":"roundedRectangle","cornerRadius":8,"fill":"green","modifiers":[{"frame":{"width":80,"height":30}}]},
              {"view":"shape","shape":"containerRelative","fill":"blue","modifiers":[{"frame":{"width":146,"height":40}}]}]}
            """#)
        let svg = SVGRenderer(appearance: .light).render(tree, family: .systemSmall)
        #expect(xmlProblem(svg) == nil)
        #expect(svg.contains(##"<ellipse cx="79" cy="44" rx="20" ry="20" fill="#ff3b30"/>"##))
        #expect(svg.contains(##"Z" fill="#34c759"/>"##), "a rounded rectangle, its corners continuous")
        // 6 points in from the widget's edges, so its corners are 22 - 6 = 16 round: concentric
        // (on a bar 40 high, held to 13.1, so that the curves, 1.53 radii long, meet).
        #expect(svg.contains(##"<path d="M26 94 L132 94 "##) && svg.contains(##"Z" fill="#007aff"/>"##), "\(svg)")
        // The terminal fills a circle's cells that lie inside it: a round blob, not its square.
        let circle = view(#"{"view":"shape","shape":"circle","fill":"red"}"#)
        let cells = TerminalRenderer(colorMode: .none, appearance: .light).grid(circle, family: .systemSmall)
        let filled = cells.dropFirst().dropLast().map { row in row.filter { $0.fill == "red" }.count }
        #expect(filled.max() == 16, "as wide as the content at its middle: the widget less its margins, 2 columns a side")
        #expect(filled.first! < 10 && filled.last! < 10, "narrow at the top and bottom")
    }

    @Test func viewThatFitsShowsTheFirstChildThatFits() {
        let json = #"""
            {"view":"viewThatFits","axes":["horizontal"],"children":[
              {"view":"text","text":"Unipony leads with 1200 points"},
              {"view":"text","text":"Unipony 1200"},
              {"view":"text","text":"1200"}]}
            """#
        #expect(texts(placed(json, in: (40, 5))) == ["Unipony leads with 1200 points"])
        #expect(texts(placed(json, in: (20, 5))) == ["Unipony 1200"])
        // None fits: the last, cut to the space.
        #expect(texts(placed(json, in: (3, 1))) == ["12…"])
        // Along the vertical axis only, a long text may wrap: the first fits in three lines.
        let vertical = json.replacingOccurrences(of: #"["horizontal"]"#, with: #"["vertical"]"#)
        #expect(texts(placed(vertical, in: (12, 3))) == ["Unipony", "leads with", "1200 points"])
        #expect(texts(placed(vertical, in: (12, 1))) == ["Unipony 1200"])
    }

    @Test func aBackgroundViewIsSizedToItsContent() {
        let tree = #"""
            {"view":"background","alignment":"bottomTrailing","children":[
              {"view":"text","text":"score","modifiers":[{"padding":{"top":16,"leading":8,"bottom":0,"trailing":8}}]},
              {"view":"shape","shape":"capsule","fill":"orange","modifiers":[{"frame":{"width":16,"height":16}}]}]}
            """#
        let elements = placed(tree, in: (20, 10))
        // The text's padded box is 7 × 2 cells, centred; the 2 × 1 capsule sits in its bottom trailing corner.
        #expect(elements.map(\.rect) == [LayoutRect(x: 11, y: 5, width: 2, height: 1), LayoutRect(x: 7, y: 5, width: 5, height: 1)])
        #expect(elements[0].content == .fill(.color("orange"), .capsule), "behind: drawn first")
    }

    @Test func renderingModesRecolourAsIOSDoes() {
        let tree = view(
            #"""
            {"view":"vstack","modifiers":[{"containerBackground":"indigo"}],"children":[
              {"view":"text","text":"Title","modifiers":[{"foregroundStyle":"orange"},{"widgetAccentable":true}]},
              {"view":"text","text":"body","modifiers":[{"foregroundStyle":"red"}]},
              {"view":"text","text":"note","modifiers":[{"foregroundStyle":"secondary"}]},
              {"view":"shape","shape":"rectangle","fill":"green"}]}
            """#)
        func look(_ mode: RenderingEnvironment.RenderingMode) -> (colors: [String?], fill: Paint?, background: Paint?) {
            let layout = Layout(metrics: TerminalMetrics(), environment: .standard(for: .systemSmall, mode: mode))
            let elements = layout.place(tree, in: (20, 10))
            let fill = elements.compactMap { if case .fill(let paint, _) = $0.content { paint } else { nil } }.first
            return (styles(elements).map(\.color), fill, layout.containerBackground(of: tree))
        }
        let full = look(.fullColor)
        #expect(full.colors == ["orange", "red", "secondary"])
        #expect(full.fill == .color("green") && full.background == .color("indigo"))
        // Accented: the accentable in the accent colour, the rest primary; the system's background.
        let accented = look(.accented)
        #expect(accented.colors == ["accent", nil, "secondary"])
        #expect(accented.fill == .color("#a0a0a0") && accented.background == nil)
        // Vibrant: shades of grey by luminance (orange 161, red 100, green 160).
        let vibrant = look(.vibrant)
        #expect(vibrant.colors == ["#a1a1a1", "#646464", "secondary"])
        #expect(vibrant.fill == .color("#a0a0a0"))
        // Accessory families are vibrant, and without their container background, unless asked.
        #expect(TerminalRenderer(colorMode: .none, appearance: .dark).environment(for: .accessoryRectangular)
            == RenderingEnvironment(colorScheme: .dark, renderingMode: .vibrant, showsContainerBackground: false))
        #expect(TerminalRenderer(colorMode: .none, appearance: .dark, renderingMode: .accented).environment(for: .systemSmall)
            == RenderingEnvironment(colorScheme: .dark, renderingMode: .accented, showsContainerBackground: true))
    }

    @Test func privacySensitiveViewsAreRedactedWhenLocked() {
        let tree = view(
            #"""
            {"view":"vstack","children":[
              {"view":"text","text":"Balance"},
              {"view":"text","text":"1 234 €","modifiers":[{"privacySensitive":true}]}]}
            """#)
        let plain = TerminalRenderer(colorMode: .none, appearance: .light)
        let unlocked = plain.render(tree, family: .systemSmall).joined(separator: "\n")
        #expect(unlocked.contains("1 234 €"))
        var locked = plain
        locked.isLocked = true
        let shown = locked.render(tree, family: .systemSmall).joined(separator: "\n")
        #expect(shown.contains("Balance"), "only what is marked is hidden")
        #expect(!shown.contains("1 234") && shown.contains("▆ ▆▆▆ ▆"))
        // redacted(reason: .privacy) redacts the marked views beneath it, locked or not.
        var underPrivacy = tree
        underPrivacy.modifiers.append(ViewModifierNode("redacted", .string("privacy")))
        let redacted = plain.render(underPrivacy, family: .systemSmall).joined(separator: "\n")
        #expect(redacted.contains("Balance") && !redacted.contains("1 234"))
        // The same in the plain text of the log.
        #expect(PlainTextRenderer.lines(tree) == ["Balance", "1 234 €"])
        #expect(PlainTextRenderer.lines(tree, locked: true) == ["Balance", "▆ ▆▆▆ ▆"])
        #expect(PlainTextRenderer.lines(underPrivacy) == ["Balance", "▆ ▆▆▆ ▆"])
    }

    @Test func invalidatedContentShowsAsStaleUntilTheReload() {
        let tree = view(
            #"{"view":"vstack","children":[{"view":"text","text":"HP 40","modifiers":[{"invalidatableContent":true},{"foregroundStyle":"green"}]},{"view":"text","text":"Heal"}]}"#)
        let fresh = Layout(metrics: TerminalMetrics()).place(tree, in: (20, 10))
        #expect(styles(fresh).map(\.color) == ["green", nil])
        let stale = Layout(metrics: TerminalMetrics(), isInvalidated: true).place(tree, in: (20, 10))
        #expect(styles(stale).map(\.color) == ["secondary", nil])
    }

    @Test func aFailureBesideTheLastGoodEntryIsShownNotSilent() {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_800_000_000))
        let dashboard = Dashboard(renderer: TerminalRenderer(colorMode: .none, appearance: .dark), clock: clock, width: 80) { _ in }
        let entry = WireEntry(date: 0, view: ViewNode("text", attributes: JSONObject([("text", .string("Unipony"))])))
        dashboard.show(id: "char-1", family: .systemSmall, title: "Character", status: InstanceStatus(phase: .showing, entry: entry, timelines: 1))
        #expect(!dashboard.text.contains("failed"))
        let failure = #"widget "com.mygame.character-detail" (libGameWidgets.so): parameter "character": no entity "unipony" (the query no longer returns it)"#
        dashboard.show(
            id: "char-1", family: .systemSmall, title: "Character",
            status: InstanceStatus(phase: .showing, entry: entry, timelines: 1, lastFailure: failure))
        let lines = dashboard.text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("Unipony") }, "the last good entry still shows")
        #expect(lines[11].hasPrefix("╰─ as of "), "its box's bottom edge says how old what it shows is")
        #expect(lines.last == "char-1: \(failure)".prefix(80).description, "and the message line has the reason")
    }
}

extension ShapesAndModesTests {
    @Test func gradientsAreSafeWithOneStopFarPointsAndClear() throws {
        func gradient(_ stops: String, start: String = "[0,0]", end: String = "[1,0]") throws -> Paint {
            let json = try JSONValue.parse(#"{"linearGradient":{"stops":[\#(stops)],"startPoint":\#(start),"endPoint":\#(end)}}"#)
            return try #require(Paint(json))
        }
        // One stop, points far away: one colour, no arithmetic gone to infinity.
        let lone = try gradient(##"{"color":"#102030","location":0.5}"##, start: "[1e200,0]", end: "[-1e200,3]")
        #expect(lone.rgb(x: 0.3, y: 0.7, .light) == (16, 32, 48) as (Int, Int, Int))
        // Fading to clear fades to the background the widget is drawn on.
        let fade = try gradient(##"{"color":"#000000","location":0},{"color":"clear","location":1}"##)
        #expect(fade.rgb(x: 1, y: 0, .dark) == (28, 28, 30) as (Int, Int, Int))
        #expect(fade.rgb(x: 1, y: 0, .light) == (255, 255, 255) as (Int, Int, Int))
    }

    @Test func gradientIdsDifferBetweenImagesOfOnePage() {
        let tree = view(##"{"view":"shape","shape":"rectangle","fill":{"linearGradient":{"stops":[{"color":"red","location":0},{"color":"blue","location":1}],"startPoint":[0,0],"endPoint":[0,1]}}}"##)
        let first = SVGRenderer(appearance: .light).render(tree, family: .systemSmall, idPrefix: "w1-")
        let second = SVGRenderer(appearance: .light).render(tree, family: .systemSmall, idPrefix: "w2-")
        #expect(first.contains(#"id="w1-gradient1""#) && first.contains("url(#w1-gradient1)"))
        #expect(second.contains(#"id="w2-gradient1""#) && !second.contains("w1-"))
    }

    @Test func aSmallFrameIsAtLeastOneCell() {
        // A 12-point dot is three quarters of a row: drawn as one cell, not lost.
        let dot = placed(#"{"view":"shape","shape":"circle","fill":"orange","modifiers":[{"frame":{"width":12,"height":12}}]}"#, in: (20, 10))
        #expect(dot.first?.rect.width == 1 && dot.first?.rect.height == 1)
    }

    @Test func logLinesRedactPrivateTextWhenLocked() {
        let tree = view(#"{"view":"vstack","children":[{"view":"text","text":"Balance"},{"view":"text","text":"1 234 €","modifiers":[{"privacySensitive":true}]}]}"#)
        #expect(PlainTextRenderer.lines(tree) == ["Balance", "1 234 €"])
        #expect(PlainTextRenderer.lines(tree, locked: true) == ["Balance", "▆ ▆▆▆ ▆"])
    }
}
