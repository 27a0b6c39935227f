import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// `widgets run`'s live view: every instance's box, laid out in a grid as wide as the terminal,
/// redrawn when what an instance shows changes, and every second while a box shows a timer, a
/// relative date or a countdown, without asking any provider.
///
/// Each frame is compared with the last, cell by cell, and only the cells that changed are written
/// (a cursor move, then the cells): a ticking timer costs the few cells of its digits.
public final class Dashboard: @unchecked Sendable {
    public let renderer: TerminalRenderer
    public let clock: WidgetClock
    public let dates: DateText
    /// The terminal's width in columns.
    public var width: Int {
        didSet { if width != oldValue { lock.withLock { arranged = false } } }
    }
    /// The terminal's height in rows, when the dashboard owns the screen: the boxes scroll within
    /// it above a footer that always fits, and nothing is drawn outside it. Nil: as tall as the boxes
    /// (tests, benchmarks).
    public var height: Int? {
        didSet { if height != oldValue { lock.withLock { arranged = false } } }
    }
    /// The first row of boxes shown, when they do not fit the height.
    private var scrollOffset = 0
    /// The box whose next reload, its reason and the budget the footer tells (←→ or Tab move it);
    /// the first box while none is chosen.
    private var chosen: String?
    /// Rows of boxes in the last full compose.
    private var contentRows = 0
    private let write: @Sendable (String) -> Void
    /// Where ticks redraw: off the clock's thread, which must never wait on a terminal.
    private let queue: DispatchQueue?
    private let lock = Lock()
    /// A line under the boxes: the host's latest message (a bundle loaded, a refusal).
    private var message: String?
    private var panels: [String: Panel] = [:]
    private var screen: [[TerminalRenderer.StyledCell]] = []
    private var tick: ScheduledAction?
    private var tickDate: Date?
    /// Cells written so far: for tests and the benchmark.
    public private(set) var cellsWritten = 0

    /// A cell of the terminal's own background, between and beside boxes.
    static let blank = TerminalRenderer.StyledCell(background: false)

    struct Panel {
        var family: WidgetFamily
        var title: String
        var contentMarginsDisabled: Bool
        var status: InstanceStatus?
        /// The box as last drawn, kept while nothing in it can change: no new status, no live text.
        var drawn: [[TerminalRenderer.StyledCell]]?
        /// Whether its entry has text that changes by itself (a timer...): worked out once per status.
        var isLive: Bool

        init(family: WidgetFamily, title: String, contentMarginsDisabled: Bool, status: InstanceStatus?) {
            self.family = family
            self.title = title
            self.contentMarginsDisabled = contentMarginsDisabled
            self.status = status
            isLive = status?.entry.map { DateText.containsLive($0.view) } ?? false
        }
    }

    public init(
        renderer: TerminalRenderer, clock: WidgetClock, width: Int, dates: DateText = DateText(), queue: DispatchQueue? = nil,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.queue = queue
        self.renderer = renderer
        self.clock = clock
        self.width = max(20, width)
        self.dates = dates
        self.write = write
    }

    /// Shows an instance (or updates its box) and redraws. Its content is drawn within the family's
    /// content margins unless its widget disables them.
    public func show(id: String, family: WidgetFamily, title: String, contentMarginsDisabled: Bool = false, status: InstanceStatus?) {
        lock.withLock {
            let failure = status?.lastFailure
            if let failure, failure != panels[id]?.status?.lastFailure { setMessage("\(id): \(failure)") }
            // A new title is drawn in the box's top edge, in place; a new family changes its size.
            if panels[id].map({ $0.family != family }) ?? true { arranged = false }
            panels[id] = Panel(
                family: family, title: title, contentMarginsDisabled: contentMarginsDisabled, status: status ?? panels[id]?.status)
        }
        redraw()
    }

    /// Shows the boxes in this order (the home screen's, which the web page sets); ids not in it
    /// follow, in id order.
    public func arrange(order ids: [String]) {
        let changed = lock.withLock {
            guard ids != arrangement else { return false }
            arrangement = ids
            arranged = false
            return true
        }
        if changed { redraw() }
    }

