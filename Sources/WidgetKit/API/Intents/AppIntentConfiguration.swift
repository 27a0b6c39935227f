import Foundation
import WidgetWire

/// Supplies a configurable widget's entries, handed the instance's configuration with each request.
public protocol AppIntentTimelineProvider {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: WidgetConfigurationIntent
    typealias Context = TimelineProviderContext

    /// Sample content shown while the widget loads; no configuration, answer at once.
    func placeholder(in context: Context) -> Entry
    func snapshot(for configuration: Intent, in context: Context) async -> Entry
    func timeline(for configuration: Intent, in context: Context) async -> Timeline<Entry>
    /// Preconfigured instances to offer (on iOS, for widgets that have no configuration screen).
    func recommendations() -> [AppIntentRecommendation<Intent>]
}

extension AppIntentTimelineProvider {
    public func recommendations() -> [AppIntentRecommendation<Intent>] { [] }
}

/// A widget configured with an App Intent: each instance holds its own values of the intent's
/// parameters, and the provider receives them with every request.
public struct AppIntentConfiguration<Intent: WidgetConfigurationIntent, Content: View>: WidgetConfiguration {
    var definition: _WidgetDefinition

    public init<Provider: AppIntentTimelineProvider>(
        kind: String, intent: Intent.Type = Intent.self, provider: Provider, @ViewBuilder content: @escaping (Provider.Entry) -> Content
    ) where Provider.Intent == Intent {
        let responder = ConfiguredResponder<Intent, Provider.Entry, Content>(
            content: content, makeIntent: { Intent() },
            placeholder: { provider.placeholder(in: $0) },
            snapshot: { intent, context in await provider.snapshot(for: intent, in: context) },
            timeline: { intent, context in await provider.timeline(for: intent, in: context) },
            recommendations: { provider.recommendations().map { ($0.intent, $0.description) } })
        definition = _WidgetDefinition(
            kind: kind, configurationKind: .appIntent, configurationName: nameOfType(Intent.self),
            schema: IntentParameters.schema(
                of: Intent(), title: Intent.title.text, description: Intent._description?.descriptionText.text ?? ""),
            respond: responder.respond)
        definition.renderPreview = _WidgetDefinition.previewRenderer(content)
    }

    public func _definitions() -> [_WidgetDefinition] { [definition] }
}
