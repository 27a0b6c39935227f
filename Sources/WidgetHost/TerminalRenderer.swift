import Foundation
import WidgetWire

extension WidgetFamily {
    /// The family's size in terminal cells: a cell stands for 8 × 16 points (a terminal cell is about
    /// twice as tall as wide), so a small widget's 158 × 158 points are 20 × 10 cells. The inline
    /// accessory is one line of text, one row.
    public var terminalSize: (columns: Int, rows: Int) {
        let points = displaySize
        let columns = Int((points.width / 8).rounded())
        return self == .accessoryInline ? (columns, 1) : (columns, Int((points.height / 16).rounded()))
    }
}

/// Terminal cells as layout units: every font one cell high, a character one cell wide (two for
/// wide characters such as emoji and CJK), 8 × 16 points a cell.
public struct TerminalMetrics: LayoutMetrics {
    public init() {}

    public func width(of text: String, style: TextStyle) -> Double { Double(TerminalText.width(text)) }
    public func lineHeight(_ style: TextStyle) -> Double { 1 }
    public func horizontal(_ points: Double) -> Double { points / 8 }
    public func vertical(_ points: Double) -> Double { points / 16 }
    /// SwiftUI's default stack spacing (about 8 points) is a column across; down, a row would cost
    /// a small widget a tenth of its height, so none.
    public var defaultSpacing: (horizontal: Double, vertical: Double) { (1, 0) }
    public var dividerThickness: Double { 1 }
    public var barThickness: Double { 1 }
    public func snap(_ length: Double) -> Double { length.isFinite ? length.rounded(.down) : length }
    public func wordWidths(of text: String, style: TextStyle) -> [Double]? { TerminalText.wordWidths(text) }
}