    /// Keeps only these instances' boxes (the others were removed).
    public func retain(ids: Set<String>) {
        let removed = lock.withLock {
            let gone = panels.keys.filter { !ids.contains($0) }
            for id in gone { panels[id] = nil }
            if !gone.isEmpty { arranged = false }
            return !gone.isEmpty
        }
        if removed { redraw() }
    }

    /// Shows `line` under the boxes, in place of the previous message.
    public func post(_ line: String) {
        lock.withLock { setMessage(line) }
        redraw()
    }

    /// Called with the lock held.
    private func setMessage(_ line: String) {
        if line != message { arranged = false }
        message = line
    }

    /// Draws the current frame, writes what changed, and sets the next tick if a box needs one.
    ///
    /// When the arrangement is the one drawn last (the same boxes, sizes and message), only the boxes
    /// that may have changed are drawn again and compared, in place; otherwise the whole screen is.
    public func redraw() {
        // Written under the lock: two redraws on two threads must reach the terminal in the order
        // their frames were compared, or the screen would no longer be what `screen` says.
        lock.withLock {
            let now = clock.now()
            let changes: String
            if let height {
                // The screen is a window on the boxes: composed whole, cut to the window, compared.
                let next = viewport(compose(now: now), height: height)
                changes = difference(from: screen, to: next)
                screen = next
            } else if arranged, !screen.isEmpty {
                changes = redrawInPlace(now: now)
            } else {
                let next = compose(now: now)
                arranged = true
                changes = difference(from: screen, to: next)
                screen = next
            }
            scheduleTick(now: now)
            if !changes.isEmpty { write(changes) }
        }
    }

    /// Scrolls the boxes by `rows` (negative: up), within what there is to show, and redraws.
    public func scroll(by rows: Int) {
        lock.withLock {
            let page = max(1, (height ?? contentRows) - footerRows)
            scrollOffset = max(0, min(scrollOffset + rows, max(0, contentRows - page)))
        }
        redraw()
    }

    /// Selects the box `steps` after (negative: before) the selected one, in the order shown, and redraws.
    public func select(by steps: Int) {
        lock.withLock {
            guard !order.isEmpty else { return }
            let current = selectedID.flatMap { order.firstIndex(of: $0) } ?? 0
            let next = ((current + steps) % order.count + order.count) % order.count
            for id in [selectedID, order[next]].compactMap({ $0 }) { panels[id]?.drawn = nil }
            chosen = order[next]
            // Scrolled so that the box selected is in the window, whole where it fits.
            if let height, let place = positions[order[next]], let rows = boxRows[order[next]] {
                let window = max(1, height - footerRows)
                if place.row < scrollOffset {
                    scrollOffset = place.row
                } else if place.row + rows > scrollOffset + window {
                    scrollOffset = min(place.row, place.row + rows - window)
                }
            }
        }
        redraw()
    }

    /// The selected box's id: the one chosen, else the first.
    public var selected: String? { lock.withLock { selectedID } }

    /// Called with the lock held.
    private var selectedID: String? {
        if let chosen, panels[chosen] != nil { return chosen }
        return order.first { panels[$0] != nil } ?? panels.keys.sorted { $0.precedesNumerically($1) }.first
    }

    /// What the footer says of the selected box: when it next reloads and why, and its budget.
    func selectionLine() -> String? {
        guard let id = selectedID, let status = panels[id]?.status else { return nil }
        var line = id
        if let next = status.nextReload {
            line += ": next reload \(clockTime(next, seconds: true))"
            if let reason = status.nextReloadReason { line += " (\(reason.rawValue)\(status.deferredByBudget ? ", deferred by the budget" : ""))" }
        } else {
            line += ": no reload due"
        }
        return line + ", \(status.reloadsInWindow) reload\(status.reloadsInWindow == 1 ? "" : "s") in 24 h"
    }

    /// "14:05" (or "14:05:09") in the dates' time zone.
    func clockTime(_ date: Date, seconds: Bool = false) -> String {
        LocalTime(dates.timeZone).text(date, seconds ? "%H:%M:%S" : "%H:%M")
    }

    /// Rows one page scrolls: the window's height above the footer, less one kept for context.
    public var pageRows: Int { lock.withLock { max(1, (height ?? contentRows) - footerRows - 1) } }

