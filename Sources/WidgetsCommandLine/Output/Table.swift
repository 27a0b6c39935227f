import Foundation
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
        // Padded by characters: an emoji is one, whatever its UTF-16 length. Each cell counted once.
        let counts = all.map { $0.map(\.count) }
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
            text += line.trimmingSpaces
        }
        return text
    }
}
