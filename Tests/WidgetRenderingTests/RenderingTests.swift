import Foundation
import Testing
import WidgetTestSupport
import WidgetRendering
import WidgetWire

/// Compares `text` with the golden file `name`. With `WIDGETS_UPDATE_GOLDENS=1` a golden that
/// differs (or is missing) is rewritten, and the test still fails, naming it: a rewritten golden is
/// a change to review, never a pass.
func expectGolden(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens/\(name)")
    let golden = try? String(contentsOf: url, encoding: .utf8)
    if ProcessInfo.processInfo.environment["WIDGETS_UPDATE_GOLDENS"] == "1" {
        guard text != golden else { return }
        try! text.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("rewrote the golden file \(url.path): review the change, then run the tests without WIDGETS_UPDATE_GOLDENS", sourceLocation: sourceLocation)
        return
    }
    guard let golden else {
        Issue.record("no golden file \(url.path); run the tests with WIDGETS_UPDATE_GOLDENS=1 to write it", sourceLocation: sourceLocation)
        return
    }
    #expect(text == golden, "differs from \(url.path)", sourceLocation: sourceLocation)
}

/// A view tree from its wire JSON, decoded as the host decodes a bundle's entry.
func view(_ json: String) -> ViewNode {
    let bytes = Array(#"{"entries":[{"date":0,"view":"#.utf8) + Array(json.utf8) + Array("}]}".utf8)
    return bytes.withUnsafeBufferPointer { try! WireTimeline(bytes: $0).entries[0].view }
}

/// A game-status-like widget: a headline, wrapping text, and rows with a spacer between two texts.
let statusView = view(
    #"""
    {"view":"vstack","alignment":"leading","spacing":4,
     "children":[
      {"view":"text","text":"Game Status","modifiers":[{"font":"headline"},{"foregroundColor":"orange"}]},
      {"view":"text","text":"The party rests at the inn before the long climb to the tower"},
      {"view":"divider"},
      {"view":"hstack","children":[{"view":"text","text":"🦄 Unipony"},{"view":"spacer"},{"view":"text","text":"♥ 45","modifiers":[{"foregroundColor":"red"}]}]},
      {"view":"hstack","children":[{"view":"text","text":"🐳 Spouty"},{"view":"spacer"},{"view":"text","text":"♥ 100","modifiers":[{"foregroundColor":"green"}]}]}
     ]}
    """#)

@Suite struct RenderingTests {
    let plain = TerminalRenderer(colorMode: .none, appearance: .dark)

    /// A bundle's text cannot reach the terminal's control: an escape, a bell or a backspace in it
    /// takes no cell in a box and is left out of plain text, so only the renderer's own escapes
    /// are written.
    @Test func controlCharactersInTextAreNeitherDrawnNorPrinted() {
        let hostile = "a\u{1B}[2Jb\u{07}c\u{08}d\u{9B}31me"
        let node = ViewNode("text", attributes: JSONObject([("text", .string(hostile))]))
        let box = TerminalRenderer(colorMode: .none, appearance: .light).render(node, family: .systemSmall).joined(separator: "\n")
        #expect(!box.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        #expect(box.contains("a[2Jbcd31me"))
        #expect(TerminalText.width(hostile) == 11)
        #expect(PlainTextRenderer.lines(node) == ["a[2Jbcd31me"])
        // Non-ASCII text the same, and a tab stays in plain text.
        let accented = ViewNode("text", attributes: JSONObject([("text", .string("é\u{1B}]0;title\u{07}\tx"))]))
        #expect(!TerminalRenderer(colorMode: .none, appearance: .light).render(accented, family: .systemSmall).joined().contains("\u{1B}"))
        #expect(PlainTextRenderer.lines(accented) == ["é]0;title\tx"])
    }

    @Test func familySizesInPointsAndCells() {
        let table = WidgetFamily.allCases.map { family in
            "\(family.rawValue) \(Int(family.displaySize.width))x\(Int(family.displaySize.height)) pt = \(family.terminalSize.columns)x\(family.terminalSize.rows) cells"
        }
        #expect(table == [
            "systemSmall 158x158 pt = 20x10 cells", "systemMedium 338x158 pt = 42x10 cells", "systemLarge 338x354 pt = 42x22 cells",
            "systemExtraLarge 715x338 pt = 89x21 cells", "accessoryCircular 72x72 pt = 9x5 cells",
            "accessoryRectangular 160x72 pt = 20x5 cells", "accessoryInline 234x26 pt = 29x1 cells",
        ])
    }

    @Test func stacksGiveTextItsWidthBeforeSpacersAndSpacersTheRest() {
        let row = view(#"{"view":"hstack","children":[{"view":"text","text":"1. ada"},{"view":"spacer"},{"view":"text","text":"4200"}]}"#)
        let placed = Layout(metrics: TerminalMetrics()).place(row, in: (16, 1))
        #expect(placed.map(\.rect) == [LayoutRect(x: 0, y: 0, width: 6, height: 1), LayoutRect(x: 12, y: 0, width: 4, height: 1)])
    }

    @Test func textWrapsByWordsAndTruncatesWhereLinesRunOut() {
        let layout = Layout(metrics: TerminalMetrics())
        let text = view(#"{"view":"text","text":"one two three four five six"}"#)
        func lines(_ node: ViewNode, _ size: (Double, Double)) -> [String] {
            layout.place(node, in: size).compactMap {
                if case .text(let line, _) = $0.content { return line }
                return nil
            }
        }
        #expect(lines(text, (9, 10)) == ["one two", "three", "four five", "six"])
        #expect(lines(text, (9, 2)) == ["one two", "three…"])
        let limited = view(#"{"view":"text","text":"one two three four five six","modifiers":[{"lineLimit":1}]}"#)
        #expect(lines(limited, (9, 10)) == ["one two…"])
        #expect(lines(view(#"{"view":"text","text":"abcdefghijkl"}"#), (5, 5)) == ["abcde", "fghij", "kl"])
        // An emoji takes two columns.
        #expect(TerminalText.width("🦄 Unipony") == 10)
    }

    @Test func goldenBoxesForEveryFamily() {
        for family in [WidgetFamily.systemSmall, .systemMedium, .systemLarge, .systemExtraLarge, .accessoryRectangular] {
            expectGolden("status-\(family.rawValue).txt", plain.render(statusView, family: family, title: "Game Status").joined(separator: "\n") + "\n")
        }
    }

    @Test func goldenColoursLightAndDark() {
        for mode in [TerminalRenderer.ColorMode.truecolor, .ansi256] {
            for appearance in Appearance.allCases {
                let renderer = TerminalRenderer(colorMode: mode, appearance: appearance)
                expectGolden(
                    "status-systemMedium-\(mode.rawValue)-\(appearance.rawValue).txt",
                    renderer.render(statusView, family: .systemMedium, title: "Game Status").joined(separator: "\n") + "\n")
            }
        }
    }

    /// The levels of content are UIKit's label colours (#3c3c43 at 60, 30 and 18% in light; #ebebf5
    /// at 60, 30 and 16% in dark) over the system background: secondary text is #8a8a8e on white,
    /// as iOS draws it (it was #6e6e73, a web page's grey).
    @Test func theLevelsOfContentAreUIKitsLabelColoursOverTheBackground() {
        #expect(SystemColors.hex(SystemColors.rgb("secondary", .light)) == "#8a8a8e")
        #expect(SystemColors.hex(SystemColors.rgb("secondary", .dark)) == "#98989f")
        #expect(SystemColors.hex(SystemColors.rgb("tertiary", .light)) == "#c5c5c7")
        #expect(SystemColors.hex(SystemColors.rgb("tertiary", .dark)) == "#5a5a5f")
        #expect(SystemColors.hex(SystemColors.rgb("quaternary", .light)) == "#dcdcdd")
        #expect(SystemColors.hex(SystemColors.rgb("quaternary", .dark)) == "#3d3d40")
        // Each level lighter than the one before on white, darker on the dark background.
        let levels = ["primary", "secondary", "tertiary", "quaternary", "quinary"]
        for (upper, lower) in zip(levels, levels.dropFirst()) {
            #expect(SystemColors.rgb(upper, .light).0 < SystemColors.rgb(lower, .light).0, "\(upper) over \(lower)")
            #expect(SystemColors.rgb(upper, .dark).0 > SystemColors.rgb(lower, .dark).0, "\(upper) over \(lower)")
        }
    }

    @Test func aPlaceholderIsRedactedToBars() {
        var placeholder = statusView
        placeholder.modifiers.append(ViewModifierNode("redacted", .string("placeholder")))
        let lines = plain.render(placeholder, family: .systemMedium, title: "Game Status")
        expectGolden("status-placeholder.txt", lines.joined(separator: "\n") + "\n")
        #expect(!lines.joined().contains("Unipony"))
        #expect(lines.joined().contains("▆▆▆▆"))
    }

    @Test func colourFollowsNoColorAndTheTerminal() {
        #expect(TerminalRenderer.colorMode(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"], isTerminal: true) == .none)
        #expect(TerminalRenderer.colorMode(environment: ["COLORTERM": "truecolor"], isTerminal: false) == .none)
        #expect(TerminalRenderer.colorMode(environment: ["COLORTERM": "24bit"], isTerminal: true) == .truecolor)
        #expect(TerminalRenderer.colorMode(environment: [:], isTerminal: true) == .ansi256)
        #expect(SystemColors.xterm256(255, 59, 48) == 203)
        #expect(SystemColors.xterm256(28, 28, 30) == 234)
        #expect(!plain.render(statusView, family: .systemSmall).joined().contains("\u{1B}"))
    }
}

extension RenderingTests {
    func rects(_ json: String, in size: (Double, Double)) -> [LayoutRect] {
        Layout(metrics: TerminalMetrics()).place(view(json), in: size).map(\.rect)
    }

    @Test func framesFixAndBoundSizesAndAlignTheirContent() {
        // A fixed frame of 80 × 48 points (10 × 3 cells), the text centred in it, the frame centred in 20 × 5.
        #expect(rects(#"{"view":"text","text":"abcd","modifiers":[{"frame":{"width":80,"height":48}}]}"#, in: (20, 5))
            == [LayoutRect(x: 8, y: 2, width: 4, height: 1)])
        // maxWidth infinity takes the whole width; the text goes to the trailing edge.
        #expect(rects(#"{"view":"text","text":"abcd","modifiers":[{"frame":{"maxWidth":"infinity","alignment":"trailing"}}]}"#, in: (20, 5))
            == [LayoutRect(x: 16, y: 2, width: 4, height: 1)])
        // A minimum wider than the text.
        #expect(rects(#"{"view":"text","text":"ab","modifiers":[{"frame":{"minWidth":80,"alignment":"leading"}}]}"#, in: (20, 5))
            == [LayoutRect(x: 5, y: 2, width: 2, height: 1)])
    }

    @Test func wrappedLinesLineUpAsAskedAndBackgroundsFill() {
        let centred = Layout(metrics: TerminalMetrics()).place(
            view(#"{"view":"text","text":"one two three","modifiers":[{"multilineTextAlignment":"center"}]}"#), in: (9, 5))
        #expect(centred.map(\.rect.x) == [1, 2])  // the text (7 wide) centred in 9; "three" (5) centred within it
        let filled = TerminalRenderer(colorMode: .truecolor, appearance: .light, renderingMode: .fullColor).render(
            view(##"{"view":"text","text":"hi","modifiers":[{"background":"#102030"}]}"##), family: .accessoryInline)
        #expect(filled[1].contains("48;2;16;32;48m"), "the text's cells on its background colour")
        let container = TerminalRenderer(colorMode: .truecolor, appearance: .light).render(
            view(##"{"view":"text","text":"hi","modifiers":[{"containerBackground":"#102030"}]}"##), family: .systemSmall)
        #expect(container[1].components(separatedBy: "48;2;16;32;48m").count == 2, "every content cell, in one run")
        let weight = Layout(metrics: TerminalMetrics()).place(view(#"{"view":"text","text":"x","modifiers":[{"fontWeight":"bold"}]}"#), in: (5, 1))
        if case .text(_, let style) = weight[0].content { #expect(style.isBold) } else { Issue.record("no text") }
    }
}

extension RenderingTests {
    @Test func symbolsProgressAndGaugesDraw() {
        let tree = view(
            #"""
            {"view":"vstack","alignment":"leading","spacing":0,"children":[
              {"view":"hstack","children":[{"view":"image","systemName":"heart.fill"},{"view":"image","systemName":"no.such.symbol"},{"view":"text","text":"HP"}]},
              {"view":"progress","value":3,"total":4},
              {"view":"gauge","value":20,"min":0,"max":80,"children":[{"view":"text","text":"Fuel"}]},
              {"view":"progress"}
            ]}
            """#)
        let lines = plain.render(tree, family: .accessoryRectangular)
        expectGolden("indicators-accessoryRectangular.txt", lines.joined(separator: "\n") + "\n")
        #expect(lines.joined().contains("♥ □ HP"))
        #expect(lines.joined().contains("███████████████░░░░░"), "3/4 of 20 columns")
        #expect(lines.joined().contains("█████░░░░░░░░░░░░░░░"), "20 of 0...80")
        #expect(lines.joined().contains("▒▒▒▒"), "indeterminate")
        let svg = SVGRenderer(appearance: .light).render(tree, family: .systemSmall)
        #expect(xmlProblem(svg) == nil)
        #expect(svg.contains(##"fill="#007aff""##), "the filled part in the accent colour")
    }

    @Test func aTimerProgressFillsAsTimePassesAndTicks() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let bar = view(#"{"view":"progress","timerInterval":[1799999990,1800000010],"countsDown":false}"#)
        #expect(DateText.isLive(bar))
        let half = Layout(metrics: TerminalMetrics(), now: now).place(bar, in: (10, 1))
        #expect(half.first?.content == .bar(0.5, tint: "accent"))
        let later = Layout(metrics: TerminalMetrics(), now: now.addingTimeInterval(5)).place(bar, in: (10, 1))
        #expect(later.first?.content == .bar(0.75, tint: "accent"))
    }
}

extension RenderingTests {
    @Test func widthsAndCellsKeepWholeCharacters() {
        // Measured a scalar at a time where that is exact, a character at a time where scalars join.
        #expect(TerminalText.width("♥ 45") == 4)
        #expect(TerminalText.width("漢字") == 4)
        #expect(TerminalText.width("e\u{301}") == 1, "a combining accent takes no column")
        #expect(TerminalText.width("❤️") == 2, "emoji presentation by its selector")
        #expect(TerminalText.width("👨‍👩‍👧") == 2, "a family joined by zero-width joiners is one emoji")
        #expect(TerminalText.width("🇫🇷") == 2, "a flag")
        #expect(TerminalText.width("\u{1112}\u{1161}\u{11AB}") == 2, "a Hangul syllable written as its jamo")
        #expect(TerminalText.width("می\u{200C}خواهم") == 7, "a zero-width non-joiner takes no column")
        // Cells hold whole characters, whatever their scalars.
        for text in ["a", "é", "e\u{301}", "👨‍👩‍👧", "🇫🇷", "漢", ""] {
            #expect(TerminalRenderer.StyledCell(text: text).text == text)
        }
        let drawn = plain.render(view(#"{"view":"text","text":"cafe\u0301 👨‍👩‍👧 ok"}"#), family: .systemSmall).joined(separator: "\n")
        #expect(drawn.contains("cafe\u{301} 👨‍👩‍👧 ok"), "the accent and the family drawn, each in its columns")
        // Colours are kept by name or as RGB.
        let cell = TerminalRenderer.StyledCell(text: "x", color: "#0a0b0c", fill: "indigo")
        #expect(cell.color == "#0a0b0c" && cell.fill == "indigo")
        #expect(TerminalRenderer.StyledCell(text: "x", color: "no-such-colour").color == "primary", "drawn as the primary colour, as before")
    }
}