    /// The rows under the boxes in a window: the latest message (when there is one), the selected
    /// box's line (when one is), and the keys. Called with the lock held.
    private var footerRows: Int { 1 + (message == nil ? 0 : 1) + (selectedID == nil ? 0 : 1) }

    /// The window the terminal shows: rows of boxes from `scrollOffset`, each cut to the width
    /// (a wide character cut in half becomes a blank), then at the bottom the latest message, the
    /// selected box's line and the keys, each a row that always fits.
    func viewport(_ content: [[TerminalRenderer.StyledCell]], height: Int) -> [[TerminalRenderer.StyledCell]] {
        let available = max(1, height - footerRows)
        contentRows = content.count
        scrollOffset = max(0, min(scrollOffset, max(0, content.count - available)))
        var rows: [[TerminalRenderer.StyledCell]] = content.dropFirst(scrollOffset).prefix(available).map { row in
            var cut = Array(row.prefix(width))
            if cut.count < width { cut += Array(repeating: Self.blank, count: width - cut.count) }
            if row.count > width, row[width].isContinuation, let last = cut.indices.last { cut[last] = Self.blank }
            return cut
        }
        if panels.isEmpty {
            let hint = ["No widgets yet.", "Add one: widgets add KIND   (widgets list shows the kinds)", "It appears here at once."]
            rows = hint.map { Self.line($0, width: width, color: nil) }
        }
        while rows.count < available { rows.append(Array(repeating: Self.blank, count: width)) }
        if let message { rows.append(Self.line(message, width: width, color: "secondary")) }
        if let selection = selectionLine() { rows.append(Self.line("▸ " + selection, width: width, color: nil)) }
        var keys = "q quit"
        if content.count > available {
            keys += " · ↑↓ PgUp PgDn scroll, rows \(scrollOffset + 1)–\(min(content.count, scrollOffset + available)) of \(content.count)"
        }
        if panels.count > 1 { keys += " · ←→ Tab select" }
        rows.append(Self.line(keys, width: width, color: "secondary"))
        return Array(rows.prefix(height))
    }

    /// Text as one row of cells exactly `width` wide: cut with "…" when longer.
    static func line(_ text: String, width: Int, color: String?) -> [TerminalRenderer.StyledCell] {
        var cells = TerminalText.cells(text)
        if cells.count > width {
            var keep = max(0, width - 1)
            // A wide character whose second half would be cut goes whole.
            while keep > 0, keep < cells.count, cells[keep].isContinuation { keep -= 1 }
            cells = Array(cells.prefix(keep)) + TerminalText.cells("…")
        }
        let row = cells.map { TerminalRenderer.StyledCell(text: $0.text, color: color, background: false, isContinuation: $0.isContinuation) }
        return row + Array(repeating: blank, count: max(0, width - row.count))
    }

    /// Forgets every drawn box, so the next frame lays out and draws all of them (a benchmark's full
    /// frame; a change of appearance).
    public func invalidate() {
        lock.withLock {
            for id in panels.keys { panels[id]?.drawn = nil }
        }
    }

    /// Where each box's top-left cell is on the screen, from the last full compose.
    private var positions: [String: (row: Int, column: Int)] = [:]
    /// The ids in the order the last full compose placed them.
    private var order: [String] = []
    /// Each box's height in rows, from the last full compose.
    private var boxRows: [String: Int] = [:]
    /// The order asked for (`arrange`), the home screen's.
    private var arrangement: [String] = []
    /// Whether the screen is arranged as now: no box added, removed or resized, no new message or
    /// width since the last full compose. Cleared wherever one of those changes.
    private var arranged = false

    /// Draws again the boxes not kept from the last frame, and compares each with its place on the
    /// screen.
    private func redrawInPlace(now: Date) -> String {
        var output = ""
        let ids = order.filter { panels[$0]!.drawn == nil && positions[$0] != nil }
        for (id, box) in zip(ids, boxes(ids, now: now, drawing: ids)) {
            let origin = positions[id]!
            for (offset, row) in box.enumerated() {
                let line = origin.row + offset
                let columns = origin.column..<(origin.column + row.count)
                guard line < screen.count, columns.upperBound <= screen[line].count, !Self.same(screen[line][columns], row) else { continue }
                output += changedRuns(line: line, from: Array(screen[line][columns]), to: row, offset: origin.column)
                screen[line].replaceSubrange(columns, with: row)
            }
        }
        return output
    }

