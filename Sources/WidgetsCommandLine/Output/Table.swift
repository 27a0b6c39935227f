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
        // Padded by characters: an emoji is one, whatever its UTF-16 length.
        let widths = (0..<(all.first?.count ?? 0)).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ").trimmingSpaces
        }.joined(separator: "\n")
    }
}
