import Foundation
import WidgetWire

/// A widget configuration with no user-configurable options: a game status, a clock, a load average.
public struct StaticConfiguration<Content: View>: WidgetConfiguration {
    var definition: _WidgetDefinition

    /// - Parameters:
    ///   - kind: a unique string that identifies the widget, e.g. `"com.example.game-status"`.
    ///   - provider: an object that determines when to update the widget.
    ///   - content: the view for an entry, evaluated by the bundle for each entry and family.
    public init<Provider: TimelineProvider>(
        kind: String, provider: Provider, @ViewBuilder content: @escaping (Provider.Entry) -> Content
    ) {
        let responder = TimelineResponder(provider: provider, content: content)
        definition = _WidgetDefinition(kind: kind, configurationKind: .static, respond: responder.respond)
        definition.renderPreview = _WidgetDefinition.previewRenderer(content)
    }

    public func _definitions() -> [_WidgetDefinition] { [definition] }
}