    /// Whether a stretch of the screen holds these cells, compared as memory: equal bytes are equal
    /// cells. (Equal cells are equal bytes too, as a cell has no padding; were they not, the row
    /// would only be compared again cell by cell, finding nothing to write.)
    private static func same(_ cells: ArraySlice<TerminalRenderer.StyledCell>, _ row: [TerminalRenderer.StyledCell]) -> Bool {
        guard cells.count == row.count else { return false }
        guard !row.isEmpty else { return true }
        return cells.withUnsafeBytes { old in
            row.withUnsafeBytes { new in memcmp(old.baseAddress!, new.baseAddress!, new.count) == 0 }
        }
    }

    /// The whole screen, for a first draw or a test: every row encoded.
    public var text: String {
        lock.withLock { screen.map(renderer.encode).joined(separator: "\n") }
    }

    // MARK: Frames

    /// The boxes in the order arranged (else id order), left to right, wrapping at the terminal's
    /// width, one column apart; the message under them unless a window puts it at its bottom.
    func compose(now: Date) -> [[TerminalRenderer.StyledCell]] {
        var rows: [[TerminalRenderer.StyledCell]] = []
        var line: [[[TerminalRenderer.StyledCell]]] = []
        var lineIDs: [String] = []
        var lineWidth = 0
        positions = [:]
        boxRows = [:]
        // As arranged, then the rest in id order, numbers as numbers: clock-2 before clock-10.
        let placed = arrangement.filter { panels[$0] != nil }
        let rest = Set(panels.keys).subtracting(placed).sorted { $0.precedesNumerically($1) }
        order = placed + rest
        func flushLine() {
            var column = 0
            for (id, box) in zip(lineIDs, line) {
                positions[id] = (rows.count, column)
                boxRows[id] = box.count
                column += (box.first?.count ?? 0) + 1
            }
            lineIDs = []
            let height = line.map(\.count).max() ?? 0
            for row in 0..<height {
                var cells: [TerminalRenderer.StyledCell] = []
                for (index, box) in line.enumerated() {
                    if index > 0 { cells.append(Self.blank) }
                    let boxWidth = box.first?.count ?? 0
                    cells += row < box.count ? box[row] : Array(repeating: Self.blank, count: boxWidth)
                }
                rows.append(cells)
            }
            line = []
            lineWidth = 0
        }
        for (id, box) in zip(order, boxes(order, now: now, drawing: order.filter { panels[$0]!.drawn == nil })) {
            let boxWidth = box.first?.count ?? 0
            if !line.isEmpty, lineWidth + 1 + boxWidth > width { flushLine() }
            lineWidth += (line.isEmpty ? 0 : 1) + boxWidth
            line.append(box)
            lineIDs.append(id)
        }
        flushLine()
        if let message, height == nil {
            rows.append([])
            rows.append(
                TerminalText.cells(String(message.prefix(width))).map {
                    TerminalRenderer.StyledCell(text: $0.text, color: "secondary", background: false, isContinuation: $0.isContinuation)
                })
        }
        // Every row as wide as the widest, so a shorter frame clears what a longer one left.
        let columns = rows.map(\.count).max() ?? 0
        return rows.map { $0 + Array(repeating: Self.blank, count: columns - $0.count) }
    }

    /// Several panels' boxes, in order: as kept from the last frame, or drawn now, those in `drawing`
    /// (the ones not kept) at once, one per core (each box's layout and drawing is its own; a full
    /// frame of 100 boxes takes 0.6 of the time on two cores). Called with the lock held, which the
    /// drawing threads never take.
    private func boxes(_ ids: [String], now: Date, drawing: [String]) -> [[[TerminalRenderer.StyledCell]]] {
        let drawn = Mutex([String: [[TerminalRenderer.StyledCell]]](minimumCapacity: drawing.count))
        let shown = panels
        DispatchQueue.concurrentPerform(iterations: drawing.count) { index in
            let id = drawing[index]
            let grid = self.grid(for: shown[id]!, id: id, now: now)
            drawn.withLock { $0[id] = grid }
        }
        let grids = drawn.withLock { $0 }
        // Kept when nothing in it can change until its status does.
        for (id, grid) in grids where !shown[id]!.isLive { panels[id]?.drawn = grid }
        return ids.map { grids[$0] ?? panels[$0]!.drawn! }
    }

