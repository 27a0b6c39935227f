import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

@testable import WidgetRendering

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
