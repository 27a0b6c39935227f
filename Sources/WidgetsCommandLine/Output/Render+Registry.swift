import FoundationEssentials
import WidgetABI
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// Bundles and widgets: `widgets list` and `load`.
extension Render {
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
                    if parameter.isList { traits.append(parameter.maximumCount.map { "a list of at most \($0)" } ?? "a list") }
                    if let range = parameter.range { traits.append(ParameterSchema.rangeText(range)) }
                    if let value = parameter.defaultValue { traits.append("default \(value.displayText)") }
                    if parameter.hasDynamicOptions { traits.append("dynamic options") }
                    lines.append("      parameter \(parameter.name) \"\(parameter.title)\": \(traits.joined(separator: ", "))")
                }
            }
            let activities = registry.activityTypes.filter { $0.bundle === bundle }
            if kind == nil, !activities.isEmpty {
                lines.append("  Live Activities: \(activities.map(\.kind).joined(separator: ", ")) ('widgets activity start TYPE')")
            }
            let controls = registry.controls.filter { $0.bundle === bundle }
            if kind == nil, !controls.isEmpty {
                lines.append("  Controls: \(controls.map(\.kind).joined(separator: ", ")) ('widgets control')")
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
                    ("activities", .array(registry.activityTypes.filter { $0.bundle === bundle }.map { .string($0.kind) })),
                    ("controls", .array(registry.controls.filter { $0.bundle === bundle }.map { .string($0.kind) })),
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
}
