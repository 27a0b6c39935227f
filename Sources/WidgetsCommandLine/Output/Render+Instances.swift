import FoundationEssentials
import WidgetABI
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

/// Saved instances and their configurations.
extension Render {
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
}
