import Foundation
import WidgetWire

/// Renders a view tree as plain lines of text: stacks become lines and columns, text its content.
/// Enough to read a widget in a terminal or a log; the styled renderers draw the real thing.
public enum PlainTextRenderer {
    /// Made once: a `Locale` is costly to create for every text.
    private static let dates = DateText()

    /// `locked`: as on a locked device, views marked `privacySensitive` show as bars, as they do
    /// under `redacted(reason: .privacy)` (the rule `Layout.drawn` applies to drawn text).
    public static func lines(_ node: ViewNode, locked: Bool = false) -> [String] {
        let lines = render(node, Redaction(sensitive: false, redacting: locked))
        // Leading and trailing blank lines carry no content.
        let trimmed = lines.drop { $0.isEmpty }.reversed().drop { $0.isEmpty }.reversed()
        return Array(trimmed)
    }

    public static func text(_ node: ViewNode) -> String { lines(node).joined(separator: "\n") }

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

    private static func render(_ node: ViewNode, _ outer: Redaction) -> [String] {
        let redaction = outer.inside(node)
        func render(_ child: ViewNode) -> [String] { PlainTextRenderer.render(child, redaction) }
        switch node.view {
        case "text":
            // Self-updating dates as they read now.
            let shown = dates.text(of: node, now: Date())
            let text = redaction.sensitive && redaction.redacting ? String(shown.map { $0 == " " || $0 == "\n" ? $0 : "▆" }) : shown
            return text.split(separator: "\n", omittingEmptySubsequences: false).map(printable)
        case "spacer":
            return []
        case "divider":
            return ["────────"]
        case "hstack":
            let columns = node.children.map(render).filter { !$0.isEmpty }
            let height = columns.map(\.count).max() ?? 0
            guard height > 0 else { return [] }
            let widths = columns.map { $0.map(\.count).max() ?? 0 }
            return (0..<height).map { row in
                zip(columns, widths).enumerated().map { index, column in
                    let cell = row < column.0.count ? column.0[row] : ""
                    let isLast = index == columns.count - 1
                    return isLast ? cell : cell.padding(toLength: column.1, withPad: " ", startingAt: 0)
                }.joined(separator: "  ").trimmingTrailingSpaces()
            }
        default:
            // vstack, zstack, and views this renderer does not draw: their children, top to bottom.
            return node.children.flatMap(render)
        }
    }
}

extension String {
    fileprivate func padding(toLength length: Int, withPad pad: Character, startingAt: Int) -> String {
        count >= length ? self : self + String(repeating: pad, count: length - count)
    }

    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
