import Testing
import WidgetTestSupport
import WidgetRendering
import WidgetWire

/// Paths (`Path`, and shapes of the author's own): in SVG as a path, in the terminal as the cells
/// they cover or pass through.
@Suite struct PathRenderingTests {
    /// A triangle made, as a custom shape's `path(in:)` is, in a 100 by 100 rectangle.
    let triangle = #"{"view":"shape","shape":"path","path":[["M",50,0],["L",100,100],["L",0,100],["Z"]],"reference":[100,100],"fill":"red"}"#

    @Test func aCustomShapeIsScaledToItsBoundsInSVG() {
        let tree = view(#"{"view":"vstack","children":[\#(triangle.replacingOccurrences(of: #""fill":"red""#, with: #""fill":"red","modifiers":[{"frame":{"width":40,"height":20}}]"#))]}"#)
        let svg = SVGRenderer(appearance: .light).render(tree, family: .systemSmall)
        #expect(xmlProblem(svg) == nil)
        // Centred in the small widget (158 points): 59 to 99 across, 69 to 89 down.
        #expect(svg.contains(##"<path d="M79 69 L99 89 L59 89 Z" fill="#ff3b30"/>"##), "\(svg)")
    }

    @Test func theTerminalFillsTheCellsAPathHoldsAndInksThoseAStrokePassesThrough() {
        let cells = TerminalRenderer(colorMode: .none, appearance: .light).grid(view(triangle), family: .systemSmall)
        let filled = cells.map { row in row.filter { $0.fill == "red" }.count }.filter { $0 > 0 }
        #expect(filled.count >= 5, "\(filled)")
        #expect(filled.first! < filled.last!, "narrow at the apex, wide at the base: \(filled)")
        #expect(zip(filled, filled.dropFirst()).allSatisfy { $0 <= $1 }, "\(filled)")

        // A line across the widget, in the view's own points: every column it crosses is inked, in
        // one row at each end and several between (it climbs 64 points, four rows).
        let line = #"{"view":"shape","shape":"path","path":[["M",0,70],["L",126,6]],"fill":"clear","stroke":{"paint":"blue","lineWidth":2}}"#
        let grid = TerminalRenderer(colorMode: .none, appearance: .light).grid(view(line), family: .systemSmall)
        let inked = grid.enumerated().flatMap { row, cells in cells.enumerated().filter { $0.element.fill == "blue" }.map { (row, $0.offset) } }
        let columns = Set(inked.map(\.1))
        #expect(columns.count >= 15, "\(inked)")
        #expect(Set(inked.map(\.0)).count >= 4, "\(inked)")
        #expect(columns.sorted() == Array(columns.min()!...columns.max()!), "no gaps along the line: \(columns.sorted())")
    }

    @Test func aPathClipsWhatItHolds() {
        // A rectangle clipped by the triangle: its cells are the triangle's.
        let clipped = #"{"view":"shape","shape":"rectangle","fill":"red","modifiers":[{"clipShape":{"shape":"path","path":[["M",50,0],["L",100,100],["L",0,100],["Z"]],"reference":[100,100]}}]}"#
        let renderer = TerminalRenderer(colorMode: .none, appearance: .light)
        func filled(_ json: String) -> [Int] {
            renderer.grid(view(json), family: .systemSmall).map { row in row.filter { $0.fill == "red" }.count }.filter { $0 > 0 }
        }
        #expect(filled(clipped) == filled(triangle), "\(filled(clipped))")
        #expect(filled(clipped).first! < filled(clipped).last!)
    }

    @Test func aTrimmedPathStrokeKeepsOnlyItsPart() {
        let half = #"{"view":"shape","shape":"path","path":[["M",0,40],["L",126,40]],"fill":"clear","stroke":{"paint":"blue","lineWidth":2},"trim":[0,0.5]}"#
        let whole = half.replacingOccurrences(of: #","trim":[0,0.5]"#, with: "")
        func inked(_ json: String) -> Int {
            TerminalRenderer(colorMode: .none, appearance: .light).grid(view(json), family: .systemSmall).joined().filter { $0.fill == "blue" }.count
        }
        #expect(inked(half) > 0 && inked(half) * 2 <= inked(whole) + 2, "\(inked(half)) of \(inked(whole))")
        let svg = SVGRenderer(appearance: .light).render(view(half), family: .systemSmall)
        #expect(svg.contains(#"pathLength="100" stroke-dasharray="50 100""#), "\(svg)")
    }

    @Test func malformedPathsDrawWhatIsWellFormedAndNothingElse() {
        let json = #"{"view":"shape","shape":"path","path":[["M",0,0],["L","x",5],["Q",1],["L",10,10,3],["Z"],"junk"],"fill":"red"}"#
        let svg = SVGRenderer(appearance: .light).render(view(json), family: .systemSmall)
        #expect(xmlProblem(svg) == nil)
        // Placed at the content's origin, inside the 16-point margins.
        #expect(svg.contains(#"<path d="M16 16 Z" "#), "\(svg)")
    }

    @Test func aMixedColourIsDrawnBetweenItsTwoInEachAppearance() {
        #expect(SystemColors.rgb("mix:black:white:0.5", .light) == (128, 128, 128))
        #expect(SystemColors.rgb("mix:black:white:0", .dark) == (0, 0, 0))
        // Red to blue a quarter of the way, as the dark appearance draws each.
        let (red, blue) = (SystemColors.rgb("red", .dark), SystemColors.rgb("blue", .dark))
        let mixed = SystemColors.rgb("mix:red:blue:0.25", .dark)
        #expect(abs(mixed.0 - (red.0 * 3 + blue.0) / 4) <= 1 && abs(mixed.2 - (red.2 * 3 + blue.2) / 4) <= 1, "\(mixed)")
        #expect(SystemColors.rgb("mix:red:nonsense", .light) == SystemColors.rgb("primary", .light), "malformed: the primary colour")
        let svg = SVGRenderer(appearance: .light).render(view(#"{"view":"shape","shape":"rectangle","fill":"mix:black:white:0.5"}"#), family: .systemSmall)
        #expect(svg.contains(##"fill="#808080""##), "\(svg)")
    }
}
