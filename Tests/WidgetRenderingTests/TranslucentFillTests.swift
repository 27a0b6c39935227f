import Testing
@testable import WidgetRendering
import WidgetWire

/// A translucent fill in the terminal: each cell blended over what is under it, wherever the paper
/// under the fill changes (the fill blends once per paper met, not once for all).
@Suite struct TranslucentFillTests {
    @Test func aTranslucentFillBlendsOverEachPaperUnderIt() {
        let tree = view(
            ##"{"view":"zstack","children":[{"view":"hstack","attributes":{"spacing":0},"children":[{"view":"shape","shape":"rectangle","fill":"#2040C0"},{"view":"shape","shape":"rectangle","fill":"#20C040"}]},{"view":"shape","shape":"rectangle","fill":"#FF0000/0.5"}]}"##)
        let renderer = TerminalRenderer(colorMode: .truecolor, appearance: .dark)
        let cells = renderer.grid(tree, family: .systemMedium, contentMarginsDisabled: true)
        let row = cells[cells.count / 2]
        // Inside the frame, away from its edges: the left half over blue, the right half over green.
        let (left, right) = (row[4], row[row.count - 5])
        let red = (255, 0, 0)
        #expect(left.paper == CellColor(rgb: SystemColors.blend(red, over: (0x20, 0x40, 0xC0), 0.5)), "\(left.paper.rgb(.dark))")
        #expect(right.paper == CellColor(rgb: SystemColors.blend(red, over: (0x20, 0xC0, 0x40), 0.5)), "\(right.paper.rgb(.dark))")
        #expect(left.paper != right.paper)
    }

    /// A mixed colour (`Color.mix(with:by:)`) is drawn from its colours as the appearance drawn shows them.
    @Test func aMixedColourIsDrawnInTheAppearanceDrawn() {
        let tree = view(#"{"view":"shape","shape":"rectangle","fill":"mix:red:blue:0.5"}"#)
        for appearance in [Appearance.dark, .light] {
            let cells = TerminalRenderer(colorMode: .truecolor, appearance: appearance).grid(tree, family: .systemSmall, contentMarginsDisabled: true)
            let cell = cells[cells.count / 2][cells[0].count / 2]
            #expect(cell.paper == CellColor(rgb: SystemColors.opaque("mix:red:blue:0.5", appearance)), "\(appearance)")
        }
        #expect(SystemColors.opaque("mix:red:blue:0.5", .dark) != SystemColors.opaque("mix:red:blue:0.5", .light))
    }
}
