import FoundationEssentials
import WidgetABI
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// Rows in columns, as `list --short` and `instances` print them.
extension Render {
    static func table(header: [String]?, rows: [[String]]) -> String {
        let all = (header.map { [$0] } ?? []) + rows
        // Padded by characters: an emoji is one, whatever its UTF-16 length. Each cell counted once,
        // an ASCII one by its bytes (no grapheme breaking to count what is one byte each), unless it
        // has a CR, which with an LF after it is one character.
        let counts = all.map { $0.map { $0.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D } ? $0.utf8.count : $0.count } }
        var widths = [Int](repeating: 0, count: all.first?.count ?? 0)
        for row in counts { for (column, count) in row.enumerated() { widths[column] = max(widths[column], count) } }
        var text = ""
        for (index, row) in all.enumerated() {
            var line = ""
            for (column, cell) in row.enumerated() {
                if column > 0 { line += "  " }
                line += cell
                if column < row.count - 1 { line += String(repeating: " ", count: widths[column] - counts[index][column]) }
            }
            if index > 0 { text += "\n" }
            // Trimmed only when it may start or end with a space (of any script).
            let ends = [line.utf8.first, line.utf8.last].compactMap { $0 }
            text += ends.allSatisfy { $0 < 0x80 && $0 != 0x20 && $0 != 0x09 } ? line : line.trimmingSpaces
        }
        return text
    }
}
