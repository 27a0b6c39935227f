import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

@testable import WidgetRendering

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
