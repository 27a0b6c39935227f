import FoundationEssentials
import Glibc
import WidgetWire

/// Drawing a laid-out box into cells: each placed element (text, rules, bars, fills, strokes,
/// clips) onto a canvas of the family's size, and which cells a shape covers.
extension TerminalRenderer {
    /// A cell in points, where round is round: 8 across and 16 down (a cell is twice as tall as wide).
    static let (cellWidth, cellHeight) = (8.0, 16.0)

    struct Canvas {
        // What drawing uses for every element, made once.
        static let redacted = CellColor("redacted")
        static let separator = CellColor("separator")
        static let redactionBar = Glyphs.code("▆")
        static let (barFull, barEmpty, barUnknown) = (Glyphs.code("█"), Glyphs.code("░"), Glyphs.code("▒"))
        static let (barTrack, barDot) = (Glyphs.code("─"), Glyphs.code("●"))
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

        /// What drawing is clipped to (`clipShape`): each shape in its bounds (a path flattened once),
        /// innermost last.
        var clips: [(shape: ShapeKind, rect: LayoutRect, flattened: ShapePath.Polylines?)] = []

        /// Whether a cell is inside every clip.
        func isVisible(_ column: Int, _ row: Int) -> Bool {
            clips.allSatisfy { TerminalRenderer.covers($0.shape, $0.rect, column, row, flattened: $0.flattened) }
        }

        /// A paint made ready for the cells of one element, once: a colour's name is looked up (and
        /// a translucent one's opacity read) for the element, not for each of its cells.
        enum Ink {
            case solid(CellColor)
            /// Blended over what each cell shows, at a weight out of 256.
            case translucent(red: Int, green: Int, blue: Int, weight: Int)
            /// Read at each cell's centre.
            case gradient(Paint)
        }

        func ink(_ paint: Paint) -> Ink {
            guard case .color(let name) = paint else { return .gradient(paint) }
            return ink(name)
        }

        /// A colour's ink; none (nil) draws in the primary colour, as `CellColor.none` does.
        func ink(_ name: String?) -> Ink {
            guard let name else { return .solid(.none) }
            let (base, opacity) = SystemColors.split(name)
            // A mix is resolved here, in the canvas's appearance (a `CellColor` made from a name knows none).
            guard opacity < 1 else { return .solid(base.hasPrefix("mix:") ? CellColor(rgb: SystemColors.opaque(base, appearance)) : CellColor(name)) }
            let (red, green, blue) = SystemColors.opaque(base, appearance)
            return .translucent(red: red, green: green, blue: blue, weight: SystemColors.weight(opacity))
        }

        /// The ink's colour at cell (`column`, `row`) of `rect`.
        func color(_ ink: Ink, column: Int, row: Int, in rect: LayoutRect) -> CellColor {
            switch ink {
            case .solid(let color):
                return color
            case .translucent(let red, let green, let blue, let weight):
                let paper = cells[row][column].paper
                let under = paper == .none ? SystemColors.background(appearance) : paper.rgb(appearance)
                return CellColor(rgb: SystemColors.blend((red, green, blue), over: under, weight: weight))
            case .gradient(let paint):
                let x = rect.width > 0 ? (Double(column) + 0.5 - rect.x) / rect.width : 0.5
                let y = rect.height > 0 ? (Double(row) + 0.5 - rect.y) / rect.height : 0.5
                return CellColor(rgb: paint.rgb(x: x, y: y, size: (rect.width * TerminalRenderer.cellWidth, rect.height * TerminalRenderer.cellHeight), appearance))
            }
        }

        /// Masks being defined: what they draw is not shown (a terminal draws the masked view whole).
        var maskDepth = 0

        /// Draws one placed element into the cells, by its kind.
        mutating func draw(_ element: PlacedElement) {
            switch element.content {
            case .maskBegin:
                maskDepth += 1
                return
            case .maskEnd:
                maskDepth -= 1
                return
            default:
                if maskDepth > 0 { return }
            }
            switch element.content {
            case .maskBegin, .maskEnd: break
            case .text(let text, let style): drawText(text, style, element)
            case .rule(let horizontal): drawRule(horizontal: horizontal, element)
            case .bar(let fraction, let tint, _, let marker): drawBar(fraction, tint: tint, marker: marker, element)
            case .fill(let paint, let shape): fill(paint, shape, element)
            case .stroke(let stroke, .path(let path)): strokePath(stroke, path, element)
            case .stroke(let stroke, let shape): strokeOutline(stroke, shape, element)
            case .picture: drawPicture(element)
            case .clip(let shape): clips.append((shape, element.rect, TerminalRenderer.flattened(shape, element.rect)))
            case .unclip: _ = clips.popLast()
            case .control, .endControl: break
            case .effect, .endEffect:
                // Cells cannot turn, scale, shadow or blur: the view is drawn as laid out.
                break
            }
        }

