import FoundationEssentials
import WidgetWire

/// Draws a widget's view tree in a framed box of its family's size, with colour.
public struct TerminalRenderer: Sendable {
    public enum ColorMode: String, Sendable, CaseIterable {
        /// Plain text: `NO_COLOR`, or output that is not a terminal.
        case none
        /// The xterm 256-colour palette.
        case ansi256 = "256"
        /// 24-bit colour (`COLORTERM=truecolor`).
        case truecolor
    }

    public var colorMode: ColorMode
    public var appearance: Appearance
    /// The rendering mode to draw in; nil for each family's own (vibrant for accessory families).
    public var renderingMode: RenderingEnvironment.RenderingMode?
    /// Draws as on a locked device: privacy-sensitive views are redacted.
    public var isLocked: Bool

    public init(colorMode: ColorMode, appearance: Appearance, renderingMode: RenderingEnvironment.RenderingMode? = nil, isLocked: Bool = false) {
        self.colorMode = colorMode
        self.appearance = appearance
        self.renderingMode = renderingMode
        self.isLocked = isLocked
    }

    /// The environment a family's views are built and drawn for: what a request to the provider
    /// should carry.
    public func environment(for family: WidgetFamily) -> RenderingEnvironment {
        .standard(for: family, colorScheme: appearance, mode: renderingMode)
    }

    /// The colour mode the environment asks for: none with `NO_COLOR` set (any value) or when the
    /// output is not a terminal; truecolor with `COLORTERM=truecolor` or `24bit`; else 256 colours.
    public static func colorMode(environment: [String: String], isTerminal: Bool) -> ColorMode {
        if environment["NO_COLOR"].map({ !$0.isEmpty }) == true || !isTerminal { return .none }
        if let colorTerm = environment["COLORTERM"], ["truecolor", "24bit"].contains(colorTerm) { return .truecolor }
        return .ansi256
    }

    /// The box's lines: a frame of the family's size with `title` in its top edge, the content
    /// laid out inside, within the family's content margins unless the widget disables them.
    public func render(
        _ view: ViewNode, family: WidgetFamily, title: String? = nil, now: Date = Date(), dates: DateText = DateText(),
        contentMarginsDisabled: Bool = false
    ) -> [String] {
        grid(view, family: family, title: title, now: now, dates: dates, contentMarginsDisabled: contentMarginsDisabled).map(encode)
    }

    /// The layout for a family: in its environment, locked or not; `invalidated` while an
    /// interaction's reload is pending (`invalidatableContent` then shows as stale).
    func layout(_ family: WidgetFamily, now: Date, dates: DateText, invalidated: Bool, contentMarginsDisabled: Bool) -> Layout {
        Layout(
            metrics: TerminalMetrics(), now: now, dates: dates, environment: environment(for: family), isLocked: isLocked,
            isInvalidated: invalidated, contentMargin: contentMarginsDisabled ? 0 : family.contentMargin)
    }

    /// The box as cells, frame included: what `render` encodes, and what a dashboard compares from
    /// one frame to the next.
    /// `footer`, when given, is written into the bottom edge in red: a failure beside the last good
    /// entry.
    public func grid(
        _ view: ViewNode, family: WidgetFamily, title: String? = nil, now: Date = Date(), dates: DateText = DateText(), invalidated: Bool = false,
        footer: String? = nil, contentMarginsDisabled: Bool = false
    ) -> [[StyledCell]] {
        let (columns, rows) = family.terminalSize
        var canvas = Canvas(columns: columns, rows: rows, appearance: appearance)
        let layout = layout(family, now: now, dates: dates, invalidated: invalidated, contentMarginsDisabled: contentMarginsDisabled)
        if let background = layout.containerBackground(of: view) {
            canvas.draw(PlacedElement(rect: LayoutRect(x: 0, y: 0, width: Double(columns), height: Double(rows)), content: .fill(background, .rectangle)))
        }
        for element in layout.place(view, in: (Double(columns), Double(rows))) {
            canvas.draw(element)
        }
        return Self.framed(&canvas, title: title, footer: footer)
    }

    /// A box of `columns` × `rows` showing one line of `message` in a secondary colour: what a
    /// dashboard shows for an instance with no entry.
    public func messageGrid(_ message: String, family: WidgetFamily, title: String?) -> [[StyledCell]] {
        let (columns, rows) = family.terminalSize
        var canvas = Canvas(columns: columns, rows: rows, appearance: appearance)
        var style = TextStyle()
        style.color = "secondary"
        let text = ViewNode("text", attributes: JSONObject([("text", .string(message))]))
        for element in Layout(metrics: TerminalMetrics()).place(text, in: (Double(columns), Double(rows))) {
            if case .text(let line, _) = element.content { canvas.draw(PlacedElement(rect: element.rect, content: .text(line, style))) }
        }
        return Self.framed(&canvas, title: title)
    }

    // MARK: Drawing

    /// One terminal cell: a character (or the right half of a wide one) and its style.
    ///
    /// Plain values, no strings: a frame of a hundred widgets is some 60 000 cells, laid out, copied
    /// and compared with the last frame, and a cell of strings would cost reference counting at
    /// every step.
    public struct StyledCell: Equatable, Sendable {
        /// The character: its scalar, or (with the top bit) its number in `Glyphs` for characters of
        /// several scalars; 0 for none (the second half of a wide character).
        var glyph: UInt32 = 0x20
        var ink = CellColor.none
        public var bold = false
        /// On the widget's background (content), or on the terminal's own (the frame).
        public var background = true
        /// The second column of a wide character: drawn by the first.
        public var isContinuation = false
        /// Fills the byte that would be padding, so a cell's every byte is set and equal rows of
        /// cells are equal memory (the dashboard compares them so).
        private var spare: UInt8 = 0
        var paper = CellColor.none

