import Foundation
import Testing
import WidgetTestSupport
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// The live dashboard on a virtual clock: a grid of boxes, ticking timers, cell-by-cell updates.
@Suite struct DashboardTests {
    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_800_000_000))

    func status(_ view: ViewNode) -> InstanceStatus {
        InstanceStatus(phase: .showing, entry: WireEntry(date: 0, view: view), timelines: 1)
    }

    func timer(secondsFromNow: Double) -> ViewNode {
        ViewNode(
            "vstack",
            children: [
                ViewNode("text", attributes: JSONObject([("text", .string("Boss in"))])),
                ViewNode("text", attributes: JSONObject([("date", .number(1_800_000_000 + secondsFromNow)), ("dateStyle", .string("timer"))])),
            ])
    }

    /// Small boxes "w-1" to "w-`count`", titled "W", each showing "box" and its number.
    func showTextBoxes(_ count: Int, on dashboard: Dashboard) {
        for number in 1...count {
            dashboard.show(
                id: "w-\(number)", family: .systemSmall, title: "W",
                status: status(ViewNode("text", attributes: JSONObject([("text", .string("box \(number)"))]))))
        }
    }

    @Test func aTickWritesOnlyTheCellsThatChanged() {
        let written = LockedList<String>()
        let dashboard = Dashboard(
            renderer: TerminalRenderer(colorMode: .none, appearance: .dark), clock: clock, width: 80,
            dates: DateText(timeZone: TimeZone(identifier: "UTC")!)) { written.append($0) }
        dashboard.show(id: "boss-1", family: .systemSmall, title: "Boss", status: status(timer(secondsFromNow: 125)))
        dashboard.show(
            id: "note-2", family: .systemSmall, title: "Note",
            status: status(ViewNode("text", attributes: JSONObject([("text", .string("Still here"))]))))
        #expect(dashboard.text.contains("2:05"))
        #expect(dashboard.text.contains("Still here"))
        #expect(clock.pendingCount == 1, "a tick is due: a box shows a timer")

        let before = dashboard.cellsWritten
        let countBefore = written.values.count
        clock.advance(by: 1)
        #expect(dashboard.text.contains("2:04"))
        // "2:05" became "2:04": the last digit's cell, at its place, and nothing else.
        #expect(dashboard.cellsWritten - before == 1)
        #expect(written.values.count == countBefore + 1)
        #expect(written.values.last?.hasPrefix("\u{1B}[") == true)
        #expect(written.values.last?.hasSuffix("4") == true)

        // Nothing live, nothing scheduled: idle is idle.
        dashboard.show(id: "boss-1", family: .systemSmall, title: "Boss", status: status(ViewNode("text", attributes: JSONObject([("text", .string("Won"))]))))
        #expect(clock.pendingCount == 0)
    }

    @Test func boxesDrawnAgainUnchangedWriteNothing() {
        let dashboard = Dashboard(renderer: TerminalRenderer(colorMode: .truecolor, appearance: .dark), clock: clock, width: 80) { _ in }
        dashboard.show(
            id: "note-1", family: .systemSmall, title: "Note",
            status: status(
                ViewNode("text", attributes: JSONObject([("text", .string("Still here"))]), modifiers: [ViewModifierNode("foregroundStyle", .string("red"))])))
        let before = dashboard.cellsWritten
        dashboard.invalidate()
        dashboard.redraw()
        // Drawn again the same, cell for cell: nothing to write.
        #expect(dashboard.cellsWritten == before)
    }

    /// Boxes drawn together (on several threads) each land in their own place, when the screen is
    /// first arranged and when every box is drawn again.
    @Test func boxesDrawnTogetherEachLandInTheirPlace() {
        let dashboard = Dashboard(renderer: TerminalRenderer(colorMode: .none, appearance: .dark), clock: clock, width: 50) { _ in }
        showTextBoxes(24, on: dashboard)
        func placed() -> [String] {
            // Each box's title with the first text below it, read down the left column of boxes.
            let lines = dashboard.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return stride(from: 0, to: lines.count - 1, by: 12).flatMap { top in
                [(0, 22), (23, 45)].compactMap { start, end -> String? in
                    guard lines[top].count >= end else { return nil }
                    let title = lines[top].dropFirst(start).prefix(end - start).split(separator: " ").dropFirst().first.map(String.init) ?? ""
                    let body = (top + 1..<top + 11).map { lines[$0].dropFirst(start).prefix(end - start) }.joined()
                    let number = body.split(separator: " ").last { $0.allSatisfy(\.isNumber) } ?? ""
                    return "\(title)=\(number)"
                }
            }
        }
        let expected = (1...24).map { "w-\($0)=\($0)" }
        #expect(placed() == expected)
        let before = dashboard.cellsWritten
        dashboard.invalidate()
        dashboard.redraw()
        #expect(dashboard.cellsWritten == before, "every box drawn again in its own place: nothing to write")
        #expect(placed() == expected)
    }

    @Test func boxesFillRowsAsWideAsTheTerminal() {
        let dashboard = Dashboard(renderer: TerminalRenderer(colorMode: .none, appearance: .dark), clock: clock, width: 50) { _ in }
        showTextBoxes(3, on: dashboard)
        let lines = dashboard.text.split(separator: "\n", omittingEmptySubsequences: false)
        // Two 22-column boxes and a gap fit in 50 columns; the third goes below.
        #expect(lines.count == 24)
        #expect(lines[0].hasPrefix("╭─ w-1 · W ──────────╮ ╭─ w-2 · W ──────────╮"))
        #expect(lines[12].hasPrefix("╭─ w-3 · W ──────────╮"))
        dashboard.retain(ids: ["w-3"])
        #expect(dashboard.text.split(separator: "\n").count == 12)
        dashboard.post("loaded libGame.so")
        #expect(dashboard.text.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) == "loaded libGame.so")
    }

    /// A box's new family, or a new terminal width, arranges the whole screen again; a new title is
    /// drawn in its box, in place.
    @Test func aNewFamilyOrWidthArrangesTheScreenAgainAndANewTitleIsDrawnInPlace() {
        let dashboard = Dashboard(renderer: TerminalRenderer(colorMode: .none, appearance: .dark), clock: clock, width: 50) { _ in }
        showTextBoxes(2, on: dashboard)
        #expect(dashboard.text.split(separator: "\n").count == 12)
        dashboard.show(id: "w-1", family: .systemSmall, title: "Renamed", status: nil)
        #expect(dashboard.text.hasPrefix("╭─ w-1 · Renamed"))
        // A medium box does not fit beside a small one in 50 columns: it goes below.
        dashboard.show(id: "w-2", family: .systemMedium, title: "W", status: nil)
        #expect(dashboard.text.split(separator: "\n").count == 24)
        dashboard.width = 80
        dashboard.redraw()
        #expect(dashboard.text.split(separator: "\n").count == 12)
    }

    @Test func instancesWithoutAnEntrySayWhy() {
        let dashboard = Dashboard(renderer: TerminalRenderer(colorMode: .none, appearance: .dark), clock: clock, width: 80) { _ in }
        var missing = status(ViewNode("text"))
        missing.phase = .bundleMissing
        dashboard.show(id: "gone-1", family: .systemSmall, title: "Gone", status: missing)
        #expect(dashboard.text.contains("bundle missing"))
    }
}
