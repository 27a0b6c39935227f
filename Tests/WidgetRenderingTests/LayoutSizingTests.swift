import Foundation
import Testing
import WidgetTestSupport
@testable import WidgetRendering
import WidgetWire

/// Metrics that answer as `base` does, but for what a test changes.
protocol ForwardingMetrics: LayoutMetrics {
    associatedtype Base: LayoutMetrics
    var base: Base { get }
}

extension ForwardingMetrics {
    func width(of text: String, style: TextStyle) -> Double { base.width(of: text, style: style) }
    func wordWidths(of text: String, style: TextStyle) -> [Double]? { base.wordWidths(of: text, style: style) }
    func lineHeight(_ style: TextStyle) -> Double { base.lineHeight(style) }
    func horizontal(_ points: Double) -> Double { base.horizontal(points) }
    func vertical(_ points: Double) -> Double { base.vertical(points) }
    var defaultSpacing: (horizontal: Double, vertical: Double) { base.defaultSpacing }
    var dividerThickness: Double { base.dividerThickness }
    var barThickness: Double { base.barThickness }
    func snap(_ length: Double) -> Double { base.snap(length) }
    var scalesText: Bool { base.scalesText }
    var drawsNarrowSpaces: Bool { base.drawsNarrowSpaces }
}

/// Terminal metrics that never add word widths up: every text is sized by making its lines, the way
/// the layout sizes text whose widths do not add up. The reference the quick sizing must match.
struct LineByLineMetrics: ForwardingMetrics {
    let base = TerminalMetrics()
    func wordWidths(of text: String, style: TextStyle) -> [Double]? { nil }
}

@Suite struct LayoutSizingTests {
    /// Words of every kind the breaking meets: short, longer than a small widget's line, wide
    /// characters, a symbol, empty (two spaces running), and one whose widths do not add up.
    static let words = [
        "a", "to", "the", "party", "rests", "tower", "Unipony", "♥", "45", "🦄", "日本語", "", "extraordinarily-long-word-here",
        "supercalifragilistic", "e\u{301}t\u{E9}", "x",
    ]

    static func randomText(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...9, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    }