    func grid(for panel: Panel, id: String, now: Date) -> [[TerminalRenderer.StyledCell]] {
        // The selected box is marked where the footer can say which it tells of (with a height only).
        let title = (height != nil && id == selectedID ? "▸ " : "") + "\(id) · \(panel.title)"
        guard let status = panel.status else { return renderer.messageGrid("waiting…", family: panel.family, title: title) }
        switch status.phase {
        case .bundleMissing: return renderer.messageGrid("bundle missing", family: panel.family, title: title)
        case .loading: return renderer.messageGrid(status.lastFailure.map { "failed: \($0)" } ?? "loading…", family: panel.family, title: title)
        case .showing:
            guard let entry = status.entry else { return renderer.messageGrid("no entry", family: panel.family, title: title) }
            // A failure beside the last good entry is not silent: the box's bottom edge says how old
            // what it shows is ("as of 14:05", the entry's date), and the message line below the
            // boxes has the failure whole.
            let asOf = status.lastFailure.map { _ in "as of \(clockTime(Date(timeIntervalSince1970: entry.date)))" }
            return renderer.grid(
                entry.view, family: panel.family, title: title, now: now, dates: dates, invalidated: status.invalidated,
                footer: asOf, contentMarginsDisabled: panel.contentMarginsDisabled)
        }
    }

    /// Escape sequences that turn `old` into `new`: for each run of changed cells in a row, a cursor
    /// move and the cells. A frame of another height is drawn whole.
    func difference(from old: [[TerminalRenderer.StyledCell]], to new: [[TerminalRenderer.StyledCell]]) -> String {
        var output = ""
        if old.count != new.count || old.first?.count != new.first?.count {
            output += "\u{1B}[H\u{1B}[2J"
            for (index, row) in new.enumerated() {
                output += "\u{1B}[\(index + 1);1H" + renderer.encode(row)
                cellsWritten += row.count
            }
            return output
        }
        for (index, (before, after)) in zip(old, new).enumerated() where before != after {
            output += changedRuns(line: index, from: before, to: after, offset: 0)
        }
        return output
    }

    /// For each run of changed cells between two versions of (part of) a screen line: a cursor move
    /// and the cells. `offset` is the screen column of the part's first cell.
    func changedRuns(line: Int, from before: [TerminalRenderer.StyledCell], to after: [TerminalRenderer.StyledCell], offset: Int) -> String {
        var output = ""
        var column = 0
        while column < after.count {
            guard before[column] != after[column] else {
                column += 1
                continue
            }
            // A run of changed cells; a wide character's continuation goes with its first half.
            var start = column
            while start > 0, after[start].isContinuation { start -= 1 }
            var end = column
            while end < after.count, before[end] != after[end] || after[end].isContinuation { end += 1 }
            let run = Array(after[start..<end])
            // Cells are screen columns: a wide character's second half is a cell of its own.
            output += "\u{1B}[\(line + 1);\(offset + start + 1)H" + renderer.encode(run)
            cellsWritten += run.count
            column = end
        }
        return output
    }

    // MARK: Ticking

    /// A tick at the next whole second while any shown entry has live text; none otherwise.
    private func scheduleTick(now: Date) {
        let live = panels.values.contains(where: \.isLive)
        guard live else {
            tick?.cancel()
            tick = nil
            tickDate = nil
            return
        }
        let next = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + 0.000_001).rounded(.down) + 1)
        if let tickDate, tickDate <= next, tick != nil { return }
        tick?.cancel()
        tickDate = next
        let queue = self.queue
        tick = clock.schedule(at: next) { [weak self] in
            guard let self else { return }
            self.lock.withLock {
                self.tick = nil
                self.tickDate = nil
            }
            if let queue { queue.async { self.redraw() } } else { self.redraw() }
        }
    }
}
