import Foundation
import WidgetABI
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// How the CLI prints registries and provider results, for people and as JSON.
enum Render {
    /// Each bundle and its widgets, at length; only `kind`'s bundle and that widget when given, and only
    /// the bundle at `path` when given.
    static func registryText(_ registry: WidgetRegistry, kind: String? = nil, path: String? = nil) -> String {
        var lines: [String] = []
        for bundle in registry.bundles where path == nil || bundle.path == path {
            let widgets = registry.widgets.filter { $0.bundle === bundle && (kind == nil || $0.kind == kind) }
            if kind != nil, widgets.isEmpty { continue }
            let built = bundle.builtWith.map { ", \($0)" } ?? ""
            lines.append("\(bundle.path)")
            lines.append("  \(bundle.name) (ABI \(bundle.abiVersion.major).\(bundle.abiVersion.minor)\(built)): \(widgets.count) widget\(widgets.count == 1 ? "" : "s")")
            let metadata = bundle.metadata
            let about = [metadata.version.map { "version \($0)" }, metadata.vendor.map { "by \($0)" }, metadata.license, metadata.homepage]
                .compactMap { $0 }
            if !about.isEmpty { lines.append("  " + about.joined(separator: " · ")) }
            for widget in widgets {
                let title = widget.displayName.isEmpty ? "" : "  \(widget.displayName)"
                lines.append("  - \(widget.kind)\(title)")
                if !widget.description.isEmpty { lines.append("      \(widget.description)") }
                lines.append("      families: \(widget.families.map(\.rawValue).joined(separator: ", "))")
                let configuration = widget.configurationName.map { "\(widget.configurationKind.rawValue) (\($0))" } ?? widget.configurationKind.rawValue
                lines.append("      configuration: \(configuration)\(widget.contentMarginsDisabled ? ", content margins disabled" : "")")
                for parameter in widget.configuration?.parameters ?? [] {
                    var traits = [parameter.typeName.map { "\(parameter.type.rawValue) \($0)" } ?? parameter.type.rawValue]
                    if parameter.isOptional { traits.append("optional") }
                    if let value = parameter.defaultValue { traits.append("default \(value.displayText)") }
                    if parameter.hasDynamicOptions { traits.append("dynamic options") }
                    lines.append("      parameter \(parameter.name) \"\(parameter.title)\": \(traits.joined(separator: ", "))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// One line per widget: its kind, name, families and bundle file, in columns.
    static func registryShort(_ registry: WidgetRegistry, kind: String? = nil) -> String {
        table(
            header: nil,
            rows: registry.widgets.filter { kind == nil || $0.kind == kind }.map { widget in
                [widget.kind, widget.displayName, widget.families.map(\.shortName).joined(separator: ","), widget.bundle.fileName]
            })
    }

    static func registryJSON(_ registry: WidgetRegistry, searchPath: [String]) -> JSONValue {
        let bundles: [JSONValue] = registry.bundles.map { bundle in
            .object(
                JSONObject([
                    ("path", .string(bundle.path)),
                    ("name", .string(bundle.name)),
                    ("abiVersion", .string("\(bundle.abiVersion.major).\(bundle.abiVersion.minor)")),
                    ("builtWith", bundle.builtWith.map(JSONValue.string) ?? .null),
                    ("version", bundle.metadata.version.map(JSONValue.string) ?? .null),
                    ("vendor", bundle.metadata.vendor.map(JSONValue.string) ?? .null),
                    ("license", bundle.metadata.license.map(JSONValue.string) ?? .null),
                    ("homepage", bundle.metadata.homepage.map(JSONValue.string) ?? .null),
                    ("widgets", .array(registry.widgets.filter { $0.bundle === bundle }.map(widgetJSON))),
                ]))
        }
        let problems: [JSONValue] = registry.problems.map { problem in
            .object(JSONObject([("path", .string(problem.path)), ("reason", .string(problem.reason.rawValue)), ("message", .string(problem.message))]))
        }
        return .object(
            JSONObject([
                ("searchPath", .array(searchPath.map(JSONValue.string))),
                ("missingDirectories", .array(registry.missingDirectories.map(JSONValue.string))),
                ("bundles", .array(bundles)),
                ("problems", .array(problems)),
            ]))
    }

    static func widgetJSON(_ widget: RegisteredWidget) -> JSONValue {
        .object(
            JSONObject([
                ("kind", .string(widget.kind)),
                ("displayName", .string(widget.displayName)),
                ("description", .string(widget.description)),
                ("families", .array(widget.families.map { .string($0.rawValue) })),
                ("configuration", .string(widget.configurationKind.rawValue)),
                ("configurationName", widget.configurationName.map(JSONValue.string) ?? .null),
                ("configurationSchema", widget.configuration?.json ?? .null),
                ("contentMarginsDisabled", .bool(widget.contentMarginsDisabled)),
            ]))
    }

    /// A request's answer as text, written a few hundred lines at a time as it is made (each part
    /// ends with a newline).
    static func writeResultText(_ result: ProviderResult, _ write: (String) -> Void) {
        var header = "\(result.kind) · \(result.family) · \(result.requestKind.rawValue)"
        if result.requestKind == .timeline {
            header += " · \(result.entries.count) entr\(result.entries.count == 1 ? "y" : "ies")"
        }
        if let policy = result.policy { header += " · reload \(policyText(policy))" }
        var lines = [header]
        for (index, entry) in result.entries.enumerated() {
            var line = "─ entry \(index + 1) · \(dateText(entry.date))"
            if let relevance = entry.relevance {
                line += " · relevance \(number(relevance.score))"
                if relevance.duration > 0 { line += " for \(number(relevance.duration)) s" }
            }
            lines.append(line)
            let body = PlainTextRenderer.lines(entry.view, now: shownAt(entry))
            lines += body.isEmpty ? ["  (empty)"] : body.map { "  " + $0 }
            if lines.count >= 512 {
                write(lines.joined(separator: "\n") + "\n")
                lines = []
            }
        }
        if !lines.isEmpty { write(lines.joined(separator: "\n") + "\n") }
    }

    /// When an entry is on screen from: its date, or now for an entry whose date has passed. Its
    /// self-updating texts (`.timer`, `.relative`) read as of then.
    static func shownAt(_ entry: WireEntry) -> Date {
        max(Date(timeIntervalSince1970: entry.date), Date())
    }

    /// A request's answer as JSON, written in parts of about 64 KiB as it is made: a timeline of
    /// thousands of entries is never held as one value and one text besides the answer itself.
    /// The text is that of one JSON object, ending with a newline.
    static func writeResultJSON(_ result: ProviderResult, _ write: (String) -> Void) {
        let head = JSONValue.object(
            JSONObject([
                ("kind", .string(result.kind)), ("family", .string(result.family.rawValue)), ("request", .string(result.requestKind.rawValue)),
            ])
        ).jsonText
        var part = head.dropLast() + ",\"entries\":["
        for (index, entry) in result.entries.enumerated() {
            if index > 0 { part += "," }
            part += entryJSON(entry).jsonText
            if part.utf8.count >= 64 << 10 {
                write(String(part))
                part = ""
            }
        }
        var tail = JSONObject()
        if let policy = result.policy {
            var fields = JSONObject()
            switch policy {
            case .atEnd: fields["kind"] = .string("atEnd")
            case .never: fields["kind"] = .string("never")
            case .after(let date):
                fields["kind"] = .string("after")
                fields["date"] = .string(isoDate(date))
                fields["timestamp"] = .number(date)
            }
            tail["policy"] = .object(fields)
        }
        tail["notes"] = .array(result.notes.map(JSONValue.string))
        write(String(part) + "]," + JSONValue.object(tail).jsonText.dropFirst() + "\n")
    }

    static func entryJSON(_ entry: WireEntry) -> JSONValue {
        var fields = JSONObject([("date", .string(isoDate(entry.date))), ("timestamp", .number(entry.date))])
        fields["relevance"] =
            entry.relevance.map {
                .object(JSONObject([("score", .number($0.score)), ("duration", .number($0.duration))]))
            } ?? .null
        fields["text"] = .string(PlainTextRenderer.text(entry.view, now: shownAt(entry)))
        fields["view"] = entry.view.json
        return .object(fields)
    }

    static func statisticsText(_ rows: [(RegisteredWidget, ProviderStatistics)], memoryLimit: Int64, isolation: Isolation) -> String {
        func bytes(_ value: Int64?) -> String { value.map(megabytes) ?? "-" }
        let header = ["provider", "bundle", "calls", "failures", "live", "peak", "limit", "terminated", "crashes", "time in calls"]
        let table = [header] + rows.map { widget, statistics in
            let milliseconds = Double(statistics.timeInCalls.components.seconds) * 1000 + Double(statistics.timeInCalls.components.attoseconds) / 1e15
            return [
                widget.kind, widget.bundle.fileName, "\(statistics.calls)", "\(statistics.failures)", bytes(statistics.liveBytes),
                bytes(statistics.peakBytes), bytes(statistics.memoryLimit), "\(statistics.terminations)", "\(statistics.crashes)",
                String(format: "%.1f ms", milliseconds),
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

    static func policyText(_ policy: WireReloadPolicy) -> String {
        switch policy {
        case .atEnd: "atEnd"
        case .never: "never"
        case .after(let date): "after \(dateText(date))"
        }
    }

    /// Local time, to the second, with the offset: what a person compares with their clock.
    static func dateText(_ seconds: Double) -> String {
        localFormatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    static func isoDate(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }

    // Made once: a timeline of 60 entries prints 60 dates, and a DateFormatter is costly to make.
    private static let localFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xxx"
        return formatter
    }()

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    // MARK: Instances and tables

    static func instanceJSON(_ instance: WidgetInstance) -> JSONValue {
        .object(
            JSONObject([
                ("id", .string(instance.id)), ("kind", .string(instance.kind)), ("family", .string(instance.family.rawValue)),
                ("configuration", .object(instance.configuration)),
            ]))
    }

    /// `coin=ETH, note=none`; "-" for none.
    static func describe(_ configuration: JSONObject) -> String {
        configuration.isEmpty ? "-" : configuration.members.map { "\($0.key)=\($0.value.displayText)" }.joined(separator: ", ")
    }

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
