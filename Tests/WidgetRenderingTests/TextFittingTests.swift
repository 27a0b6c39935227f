import Synchronization
import Testing
import WidgetWire

@testable import WidgetRendering

/// Text fitted to its width (`allowsTightening`, `minimumScaleFactor`) is fitted once, when sized:
/// placing it takes the run sizing made, without measuring the text again.
@Suite struct TextFittingTests {
    /// Points, counting the widths measured.
    final class CountingMetrics: ForwardingMetrics {
        let base = PointMetrics()
        let count = Mutex(0)
        var measured: Int { count.withLock { $0 } }
        func width(of text: String, style: TextStyle) -> Double {
            count.withLock { $0 += 1 }
            return base.width(of: text, style: style)
        }
    }

    func placed(tightening: Bool) -> (measured: Int, text: TextStyle?) {
        let metrics = CountingMetrics()
        let modifiers = (tightening ? #"{"allowsTightening":true},"# : "") + #"{"minimumScaleFactor":0.5},{"lineLimit":1},{"frame":{"width":150}}"#
        let elements = Layout(metrics: metrics).place(view(#"{"view":"text","text":"Interactive Widgets Everywhere","modifiers":[\#(modifiers)]}"#), in: (158, 158))
        let style = elements.lazy.compactMap { if case .text(_, let style) = $0.content { style } else { nil } }.first
        return (metrics.measured, style)
    }

    /// Tightened (by the most it may, 5% of its size), then smaller: its line, the tightened line and
    /// the one smaller size tried are measured, each once (that size's line is the one measured
    /// trying it). Placing it takes the run sizing made without measuring anything (it measured the
    /// text three times more, and the smaller line once more in sizing).
    @Test func aTextThatTightensAndShrinksIsMeasuredOncePerRun() throws {
        let shrinks = placed(tightening: false)
        let both = placed(tightening: true)
        let (plain, tight) = (try #require(shrinks.text), try #require(both.text))
        #expect(tight.tracking < plain.tracking && tight.points > plain.points && tight.points < 17, "set closer, then less smaller: \(tight) against \(plain)")
        #expect(both.measured == 3)
    }
}
