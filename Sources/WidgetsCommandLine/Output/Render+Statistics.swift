import FoundationEssentials
import WidgetABI
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// `widgets stats`: what each provider did.
extension Render {
    static func statisticsText(_ rows: [(RegisteredWidget, ProviderStatistics)], memoryLimit: Int64, isolation: Isolation) -> String {
        func bytes(_ value: Int64?) -> String { value.map(megabytes) ?? "-" }
        let header = ["provider", "bundle", "calls", "failures", "live", "peak", "limit", "terminated", "crashes", "time in calls"]
        let table = [header] + rows.map { widget, statistics in
            let milliseconds = Double(statistics.timeInCalls.components.seconds) * 1000 + Double(statistics.timeInCalls.components.attoseconds) / 1e15
            return [
                widget.kind, widget.bundle.fileName, "\(statistics.calls)", "\(statistics.failures)", bytes(statistics.liveBytes),
                bytes(statistics.peakBytes), bytes(statistics.memoryLimit), "\(statistics.terminations)", "\(statistics.crashes)",
                cFormat("%.1f ms", milliseconds),
            ]
        }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        var lines = table.map { row in
            zip(row, widths).enumerated().map { index, cell in
                let padding = String(repeating: " ", count: cell.1 - cell.0.count)
                return index < 2 ? cell.0 + padding : padding + cell.0
            }.joined(separator: "  ")
        }
        lines.insert(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "), at: 1)
        switch isolation {
        case .process:
            lines.append("process isolation: each bundle in a worker process; memory limit per provider \(bytes(memoryLimit)) (a bundle may set a lower one), enforced by ending the worker")
        case .queue:
            lines.append("queue isolation: all bundles in this process; memory limit per provider \(bytes(memoryLimit)) (a bundle may set a lower one)\(MemoryGuard.isActive ? "" : "; the memory guard is not active in this process")")
        }
        return lines.joined(separator: "\n")
    }

    static func statisticsJSON(_ rows: [(RegisteredWidget, ProviderStatistics)]) -> JSONValue {
        .array(
            rows.map { widget, statistics in
                let seconds = Double(statistics.timeInCalls.components.seconds) + Double(statistics.timeInCalls.components.attoseconds) / 1e18
                return .object(
                    JSONObject([
                        ("kind", .string(widget.kind)), ("bundle", .string(widget.bundle.path)),
                        ("calls", .number(Double(statistics.calls))), ("failures", .number(Double(statistics.failures))),
                        ("liveBytes", statistics.liveBytes.map { .number(Double($0)) } ?? .null),
                        ("peakBytes", statistics.peakBytes.map { .number(Double($0)) } ?? .null),
                        ("retainedBytes", statistics.retainedBytes.map { .number(Double($0)) } ?? .null),
                        ("memoryLimit", .number(Double(statistics.memoryLimit))),
                        ("terminations", .number(Double(statistics.terminations))), ("crashes", .number(Double(statistics.crashes))),
                        ("secondsInCalls", .number(seconds)),
                    ]))
            })
    }
}
