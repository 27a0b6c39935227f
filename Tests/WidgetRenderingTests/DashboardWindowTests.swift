import Foundation
import Testing
@testable import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// The dashboard in a terminal of a given size: never drawn outside it, scrolled when the boxes do
/// not fit, a footer that always fits, and a hint when there is nothing to show.
@Suite struct DashboardWindowTests {
    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_800_000_000))

    func dashboard(width: Int, height: Int, boxes: Int) -> Dashboard {
        let dashboard = Dashboard(renderer: TerminalRenderer(colorMode: .none, appearance: .dark), clock: clock, width: width) { _ in }
        dashboard.height = height
        // As `widgets run` does once it has the window's size: an empty host is drawn too.
        dashboard.redraw()
        for number in stride(from: 1, through: boxes, by: 1) {
            dashboard.show(
                id: "widget-\(number)", family: .systemSmall, title: "Note",
                status: InstanceStatus(
                    phase: .showing, entry: WireEntry(date: 0, view: ViewNode("text", attributes: JSONObject([("text", .string("box \(number)"))]))),
                    timelines: 1))
        }
        return dashboard
    }

    func lines(_ dashboard: Dashboard) -> [String] {
        dashboard.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test(arguments: [(80, 60), (80, 40), (100, 50), (40, 20), (30, 12)])
    func tenBoxesNeverGoOutsideTheWindowAndTheFooterFits(_ size: (width: Int, height: Int)) {
        let dashboard = dashboard(width: size.width, height: size.height, boxes: 10)
        let rows = lines(dashboard)
        #expect(rows.count == size.height)
        #expect(rows.allSatisfy { TerminalText.cells($0).count <= size.width }, "\(rows)")
        #expect(rows.last?.hasPrefix("q quit") == true, "\(rows.last ?? "")")
    }

    @Test func boxesThatDoNotFitScrollAndTheFooterSaysWhichRowsShow() {
        let dashboard = dashboard(width: 80, height: 12, boxes: 10)
        let top = lines(dashboard)
        #expect(top.last?.hasPrefix("q quit · ↑↓ PgUp PgDn scroll · rows 1–11 of ") == true, "\(top.last ?? "")")
        #expect(top.joined().contains("box 1"))
        dashboard.scroll(by: 100)
        let bottom = lines(dashboard)
        #expect(bottom.count == 12)
        #expect(bottom.joined().contains("box 10"))
        #expect(!bottom.joined().contains("box 1 "))
        dashboard.scroll(by: -100)
        #expect(lines(dashboard) == top)
    }

    @Test func aResizeIsFollowed() {
        let dashboard = dashboard(width: 80, height: 40, boxes: 4)
        dashboard.width = 40
        dashboard.height = 20
        dashboard.redraw()
        let rows = lines(dashboard)
        #expect(rows.count == 20)
        #expect(rows.allSatisfy { TerminalText.cells($0).count <= 40 })
    }

    @Test func anEmptyHostSaysHowToAddAWidget() {
        let rows = lines(dashboard(width: 80, height: 10, boxes: 0))
        #expect(rows.count == 10)
        #expect(rows[0].hasPrefix("No widgets yet."))
        #expect(rows[1].hasPrefix("Add one: widgets add KIND"))
        #expect(rows.last?.hasPrefix("q quit") == true)
    }

    @Test func aLongFooterOrHintIsCutWithAnEllipsisNotPastTheEdge() {
        let row = Dashboard.line("一二三四五", width: 6, color: nil)
        #expect(row.count == 6)
        #expect(row.map(\.text).joined().hasPrefix("一二…"))
    }
}
