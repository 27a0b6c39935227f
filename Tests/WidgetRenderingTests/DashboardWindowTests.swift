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
        #expect(top.last?.hasPrefix("q quit · ↑↓ PgUp PgDn scroll, rows 1–10 of ") == true, "\(top.last ?? "")")
        #expect(top[top.count - 2].hasPrefix("▸ widget-1: no reload due"), "the selection's line above the keys: \(top)")
        #expect(top.joined().contains("box 1"))
        dashboard.scroll(by: 100)
        let bottom = lines(dashboard)
        #expect(bottom.count == 12)
        #expect(bottom.joined().contains("box 10"))
        #expect(!bottom.joined().contains("box 1 "))
        dashboard.scroll(by: -100)
        #expect(lines(dashboard) == top)
    }

    @Test func theSelectedBoxsNextReloadReasonAndBudgetAreInTheFooter() {
        let dashboard = dashboard(width: 120, height: 30, boxes: 3)
        dashboard.show(
            id: "widget-2", family: .systemSmall, title: "Note",
            status: InstanceStatus(
                phase: .showing, entry: WireEntry(date: 0, view: ViewNode("text", attributes: JSONObject([("text", .string("box 2"))]))),
                timelines: 4, nextReload: Date(timeIntervalSince1970: 1_800_000_000 + 3723), nextReloadReason: .policy, deferredByBudget: true,
                reloadsInWindow: 3))
        #expect(dashboard.selected == "widget-1")
        #expect(lines(dashboard).dropLast().last?.contains("▸ widget-1: no reload due, 0 reloads in 24 h") == true, "\(lines(dashboard))")
        #expect(lines(dashboard).joined().contains("▸ widget-1"))
        dashboard.select(by: 1)
        #expect(dashboard.selected == "widget-2")
        let footer = lines(dashboard).dropLast().last ?? ""
        #expect(footer.contains("widget-2: next reload \(dashboard.clockTime(Date(timeIntervalSince1970: 1_800_003_723), seconds: true)) (policy, deferred by the budget), 3 reloads in 24 h"), "\(footer)")
        #expect(lines(dashboard).joined().contains("▸ widget-2") && !lines(dashboard).joined().contains("▸ widget-1"))
        dashboard.select(by: -2)
        #expect(dashboard.selected == "widget-3", "selection wraps around")
    }

    @Test func aFailedReloadKeepsTheLastGoodEntryMarkedAsOfItsDate() {
        let dashboard = dashboard(width: 80, height: 30, boxes: 1)
        dashboard.show(
            id: "widget-1", family: .systemSmall, title: "Note",
            status: InstanceStatus(
                phase: .showing,
                entry: WireEntry(date: 1_800_000_000 - 600, view: ViewNode("text", attributes: JSONObject([("text", .string("box 1"))]))),
                timelines: 1, lastFailure: "the provider timed out"))
        let screen = lines(dashboard).joined(separator: "\n")
        #expect(screen.contains("box 1"))
        #expect(screen.contains("as of \(dashboard.clockTime(Date(timeIntervalSince1970: 1_800_000_000 - 600)))"), "\(screen)")
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

    /// At 80 columns the keys fit whole, each on the bottom row; the host's latest message sits at
    /// the bottom too, above the selection's line, not in the middle of the screen under the boxes.
    @Test func theFooterFitsAt80ColumnsAndMessagesStayAtTheBottom() {
        let dashboard = dashboard(width: 80, height: 24, boxes: 12)
        dashboard.post("loaded /home/user/.local/share/widgets/widgets.d/libClock.so: org.example.clock")
        let rows = lines(dashboard)
        #expect(rows.count == 24)
        #expect(rows.last?.hasPrefix("q quit · ↑↓ PgUp PgDn scroll, rows 1–21 of ") == true && rows.last?.contains(" · ←→ Tab select") == true, "\(rows.last ?? "")")
        #expect(!(rows.last ?? "").contains("…"), "the keys are not cut: \(rows.last ?? "")")
        #expect(rows[21].hasPrefix("loaded /home/user/"), "\(rows)")
        #expect(rows[22].hasPrefix("▸ widget-1"), "\(rows)")
        // With few boxes the message is still at the bottom.
        let few = self.dashboard(width: 80, height: 24, boxes: 1)
        few.post("a message")
        let fewRows = lines(few)
        #expect(fewRows[21].hasPrefix("a message") && fewRows[0..<21].allSatisfy { !$0.contains("a message") }, "\(fewRows)")
    }

    /// Selecting a box below the window scrolls to it, and back up again.
    @Test func theSelectionIsScrolledIntoView() {
        let dashboard = dashboard(width: 40, height: 16, boxes: 6)
        #expect(lines(dashboard).joined().contains("box 1"))
        dashboard.select(by: 5)
        #expect(dashboard.selected == "widget-6")
        let down = lines(dashboard).joined()
        #expect(down.contains("▸ widget-6") && down.contains("box 6"), "\(lines(dashboard))")
        dashboard.select(by: 1)
        #expect(dashboard.selected == "widget-1")
        #expect(lines(dashboard).joined().contains("box 1"))
    }

    /// The boxes follow the order the home screen set; ids it does not name come after.
    @Test func boxesFollowTheHomeScreensOrder() {
        let dashboard = dashboard(width: 200, height: 30, boxes: 3)
        dashboard.arrange(order: ["widget-3", "widget-1"])
        let row = lines(dashboard).first { $0.contains("widget-") } ?? ""
        let places = ["widget-3", "widget-1", "widget-2"].map { row.range(of: $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil } && places[0]! < places[1]! && places[1]! < places[2]!, "\(row)")
    }
}
