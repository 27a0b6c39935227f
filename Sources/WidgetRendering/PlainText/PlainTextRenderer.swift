import FoundationEssentials
import WidgetWire

/// Renders a view tree as plain lines of text: stacks become lines and columns, text its content.
/// Enough to read a widget in a terminal or a log; the styled renderers draw the real thing.
public enum PlainTextRenderer {
    /// Made once: a `Locale` is costly to create for every text.
    private static let dates = DateText()

    /// `locked`: as on a locked device, views marked `privacySensitive` show as bars, as they do
    /// under `redacted(reason: .privacy)` (the rule `Layout.drawn` applies to drawn text).
    /// `now`: the moment self-updating texts (`.timer`, `.relative`) read as; an entry that shows
    /// later is read as of its own date.
    public static func lines(_ node: ViewNode, locked: Bool = false, now: Date = Date()) -> [String] {
        let lines = render(node, Redaction(sensitive: false, redacting: locked), now: now)
        // Leading and trailing blank lines carry no content.
        let trimmed = lines.drop { $0.isEmpty }.reversed().drop { $0.isEmpty }.reversed()
        return Array(trimmed)
    }

    public static func text(_ node: ViewNode, now: Date = Date()) -> String { lines(node, now: now).joined(separator: "\n") }

    /// Where a text shows as bars of its length: under a view marked `privacySensitive`, on a
    /// locked device or under `redacted(reason: .privacy)`. Carried down the tree as it is drawn.
    private struct Redaction {
        var sensitive: Bool
        var redacting: Bool

        /// As it stands inside `node`, whose modifiers apply from the innermost out.
        func inside(_ node: ViewNode) -> Redaction {
            var redaction = self
            for modifier in node.modifiers.reversed() {
                switch modifier.name {
                case "privacySensitive": redaction.sensitive = modifier.value.boolValue ?? true
                case "redacted" where modifier.value.stringValue == "privacy": redaction.redacting = true
                default: break
                }
            }
            return redaction
        }
    }

    /// A line without the control characters a bundle's text may hold (an escape, a bell, a
    /// backspace), which printed to a terminal would act instead of showing; tabs stay.
    static func printable(_ line: Substring) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar != "\t" && scalar.isControl }
        guard line.unicodeScalars.contains(where: isControl) else { return String(line) }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: line.unicodeScalars.filter { !isControl($0) })
        return String(kept)
    }

    private static func render(_ node: ViewNode, _ outer: Redaction, now: Date) -> [String] {
        let redaction = outer.inside(node)
        func render(_ child: ViewNode) -> [String] { PlainTextRenderer.render(child, redaction, now: now) }
        switch node.view {
        case "text":
            var shown = dates.text(of: node, now: now)
            switch node.modifier("textCase")?.stringValue {
            case "uppercase": shown = shown.uppercased()
            case "lowercase": shown = shown.lowercased()
            default: break
            }
            let text = redaction.sensitive && redaction.redacting ? String(shown.map { $0 == " " || $0 == "\n" ? $0 : "▆" }) : shown
            return text.split(separator: "\n", omittingEmptySubsequences: false).map(printable)
        case "image":
            // A symbol as the glyph the terminal draws; a picture as the photo symbol's.
            let name = node["systemName"]?.stringValue ?? (node["name"] != nil || node["data"] != nil ? "photo" : "")
            return name.isEmpty ? [] : [SymbolGlyphs.glyph(name)]
        case "label" where node.children.count == 2:
            // Icon and title on one line, as a label shows them.
            let parts = node.children.map(render).map { $0.joined(separator: " ") }.filter { !$0.isEmpty }
            return parts.isEmpty ? [] : [parts.joined(separator: " ")]
        case "mask" where node.children.count == 2:
            // The view, not its mask.
            return render(node.children[0])
        case "spacer":
            return []
        case "divider":
            return ["────────"]
        case "hstack":
            let columns = node.children.map(render).filter { !$0.isEmpty }
            let height = columns.map(\.count).max() ?? 0
            guard height > 0 else { return [] }
            // Columns line up by the width each takes in a terminal: an emoji or a CJK character
            // takes two columns.
            let widths = columns.map { $0.map { TerminalText.width($0) }.max() ?? 0 }
            return (0..<height).map { row in
                zip(columns, widths).enumerated().map { index, column in
                    let cell = row < column.0.count ? column.0[row] : ""
                    let isLast = index == columns.count - 1
                    return isLast ? cell : cell.padded(toWidth: column.1)
                }.joined(separator: "  ").trimmingTrailingSpaces()
            }
        default:
            // vstack, zstack, and views this renderer does not draw: their children, top to bottom.
            return node.children.flatMap(render)
        }
    }
}

extension String {
    /// Spaces added to take `width` terminal columns.
    fileprivate func padded(toWidth width: Int) -> String {
        let taken = TerminalText.width(self)
        return taken >= width ? self : self + String(repeating: " ", count: width - taken)
    }

    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