        /// A line of text, a character a cell (two for a wide one), redacted to bars where asked.
        private mutating func drawText(_ text: String, _ style: TextStyle, _ element: PlacedElement) {
            let (x, y) = (Int(element.rect.x), Int(element.rect.y))
            guard (0..<rows).contains(y) else { return }
            var column = x
            let limit = min(columns, x + Int(element.rect.width.rounded(.up)))
            let ink = style.gradient.map { self.ink(.linearGradient($0)) } ?? self.ink(style.color)
            let (redacted, bar) = (Self.redacted, Self.redactionBar)
            // The style read once, not at every character.
            let (redacts, bold) = (style.redacted, style.isBold)
            let clipped = !clips.isEmpty
            // A character each.
            func put(_ glyph: UInt32, width: Int, isWhitespace: Bool) -> Bool {
                guard column >= 0, column + width <= limit else { return false }
                if clipped, !isVisible(column, y) {
                    column += width
                    return true
                }
                let redact = redacts && !isWhitespace
                let paper = cells[y][column].paper
                let color = self.color(ink, column: column, row: y, in: element.rect)
                cells[y][column] = Cell(glyph: redact ? bar : glyph, ink: redact ? redacted : color, bold: bold && !redact, paper: paper)
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
        }

        /// A divider across the element's rect.
        private mutating func drawRule(horizontal: Bool, _ element: PlacedElement) {
            let (x, y) = (Int(element.rect.x), Int(element.rect.y))
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
        }

        /// A progress bar: filled cells in the tint, the rest as its track.
        /// A bar across its row: filled to its fraction, or (`marker`) a track with a dot at it.
        private mutating func drawBar(_ fraction: Double?, tint: String, marker: Bool, _ element: PlacedElement) {
            let (x, y) = (Int(element.rect.x), Int(element.rect.y))
            guard (0..<rows).contains(y) else { return }
            let columnsAcross = max(0, min(columns, x + Int(element.rect.width)) - max(0, x))
            let filled = fraction.map { Int(($0 * Double(columnsAcross)).rounded()) } ?? 0
            let (full, empty, unknown) = (Self.barFull, Self.barEmpty, Self.barUnknown)
            let (ink, track) = (CellColor(tint), Self.separator)
            let dot = marker ? fraction.map { min(columnsAcross - 1, Int(($0 * Double(columnsAcross - 1)).rounded())) } : nil
            for (index, column) in (max(0, x)..<max(0, x) + columnsAcross).enumerated() {
                if marker {
                    cells[y][column] = Cell(glyph: index == dot ? Self.barDot : Self.barTrack, ink: index == dot ? ink : track, paper: cells[y][column].paper)
                    continue
                }
                let isFilled = index < filled
                cells[y][column] = Cell(
                    glyph: fraction == nil ? unknown : (isFilled ? full : empty), ink: isFilled ? ink : track, paper: cells[y][column].paper)
            }
        }

        /// A shape filled: the paper of the cells it covers.
        private mutating func fill(_ paint: Paint, _ shape: ShapeKind, _ element: PlacedElement) {
            let (x, y) = (Int(element.rect.x), Int(element.rect.y))
            let rect = element.rect
            let ink = self.ink(paint)
            let flattened = TerminalRenderer.flattened(shape, rect)
            // Rectangles, rounded or not, fill every cell of their bounds: no test per cell,
            // unless a clip bounds them.
            let whole = clips.isEmpty && (shape == .rectangle || shape == .containerRelative || { if case .roundedRectangle = shape { true } else { false } }())
            // A translucent fill's colour depends only on the paper under it, the same for most
            // of its cells: blended once per change of paper, not at every cell.
            var blended: (under: CellColor, color: CellColor)?
            let translucent = { if case .translucent = ink { true } else { false } }()
            for row in max(0, y)..<max(max(0, y), min(rows, y + Int(rect.height))) {
                for column in max(0, x)..<max(max(0, x), min(columns, x + Int(rect.width)))
                where whole || (TerminalRenderer.covers(shape, rect, column, row, flattened: flattened) && isVisible(column, row)) {
                    guard translucent else {
                        cells[row][column].paper = color(ink, column: column, row: row, in: rect)
                        continue
                    }
                    let under = cells[row][column].paper
                    if let blended, blended.under == under {
                        cells[row][column].paper = blended.color
                    } else {
                        let color = color(ink, column: column, row: row, in: rect)
                        blended = (under, color)
                        cells[row][column].paper = color
                    }
                }
            }
        }

        /// A path's outline: the cells it passes through.
        private mutating func strokePath(_ stroke: Stroke, _ path: ShapePath, _ element: PlacedElement) {
            let (x, y) = (Int(element.rect.x), Int(element.rect.y))
            // The cells the outline passes through, on the part the trim keeps.
            let rect = element.rect
            let lines = path.polylines(x: rect.x * TerminalRenderer.cellWidth, y: rect.y * TerminalRenderer.cellHeight, width: rect.width * TerminalRenderer.cellWidth, height: rect.height * TerminalRenderer.cellHeight)
            let segments = ShapePath.segments(lines, trim: stroke.trim)
            let ink = self.ink(stroke.paint)
            let half = stroke.lineWidth / 2
            for row in max(0, y)..<max(max(0, y), min(rows, y + Int(rect.height.rounded(.up)) + 1)) {
                for column in max(0, x)..<max(max(0, x), min(columns, x + Int(rect.width.rounded(.up)) + 1)) where isVisible(column, row) {
                    let (minX, minY) = (Double(column) * TerminalRenderer.cellWidth - half, Double(row) * TerminalRenderer.cellHeight - half)
                    guard segments.contains(where: { ShapePath.crosses($0, minX: minX, minY: minY, maxX: minX + TerminalRenderer.cellWidth + 2 * half, maxY: minY + TerminalRenderer.cellHeight + 2 * half) })
                    else { continue }
                    cells[row][column].paper = color(ink, column: column, row: row, in: rect)
                }
            }
        }

        /// A shape's outline: the cells along it.
        private mutating func strokeOutline(_ stroke: Stroke, _ shape: ShapeKind, _ element: PlacedElement) {
            let (x, y) = (Int(element.rect.x), Int(element.rect.y))
            // The cells along the outline, at least one thick, on the part the trim keeps.
            let rect = element.rect
            let (across, down) = (max(1, (stroke.lineWidth / TerminalRenderer.cellWidth).rounded()), max(1, (stroke.lineWidth / TerminalRenderer.cellHeight).rounded()))
            let inner = LayoutRect(x: rect.x + across, y: rect.y + down, width: max(0, rect.width - 2 * across), height: max(0, rect.height - 2 * down))
            let (centerX, centerY) = ((rect.x + rect.width / 2) * TerminalRenderer.cellWidth, (rect.y + rect.height / 2) * TerminalRenderer.cellHeight)
            let ink = self.ink(stroke.paint)
            for row in max(0, y)..<max(max(0, y), min(rows, y + Int(rect.height))) {
                for column in max(0, x)..<max(max(0, x), min(columns, x + Int(rect.width)))
                where TerminalRenderer.covers(shape, rect, column, row) && !TerminalRenderer.covers(shape, inner, column, row)
                    && isVisible(column, row)
                {
                    let angle = atan2((Double(row) + 0.5) * TerminalRenderer.cellHeight - centerY, (Double(column) + 0.5) * TerminalRenderer.cellWidth - centerX) * 180 / .pi
                    guard stroke.keeps(angle: angle) else { continue }
                    cells[row][column].paper = color(ink, column: column, row: row, in: rect)
                }
            }
        }

        /// A picture's place.
        private mutating func drawPicture(_ element: PlacedElement) {
            let (x, y) = (Int(element.rect.x), Int(element.rect.y))
            // A terminal cannot show the picture: its place, in a neutral tone.
            let rect = element.rect
            let ink = self.ink("gray/0.35")
            for row in max(0, y)..<max(max(0, y), min(rows, y + Int(rect.height))) {
                for column in max(0, x)..<max(max(0, x), min(columns, x + Int(rect.width))) where isVisible(column, row) {
                    cells[row][column].paper = color(ink, column: column, row: row, in: rect)
                }
            }
        }
    }