/// Display widths of text in a terminal.
public enum TerminalText {
    /// Whether the bytes are all printable ASCII (U+0020 to U+007E, a column each; no control
    /// characters): eight at a time.
    static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let (ones, high): (UInt64, UInt64) = (0x0101_0101_0101_0101, 0x8080_8080_8080_8080)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if word & high != 0 { return false }
            // A byte below 0x20 borrows into its high bit; so does DEL's, once xored with 0x7F.
            if (word &- ones &* 0x20) & ~word & high != 0 { return false }
            let delete = word ^ (ones &* 0x7F)
            if (delete &- ones) & ~delete & high != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            if !(0x20..<0x7F).contains(bytes[offset]) { return false }
            offset += 1
        }
        return true
    }

    /// Columns `text` takes: 2 for wide and emoji characters, 0 for combining marks and joiners.
    ///
    /// Text is measured a scalar at a time, without breaking it into characters (which is slow);
    /// only text with scalars that join characters (joiners, selectors, marks, skin tones, flags)
    /// is measured character by character.
    public static func width(_ text: String) -> Int {
        // Printable ASCII, the common case, is one column a byte.
        if text.utf8.withContiguousStorageIfAvailable(isPrintableASCII) ?? text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) {
            return text.utf8.count
        }
        var total = 0
        for scalar in text.unicodeScalars {
            let columns = kind(of: scalar)
            if columns == joins { return text.reduce(0) { $0 + width(of: $1) } }
            total += Int(columns)
        }
        return total
    }

    /// The columns of `text`'s words (split at spaces), where each scalar is a character of its
    /// own, as in most text: then a run of words takes exactly its words' and spaces' columns. Nil
    /// for text with characters of several scalars (accents, emoji sequences, flags).
    static func wordWidths(_ text: String) -> [Double]? {
        // Printable ASCII, the common case: a column a byte, words between the spaces' bytes.
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> [Double]? in
            guard isPrintableASCII(bytes) else { return nil }
            let space = UInt8(ascii: " ")
            var widths: [Double] = []
            widths.reserveCapacity(bytes.reduce(1) { $1 == space ? $0 + 1 : $0 })
            var start = 0
            for index in 0..<bytes.count where bytes[index] == space {
                widths.append(Double(index - start))
                start = index + 1
            }
            widths.append(Double(bytes.count - start))
            return widths
        }
        if case let widths?? = ascii { return widths }
        // Each scalar a character of its own (found without breaking the text into characters).
        guard isSimple(text) else { return nil }
        var widths: [Double] = []
        widths.reserveCapacity(text.unicodeScalars.reduce(1) { $1 == " " ? $0 + 1 : $0 })
        var current = 0
        for scalar in text.unicodeScalars {
            if scalar == " " {
                widths.append(Double(current))
                current = 0
            } else {
                current += width(of: scalar)
            }
        }
        widths.append(Double(current))
        return widths
    }

    /// Whether each of `text`'s scalars is a character of its own, of one or two columns: no
    /// joiners, selectors, combining marks or other scalars that make a character of several.
    static func isSimple(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            let columns = kind(of: scalar)
            return columns == joins || columns == 0
        }
    }

    /// Each of `text`'s characters as a cell's glyph, with its columns (1 or 2; characters of none
    /// are skipped) and whether it is whitespace. By scalar where each is a character of its own
    /// (all but emoji sequences and combined marks), without breaking the text into characters.
    struct CellGlyphs: Sequence, IteratorProtocol {
        private var scalars: String.UnicodeScalarView.Iterator?
        private var characters: String.Iterator?

        init(_ text: String) {
            if isSimple(text) { scalars = text.unicodeScalars.makeIterator() } else { characters = text.makeIterator() }
        }

        mutating func next() -> (glyph: UInt32, width: Int, isWhitespace: Bool)? {
            if scalars != nil {
                while let scalar = scalars?.next() {
                    let width = width(of: scalar)
                    guard width > 0 else { continue }
                    return (scalar.value, width, scalar.isASCII ? scalar == " " : scalar.properties.isWhitespace)
                }
                return nil
            }
            while let character = characters?.next() {
                let width = width(of: character)
                guard width > 0 else { continue }
                return (Glyphs.code(character), width, character.isWhitespace)
            }
            return nil
        }
    }

    /// `text` as cells: a character each, and an empty continuation after a wide one.
    public static func cells(_ text: String) -> [(text: String, isContinuation: Bool)] {
        var cells: [(text: String, isContinuation: Bool)] = []
        for character in text {
            let width = width(of: character)
            guard width > 0 else { continue }
            cells.append((String(character), false))
            if width == 2 { cells.append(("", true)) }
        }
        return cells
    }

    public static func width(of character: Character) -> Int {
        // A control character (a line break, a tab, an escape, "\r\n") takes no column and is not drawn.
        if character.isASCII { return Int(kind(of: character.unicodeScalars.first!)) }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1, scalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) { return 2 }
        return width(of: first)
    }

    /// A scalar's columns on its own (a mark or joiner alone takes none).
    static func width(of scalar: Unicode.Scalar) -> Int {
        let columns = kind(of: scalar)
        return columns == joins ? standalone(scalar) : Int(columns)
    }

    /// What `kind(of:)` says of a scalar whose width depends on the character it is part of.
    static let joins: UInt8 = 0xFF

    /// A scalar's columns (0, 1 or 2), or `joins`. The scalars below U+3000 (Latin, Greek,
    /// Cyrillic, punctuation, symbols, arrows, box drawing) come from a table worked out once
    /// (12 KiB, about 2 ms); the rest from their properties.
    static func kind(of scalar: Unicode.Scalar) -> UInt8 {
        let value = scalar.value
        // Control characters take no column: drawn, they would move the cursor or start an escape.
        if value < 0x80 { return scalar.isControl ? 0 : 1 }
        if value < tableEnd { return table[Int(value)] }
        return classify(scalar)
    }

    private static let tableEnd: UInt32 = 0x3000
    private static let table: [UInt8] = (0..<tableEnd).map { value in Unicode.Scalar(value).map(classify) ?? 1 }

    /// `joins` for the scalars that combine with their neighbours into one character of another
    /// width: the zero-width joiner, variation selectors, the keycap mark, spacing and enclosing
    /// marks, Hangul vowel and final jamo, default-ignorable scalars (the zero-width non-joiner,
    /// soft hyphens), skin tones, regional indicators (flags) and tags. Otherwise its width.
    private static func classify(_ scalar: Unicode.Scalar) -> UInt8 {
        switch scalar.value {
        case 0x200D, 0xFE00...0xFE0F, 0x20E3, 0x1160...0x11FF, 0xD7B0...0xD7FF, 0x1F3FB...0x1F3FF, 0x1F1E6...0x1F1FF, 0xE0000...0xE007F:
            return joins
        default:
            break
        }
        let properties = scalar.properties
        if properties.isDefaultIgnorableCodePoint { return joins }
        switch properties.generalCategory {
        case .spacingMark, .enclosingMark: return joins
        default: return UInt8(standalone(scalar))
        }
    }

    /// A scalar's width from its properties alone: 2 for the wide (East Asian) ranges and emoji
    /// presentation, 0 for non-spacing marks and default-ignorable scalars, else 1.
    private static func standalone(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            let properties = scalar.properties
            if properties.isEmojiPresentation { return 2 }
            switch properties.generalCategory {
            case .nonspacingMark, .control: return 0
            default: return properties.isDefaultIgnorableCodePoint ? 0 : 1
            }
        }
    }
}

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

    /// Light or dark: the colour scheme views are built for and drawn in.
    public typealias Appearance = RenderingEnvironment.ColorScheme

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
    /// laid out inside.
    public func render(_ view: ViewNode, family: WidgetFamily, title: String? = nil, now: Date = Date(), dates: DateText = DateText())
        -> [String]
    {
        grid(view, family: family, title: title, now: now, dates: dates).map(encode)
    }

    /// The layout for a family: in its environment, locked or not; `invalidated` while an
    /// interaction's reload is pending (`invalidatableContent` then shows as stale).
    func layout(_ family: WidgetFamily, now: Date, dates: DateText, invalidated: Bool) -> Layout {
        Layout(
            metrics: TerminalMetrics(), now: now, dates: dates, environment: environment(for: family), isLocked: isLocked,
            isInvalidated: invalidated)
    }

    /// The box as cells, frame included: what `render` encodes, and what a dashboard compares from
    /// one frame to the next.
    /// `footer`, when given, is written into the bottom edge in red: a failure beside the last good
    /// entry.
    public func grid(
        _ view: ViewNode, family: WidgetFamily, title: String? = nil, now: Date = Date(), dates: DateText = DateText(), invalidated: Bool = false,
        footer: String? = nil
    ) -> [[StyledCell]] {
        let (columns, rows) = family.terminalSize
        var canvas = Canvas(columns: columns, rows: rows, appearance: appearance)
        let layout = layout(family, now: now, dates: dates, invalidated: invalidated)
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

    struct Canvas {
        // What drawing uses for every element, made once.
        static let redacted = CellColor("redacted")
        static let separator = CellColor("separator")
        static let redactionBar = Glyphs.code("▆")
        static let (barFull, barEmpty, barUnknown) = (Glyphs.code("█"), Glyphs.code("░"), Glyphs.code("▒"))
        static let horizontalRule = Cell(text: "─", color: "separator")
        static let verticalRule = Cell(text: "│", color: "separator")

        let columns: Int
        let rows: Int
        /// Gradients are resolved to a colour per cell, in this appearance.
        let appearance: Appearance
        var cells: [[Cell]]

        init(columns: Int, rows: Int, appearance: Appearance) {
            self.columns = columns
            self.rows = rows
            self.appearance = appearance
            // Each row its own, with room for the frame's two sides. (Not by
            // `unsafeUninitializedCapacity`, which looks its storage type up at run time, per row.)
            let blank = Cell()
            cells = []
            cells.reserveCapacity(rows + 2)
            for _ in 0..<rows {
                var row: [Cell] = []
                row.reserveCapacity(columns + 2)
                row.append(contentsOf: repeatElement(blank, count: columns))
                cells.append(row)
            }
        }

        /// The colour of a paint at the centre of cell (`column`, `row`) of `rect`: a gradient's
        /// colour there, a colour as named.
        func color(_ paint: Paint, column: Int, row: Int, in rect: LayoutRect) -> CellColor {
            guard case .linearGradient = paint else {
                if case .color(let name) = paint { return CellColor(name) }
                return .none
            }
            let x = rect.width > 0 ? (Double(column) + 0.5 - rect.x) / rect.width : 0.5
            let y = rect.height > 0 ? (Double(row) + 0.5 - rect.y) / rect.height : 0.5
            return CellColor(rgb: paint.rgb(x: x, y: y, appearance))
        }

        mutating func draw(_ element: PlacedElement) {
            let x = Int(element.rect.x)
            let y = Int(element.rect.y)
            switch element.content {
            case .text(let text, let style):
                guard (0..<rows).contains(y) else { return }
                var column = x
                let limit = min(columns, x + Int(element.rect.width.rounded(.up)))
                let solid = CellColor(style.color)
                let (redacted, bar) = (Self.redacted, Self.redactionBar)
                // The style read once, not at every character.
                let (redacts, bold, gradient) = (style.redacted, style.isBold, style.gradient)
                // A character each.
                func put(_ glyph: UInt32, width: Int, isWhitespace: Bool) -> Bool {
                    guard column >= 0, column + width <= limit else { return false }
                    let redact = redacts && !isWhitespace
                    let paper = cells[y][column].paper
                    let ink = gradient.map { self.color(.linearGradient($0), column: column, row: y, in: element.rect) } ?? solid
                    cells[y][column] = Cell(glyph: redact ? bar : glyph, ink: redact ? redacted : ink, bold: bold && !redact, paper: paper)
                    if width == 2 { cells[y][column + 1] = Cell(glyph: redact ? bar : 0, ink: redact ? redacted : .none, isContinuation: !redact, paper: paper) }
                    column += width
                    return true
                }
                // Printable ASCII, the common case, a byte at a time: a column each.
                let wasASCII =
                    text.utf8.withContiguousStorageIfAvailable { bytes in
                        guard TerminalText.isPrintableASCII(bytes) else { return false }
                        for byte in bytes {
                            guard put(UInt32(byte), width: 1, isWhitespace: byte == UInt8(ascii: " ")) else { break }
                        }
                        return true
                    } ?? false
                if !wasASCII {
                    for (glyph, width, isWhitespace) in TerminalText.CellGlyphs(text) {
                        guard put(glyph, width: width, isWhitespace: isWhitespace) else { break }
                    }
                }
            case .rule(let horizontal):
                if horizontal {
                    guard (0..<rows).contains(y) else { return }
                    let rule = Self.horizontalRule
                    for column in max(0, x)..<max(max(0, x), min(columns, x + Int(element.rect.width))) {
                        cells[y][column] = Cell(glyph: rule.glyph, ink: rule.ink, paper: cells[y][column].paper)
                    }
                } else {
                    guard (0..<columns).contains(x) else { return }
                    let rule = Self.verticalRule
                    for row in max(0, y)..<max(max(0, y), min(rows, y + Int(element.rect.height))) {
                        cells[row][x] = Cell(glyph: rule.glyph, ink: rule.ink, paper: cells[row][x].paper)
                    }
                }
            case .bar(let fraction, let tint):
                guard (0..<rows).contains(y) else { return }
                let columnsAcross = max(0, min(columns, x + Int(element.rect.width)) - max(0, x))
                let filled = fraction.map { Int(($0 * Double(columnsAcross)).rounded()) } ?? 0
                let (full, empty, unknown) = (Self.barFull, Self.barEmpty, Self.barUnknown)
                let (ink, track) = (CellColor(tint), Self.separator)
                for (index, column) in (max(0, x)..<max(0, x) + columnsAcross).enumerated() {
                    let isFilled = index < filled
                    cells[y][column] = Cell(
                        glyph: fraction == nil ? unknown : (isFilled ? full : empty), ink: isFilled ? ink : track, paper: cells[y][column].paper)
                }
            case .fill(let paint, let shape):
                let rect = element.rect
                for row in max(0, y)..<max(max(0, y), min(rows, y + Int(rect.height))) {
                    for column in max(0, x)..<max(max(0, x), min(columns, x + Int(rect.width))) where TerminalRenderer.covers(shape, rect, column, row) {
                        cells[row][column].paper = color(paint, column: column, row: row, in: rect)
                    }
                }
            }
        }
    }

    /// Whether a shape covers the centre of a cell. Circles and capsules are round (a cell is twice
    /// as tall as wide, as their points are); rectangles, rounded or not, fill their cells.
    static func covers(_ shape: ShapeKind, _ rect: LayoutRect, _ column: Int, _ row: Int) -> Bool {
        // In points, where round is round: 8 across and 16 down a cell.
        let (px, py) = ((Double(column) + 0.5 - rect.x) * 8, (Double(row) + 0.5 - rect.y) * 16)
        let (width, height) = (rect.width * 8, rect.height * 16)
        switch shape {
        case .rectangle, .roundedRectangle, .containerRelative:
            return true
        case .circle:
            let radius = min(width, height) / 2
            let (dx, dy) = (px - width / 2, py - height / 2)
            return dx * dx + dy * dy <= radius * radius
        case .capsule:
            let radius = min(width, height) / 2
            // The nearest point of the capsule's spine, a segment along its long axis.
            let cx = min(max(px, radius), width - radius)
            let cy = min(max(py, radius), height - radius)
            let (dx, dy) = (px - cx, py - cy)
            return dx * dx + dy * dy <= radius * radius
        }
    }

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

/// A cell's colour as a plain value: one of the colours `SystemColors` names, RGB, or none.
struct CellColor: Hashable, Sendable {
    /// 0: none; with the top bit: 0xRRGGBB; else 1 + the colour's place in `SystemColors.names`.
    let raw: UInt32

    static let none = CellColor(raw: 0)
    static let rgbFlag: UInt32 = 0x8000_0000

    init(raw: UInt32) { self.raw = raw }

    /// A colour by its name or `#rrggbb`; a name the host does not know is the primary colour, as
    /// `SystemColors.rgb` draws it.
    init(_ name: String?) {
        guard let name else {
            self = .none
            return
        }
        if name.utf8.first == UInt8(ascii: "#"), name.utf8.count == 7, let value = UInt32(name.dropFirst(), radix: 16) {
            raw = Self.rgbFlag | value
        } else {
            raw = 1 + UInt32(SystemColors.index[name] ?? SystemColors.index["primary"]!)
        }
    }

    init(rgb: (Int, Int, Int)) {
        raw = Self.rgbFlag | UInt32(rgb.0 & 0xFF) << 16 | UInt32(rgb.1 & 0xFF) << 8 | UInt32(rgb.2 & 0xFF)
    }

    var name: String? {
        if raw == 0 { return nil }
        if raw & Self.rgbFlag != 0 { return SystemColors.hex(rgb(.light)) }
        return SystemColors.names[Int(raw - 1)]
    }

    func rgb(_ appearance: TerminalRenderer.Appearance) -> (Int, Int, Int) {
        if raw & Self.rgbFlag != 0 { return (Int(raw >> 16 & 0xFF), Int(raw >> 8 & 0xFF), Int(raw & 0xFF)) }
        let pair = SystemColors.named[SystemColors.names[Int(raw == 0 ? 0 : raw - 1)]]!
        return appearance == .light ? pair.light : pair.dark
    }
}

/// A cell's character as a number: its scalar when it has one alone, else its place in a table of
/// the characters of several scalars seen so far (emoji sequences, combined marks), which only grows.
enum Glyphs {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var texts: [String] = []
    nonisolated(unsafe) private static var codes: [String: UInt32] = [:]
    static let tableFlag: UInt32 = 0x8000_0000

    static func code(_ character: Character) -> UInt32 {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first { return scalar.value }
        return interned(String(character))
    }

    /// The code of a cell's text: one character, or none ("").
    static func code(_ text: String) -> UInt32 {
        guard let character = text.first else { return 0 }
        return code(character)
    }

    private static func interned(_ text: String) -> UInt32 {
        lock.withLock {
            if let known = codes[text] { return known }
            let code = tableFlag | UInt32(texts.count)
            texts.append(text)
            codes[text] = code
            return code
        }
    }

    static func text(_ code: UInt32) -> String {
        var text = ""
        append(code, to: &text)
        return text
    }

    static func append(_ code: UInt32, to text: inout String) {
        if code == 0 { return }
        if code & tableFlag != 0 {
            text += lock.withLock { texts[Int(code & ~tableFlag)] }
        } else if let scalar = Unicode.Scalar(code) {
            text.unicodeScalars.append(scalar)
        }
    }
}

/// iOS's system colours, light and dark, as RGB.
public enum SystemColors {
    /// The names, in a fixed order: `CellColor` holds a colour by its place here.
    static let names: [String] = named.keys.sorted()
    static let index: [String: Int] = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, $0.offset) })

    static let named: [String: (light: (Int, Int, Int), dark: (Int, Int, Int))] = [
        "primary": ((0, 0, 0), (255, 255, 255)),
        "secondary": ((110, 110, 115), (152, 152, 159)),
        "separator": ((198, 198, 200), (84, 84, 88)),
        "redacted": ((209, 209, 214), (72, 72, 74)),
        "accent": ((0, 122, 255), (10, 132, 255)),
        "black": ((0, 0, 0), (0, 0, 0)),
        "white": ((255, 255, 255), (255, 255, 255)),
        "gray": ((142, 142, 147), (142, 142, 147)),
        "red": ((255, 59, 48), (255, 69, 58)),
        "orange": ((255, 149, 0), (255, 159, 10)),
        "yellow": ((255, 204, 0), (255, 214, 10)),
        "green": ((52, 199, 89), (48, 209, 88)),
        "mint": ((0, 199, 190), (99, 230, 226)),
        "teal": ((48, 176, 199), (64, 200, 224)),
        "cyan": ((50, 173, 230), (100, 210, 255)),
        "blue": ((0, 122, 255), (10, 132, 255)),
        "indigo": ((88, 86, 214), (94, 92, 230)),
        "purple": ((175, 82, 222), (191, 90, 242)),
        "pink": ((255, 45, 85), (255, 55, 95)),
        "brown": ((162, 132, 94), (172, 142, 104)),
        // Nothing: where a colour must be given (a gradient's stop, text), the background shows.
        "clear": ((255, 255, 255), (28, 28, 30)),
    ]

    /// A colour name or `#rrggbb` as RGB; an unknown name is the primary colour.
    public static func rgb(_ color: String, _ appearance: TerminalRenderer.Appearance) -> (Int, Int, Int) {
        if color.hasPrefix("#"), color.count == 7, let value = Int(color.dropFirst(), radix: 16) {
            return ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)
        }
        let pair = named[color] ?? named["primary"]!
        return appearance == .light ? pair.light : pair.dark
    }

    /// RGB as `#rrggbb`.
    public static func hex(_ rgb: (Int, Int, Int)) -> String {
        func two(_ value: Int) -> String {
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + two(rgb.0) + two(rgb.1) + two(rgb.2)
    }

    /// A widget's background: iOS's system background.
    public static func background(_ appearance: TerminalRenderer.Appearance) -> (Int, Int, Int) {
        appearance == .light ? (255, 255, 255) : (28, 28, 30)
    }

    /// The nearest colour of xterm's 256: the 6×6×6 cube or the grey ramp, whichever is closer.
    public static func xterm256(_ red: Int, _ green: Int, _ blue: Int) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearest(_ value: Int) -> Int { levels.indices.min { abs(levels[$0] - value) < abs(levels[$1] - value) }! }
        let (r, g, b) = (nearest(red), nearest(green), nearest(blue))
        let cube = (levels[r], levels[g], levels[b])
        let grey = min(23, max(0, ((red + green + blue) / 3 - 8 + 5) / 10))
        let greyValue = 8 + grey * 10
        func distance(_ c: (Int, Int, Int)) -> Int {
            (c.0 - red) * (c.0 - red) + (c.1 - green) * (c.1 - green) + (c.2 - blue) * (c.2 - blue)
        }
        return distance((greyValue, greyValue, greyValue)) < distance(cube) ? 232 + grey : 16 + 36 * r + 6 * g + b
    }
}
