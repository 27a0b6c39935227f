import Foundation
import WidgetABI
import WidgetWire

/// Answers a configurable widget's requests, for both configuration APIs: fills a fresh intent from
/// the instance's configuration (resolving entities), then asks the provider.
final class ConfiguredResponder<Intent, Entry: TimelineEntry, Content: View>: @unchecked Sendable {
    let content: (Entry) -> Content
    let makeIntent: () -> Intent
    let placeholder: (TimelineProviderContext) -> Entry
    let snapshot: (Intent, TimelineProviderContext) async throws -> Entry
    let timeline: (Intent, TimelineProviderContext) async throws -> Timeline<Entry>
    let recommendations: () -> [(Intent, String)]

    init(
        content: @escaping (Entry) -> Content, makeIntent: @escaping () -> Intent,
        placeholder: @escaping (TimelineProviderContext) -> Entry,
        snapshot: @escaping (Intent, TimelineProviderContext) async throws -> Entry,
        timeline: @escaping (Intent, TimelineProviderContext) async throws -> Timeline<Entry>,
        recommendations: @escaping () -> [(Intent, String)]
    ) {
        self.content = content
        self.makeIntent = makeIntent
        self.placeholder = placeholder
        self.snapshot = snapshot
        self.timeline = timeline
        self.recommendations = recommendations
    }

    func respond(_ request: ProviderRequest, _ reply: @escaping @Sendable (ProviderAnswer) -> Void) {
        let context = request.providerContext
        switch request.kind {
        case .placeholder:
            reply(.timeline(request.renderAlone(placeholder(context), content)))
        case .snapshot, .timeline:
            let intent = _UncheckedSendable(makeIntent())
            runOnCallingThread {
                // A query's `IntentParameterDependency` sees the intent while its entities are
                // resolved (those before it already filled) and while the provider runs.
                await ConfiguringIntent.$current.withValue((intent.value as? any AppIntent).map(_UncheckedSendable.init)) {
                    do throws(_ParameterFailure) {
                        try await IntentParameters.fill(intent.value, from: request.configuration)
                    } catch {
                        return reply(.failure(error.description))
                    }
                    do {
                        if request.kind == .snapshot {
                            let entry = try await self.snapshot(intent.value, context)
                            reply(.timeline(request.renderAlone(entry, self.content)))
                        } else {
                            reply(.timeline(request.render(try await self.timeline(intent.value, context), self.content)))
                        }
                    } catch {
                        reply(.failure("\(error)"))
                    }
                }
            }
        case .options:
            let intent = _UncheckedSendable(makeIntent())
            runOnCallingThread {
                do {
                    // The configuration so far, each parameter that has its value: what an
                    // `IntentParameterDependency` sees.
                    let options = try await ConfiguringIntent.$current.withValue((intent.value as? any AppIntent).map(_UncheckedSendable.init)) {
                        try await IntentParameters.fill(intent.value, from: request.configuration, partially: true)
                        return try await IntentParameters.options(of: intent.value, parameter: request.parameter)
                    }
                    reply(.json(options.json))
                } catch {
                    reply(.failure("options for \"\(request.parameter ?? "")\": \(error)"))
                }
            }
        case .recommendations:
            let list = recommendations().map { intent, description in
                WireRecommendation(description: description, configuration: IntentParameters.configuration(of: intent))
            }
            reply(.json(WireRecommendation.json(list)))
        case .openURL, .performIntent, .previews:
            reply(.failure("taps and previews are answered by the bundle, not the provider"))
        case .activity, .control:
            reply(.failure("a widget draws no Live Activity and is no Control (\(request.kind.rawValue) request)"))
        }
    }
}