        public init(
            text: String = " ", color: String? = nil, bold: Bool = false, background: Bool = true, isContinuation: Bool = false,
            fill: String? = nil
        ) {
            self.init(
                glyph: Glyphs.code(text), ink: CellColor(color), bold: bold, background: background, isContinuation: isContinuation,
                paper: CellColor(fill))
        }

        init(glyph: UInt32, ink: CellColor, bold: Bool = false, background: Bool = true, isContinuation: Bool = false, paper: CellColor) {
            self.glyph = glyph
            self.ink = ink
            self.bold = bold
            self.background = background
            self.isContinuation = isContinuation
            self.paper = paper
        }

        /// The character shown.
        public var text: String { Glyphs.text(glyph) }
        /// Its colour: a name or `#rrggbb`; nil for the primary colour.
        public var color: String? { ink.name }
        /// The colour behind it (a `background` modifier, the widget's container background); nil
        /// for the system background.
        public var fill: String? {
            get { paper.name }
            set { paper = CellColor(newValue) }
        }
    }

    typealias Cell = StyledCell

    /// The frame's pieces, made once: every box of every frame is drawn with them.
    enum FramePiece {
        static let (topLeft, topRight, bottomLeft, bottomRight) = (edge("╭"), edge("╮"), edge("╰"), edge("╯"))
        static let (across, side) = (edge("─"), edge("│"))
        static let (separator, red) = (CellColor("separator"), CellColor("red"))
        static func edge(_ text: String) -> Cell { Cell(text: text, color: "separator", background: false) }
    }

    /// `rows` inside a rounded frame, in place, with the title in its top edge (and `footer`, in
    /// red, in its bottom edge): each row gets its sides (the canvas leaves room for them).
    static func frame(_ rows: inout [[Cell]], title: String?, footer: String? = nil) {
        let columns = rows.first?.count ?? 0
        /// An edge with `text` in it after one rule, cut to fit with "…".
        func edge(_ left: Cell, _ right: Cell, _ text: String?, color: CellColor) -> [Cell] {
            var cells = [left]
            cells.reserveCapacity(columns + 2)
            guard let text, columns > 4 else {
                cells += repeatElement(FramePiece.across, count: columns)
                cells.append(right)
                return cells
            }
            var label = " \(text) "
            if TerminalText.width(label) > columns - 2 {
                while TerminalText.width(label) > columns - 4, !label.isEmpty { label.removeLast() }
                label += "… "
            }
            cells.append(FramePiece.across)
            let labelStart = cells.count
            for (glyph, width, _) in TerminalText.CellGlyphs(label) {
                cells.append(Cell(glyph: glyph, ink: color, background: false, paper: .none))
                if width == 2 { cells.append(Cell(glyph: 0, ink: color, background: false, isContinuation: true, paper: .none)) }
            }
            cells += repeatElement(FramePiece.across, count: max(0, columns - 1 - (cells.count - labelStart)))
            cells.append(right)
            return cells
        }
        for index in rows.indices {
            rows[index].insert(FramePiece.side, at: 0)
            rows[index].append(FramePiece.side)
        }
        rows.insert(edge(FramePiece.topLeft, FramePiece.topRight, title, color: FramePiece.separator), at: 0)
        rows.append(edge(FramePiece.bottomLeft, FramePiece.bottomRight, footer, color: FramePiece.red))
    }

    /// A canvas's cells, framed.
    static func framed(_ canvas: inout Canvas, title: String?, footer: String? = nil) -> [[Cell]] {
        var rows = canvas.cells
        canvas.cells = []  // the canvas lets go of its rows, so they are framed in place, not copied
        frame(&rows, title: title, footer: footer)
        return rows
    }

    /// A row of cells as text, one escape sequence per run of one style.
    public func encode(_ row: [StyledCell]) -> String {
        var line = ""
        var run = ""
        var runStyle: (CellColor, Bool, Bool, CellColor)?
        func flush() {
            guard let style = runStyle else { return }
            line += paint(run, ink: style.0, bold: style.1, background: style.2, paper: style.3)
            run = ""
        }
        for cell in row where !cell.isContinuation {
            if runStyle.map({ $0.0 != cell.ink || $0.1 != cell.bold || $0.2 != cell.background || $0.3 != cell.paper }) ?? true {
                flush()
                runStyle = (cell.ink, cell.bold, cell.background, cell.paper)
            }
            Glyphs.append(cell.glyph, to: &run)
        }
        flush()
        return line
    }

    /// `text` in a colour, on the widget's background (or a fill), in the chosen mode.
    func paint(_ text: String, ink: CellColor, bold: Bool, background: Bool, paper: CellColor = .none) -> String {
        guard colorMode != .none else { return text }
        var codes: [String] = []
        if bold { codes.append("1") }
        codes.append(code(for: (ink == .none ? CellColor("primary") : ink).rgb(appearance), foreground: true))
        if background {
            codes.append(code(for: paper == .none ? SystemColors.background(appearance) : paper.rgb(appearance), foreground: false))
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m" + text + "\u{1B}[0m"
    }

    func code(for rgb: (Int, Int, Int), foreground: Bool) -> String {
        let (red, green, blue) = rgb
        switch colorMode {
        case .truecolor: return "\(foreground ? 38 : 48);2;\(red);\(green);\(blue)"
        case .ansi256, .none: return "\(foreground ? 38 : 48);5;\(SystemColors.xterm256(red, green, blue))"
        }
    }
}