    /// A path shape's outline in `rect`'s own points, flattened once for `covers` to test every cell
    /// against; nil for other shapes.
    static func flattened(_ shape: ShapeKind, _ rect: LayoutRect) -> ShapePath.Polylines? {
        guard case .path(let path) = shape else { return nil }
        return path.polylines(x: 0, y: 0, width: rect.width * TerminalRenderer.cellWidth, height: rect.height * TerminalRenderer.cellHeight)
    }

    /// Whether a shape covers the centre of a cell. Circles and capsules are round (a cell is twice
    /// as tall as wide, as their points are); rectangles, rounded or not, fill their cells; a path
    /// holds the centre by the non-zero rule (`flattened`, when given, is its outline already made).
    static func covers(_ shape: ShapeKind, _ rect: LayoutRect, _ column: Int, _ row: Int, flattened: ShapePath.Polylines? = nil) -> Bool {
        // In points, where round is round: 8 across and 16 down a cell.
        let (px, py) = ((Double(column) + 0.5 - rect.x) * TerminalRenderer.cellWidth, (Double(row) + 0.5 - rect.y) * TerminalRenderer.cellHeight)
        let (width, height) = (rect.width * TerminalRenderer.cellWidth, rect.height * TerminalRenderer.cellHeight)
        guard Double(column) + 0.5 >= rect.x, Double(column) + 0.5 <= rect.x + rect.width, Double(row) + 0.5 >= rect.y,
            Double(row) + 0.5 <= rect.y + rect.height
        else { return false }
        switch shape {
        case .rectangle, .roundedRectangle, .containerRelative:
            return true
        case .path(let path):
            let lines = flattened ?? path.polylines(x: 0, y: 0, width: width, height: height)
            return ShapePath.contains(lines, ShapePath.Point(x: px, y: py))
        case .ellipse:
            let (rx, ry) = (width / 2, height / 2)
            guard rx > 0, ry > 0 else { return false }
            let (dx, dy) = ((px - rx) / rx, (py - ry) / ry)
            return dx * dx + dy * dy <= 1
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
}