    static func randomView(_ random: inout SeededGenerator, depth: Int) -> String {
        var modifiers: [String] = []
        if Bool.random(using: &random) { modifiers.append(#"{"lineLimit":\#(Int.random(in: 1...3, using: &random))}"#) }
        if Int.random(in: 0..<4, using: &random) == 0 { modifiers.append(#"{"frame":{"width":\#(Int.random(in: 8...120, using: &random))}}"#) }
        if Int.random(in: 0..<4, using: &random) == 0 { modifiers.append(#"{"frame":{"maxWidth":"infinity"}}"#) }
        if Int.random(in: 0..<5, using: &random) == 0 { modifiers.append(#"{"padding":{"top":16,"leading":8,"bottom":0,"trailing":8}}"#) }
        let modifierList = "[" + modifiers.joined(separator: ",") + "]"
        let kind = depth >= 3 ? 0 : Int.random(in: 0..<5, using: &random)
        switch kind {
        case 0, 1:
            let text = randomText(&random).replacingOccurrences(of: "\"", with: "")
            return #"{"view":"text","text":"\#(text)","modifiers":\#(modifierList)}"#
        case 2:
            return #"{"view":"spacer"}"#
        default:
            let stack = kind == 3 ? "hstack" : "vstack"
            let children = (0..<Int.random(in: 1...4, using: &random)).map { _ in randomView(&random, depth: depth + 1) }
            return #"{"view":"\#(stack)","children":[\#(children.joined(separator: ","))],"modifiers":\#(modifierList)}"#
        }
    }

    /// Copies of a style share their values until one changes: a change is the copy's alone.
    @Test func aChangedCopyOfAStyleLeavesTheOriginal() {
        var headline = TextStyle()
        headline.font = "headline"
        var red = headline
        red.color = "red"
        #expect(headline.font == "headline" && headline.color == nil)
        #expect(red.font == "headline" && red.color == "red")
        #expect(red != headline)
        red.color = nil
        #expect(red == headline)
        var bold = TextStyle()
        bold.bold = true
        #expect(!TextStyle().bold && TextStyle() == TextStyle() && bold != TextStyle())
    }

    /// Text is sized by adding its words' widths where they add up, and by making its lines where
    /// not; both must place every view the same, in every family, for any text and stack.
    @Test func sizingByWordWidthsPlacesAsMakingTheLinesDoes() {
        var random = SeededGenerator(state: 2026)
        for seed in 0..<400 {
            let json = Self.randomView(&random, depth: 0)
            let tree = view(json)
            for family in WidgetFamily.allCases {
                let size = (Double(family.terminalSize.columns), Double(family.terminalSize.rows))
                let quick = Layout(metrics: TerminalMetrics()).place(tree, in: size)
                let reference = Layout(metrics: LineByLineMetrics()).place(tree, in: size)
                #expect(quick == reference, "tree \(seed) in \(family.rawValue): \(json)")
            }
        }
    }

    /// A text is sized once for each width and number of lines it may take, and a size that took
    /// fewer lines than allowed serves any height that allows them: at whatever heights and in
    /// whatever order it is asked, it answers as sizing it afresh does.
    @Test func rememberedTextSizesAnswerAsSizingAfresh() {
        var random = SeededGenerator(state: 7)
        let layout = Layout(metrics: TerminalMetrics())
        let widths: [Double?] = [nil, 0, 1, 3, 5, 8, 12, 20, .infinity]
        let heights: [Double?] = [nil, 0, 1, 2, 3, 5, .infinity]
        for seed in 0..<300 {
            let limit = Bool.random(using: &random) ? Int.random(in: 1...3, using: &random) : nil
            let node = ViewNode(
                "text", attributes: JSONObject([("text", .string(Self.randomText(&random)))]),
                modifiers: limit.map { [ViewModifierNode("lineLimit", .number(Double($0)))] } ?? [])
            let remembering = Layout.Tree()
            let text = layout.prepare(node, inherited: TextStyle(), into: remembering)
            remembering.makeMemos()
            for _ in 0..<12 {
                let proposal = Layout.Proposal(width: widths.randomElement(using: &random)!, height: heights.randomElement(using: &random)!)
                let fresh = Layout.Tree()
                let freshText = layout.prepare(node, inherited: TextStyle(), into: fresh)
                fresh.makeMemos()
                #expect(
                    layout.size(remembering, text, proposal, axis: nil) == layout.size(fresh, freshText, proposal, axis: nil),
                    "text \(seed), \(proposal): \(node)")
            }
        }
    }

    /// The cases the quick sizing hands back to line making: a word wider than the line, a cut line
    /// whose ellipsis does not fit beside it, and text whose widths do not add up.
    @Test func textThatMustBeBrokenByCharactersIsSizedAsItsLines() {
        let layout = Layout(metrics: TerminalMetrics())
        let long = view(#"{"view":"text","text":"supercalifragilistic word","modifiers":[{"lineLimit":2}]}"#)
        #expect(layout.place(long, in: (8, 5)).compactMap(\.text) == ["supercal", "ifragil…"])
        let cut = view(#"{"view":"text","text":"abcdefg hijklmn opq","modifiers":[{"lineLimit":1}]}"#)
        #expect(layout.place(cut, in: (7, 5)).compactMap(\.text) == ["abcdef…"])
        let joined = view(#"{"view":"text","text":"e\u0301te\u0301 e\u0301te\u0301 ok","modifiers":[{"lineLimit":2}]}"#)
        #expect(layout.place(joined, in: (4, 5)).compactMap(\.text) == ["été", "été…"])
    }
}

extension PlacedElement {
    /// The line, for a text element.
    var text: String? {
        if case .text(let line, _) = content { return line }
        return nil
    }
}

@Suite struct StackPlacementTests {
    /// A stack placed in the size it chose gives its children what it gave them choosing it: a
    /// bordered button beside a text was offered half the stack's own width when placed, and cut
    /// ("Che…", the iOS-style catalog widget's Check in), though the widget had room for it.
    @Test func aStackPlacedInItsOwnSizeKeepsItsChildrensSizes() {
        let tree = view(
            #"{"view":"hstack","children":[{"view":"text","text":"Seat 12A"},{"view":"button","children":[{"view":"text","text":"Check in"}],"modifiers":[{"buttonStyle":"bordered"}]}]}"#)
        let texts = Layout(metrics: PointMetrics(), contentMargin: 0).place(tree, in: (306, 100)).compactMap { element -> String? in
            if case .text(let text, _) = element.content { text } else { nil }
        }
        #expect(texts == ["Seat 12A", "Check in"])
    }
}
