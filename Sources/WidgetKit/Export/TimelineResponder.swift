import Foundation
import WidgetABI
import WidgetWire

/// Answers requests for a `TimelineProvider`. The ABI promises one request at a time per widget kind,
/// which is what makes sharing the provider across the threads its completions arrive on safe.
final class TimelineResponder<Provider: TimelineProvider, Content: View>: @unchecked Sendable {
    let provider: Provider
    let content: (Provider.Entry) -> Content

    init(provider: Provider, content: @escaping (Provider.Entry) -> Content) {
        self.provider = provider
        self.content = content
    }

    func respond(_ request: ProviderRequest, _ reply: @escaping @Sendable (ProviderAnswer) -> Void) {
        let context = request.providerContext
        switch request.kind {
        case .placeholder:
            reply(.timeline(request.renderAlone(provider.placeholder(in: context), content)))
        case .snapshot:
            let completion = ProviderCompletion<Provider.Entry>(
                deliver: { entry in reply(.timeline(request.renderAlone(entry, self.content))) },
                dropped: { reply(.failure(ProviderCompletion<Provider.Entry>.Dropped(method: "getSnapshot(in:completion:)").description)) })
            provider.getSnapshot(in: context, completion: completion.closure)
        case .timeline:
            let completion = ProviderCompletion<Timeline<Provider.Entry>>(
                deliver: { timeline in reply(.timeline(request.render(timeline, self.content))) },
                dropped: { reply(.failure(ProviderCompletion<Timeline<Provider.Entry>>.Dropped(method: "getTimeline(in:completion:)").description)) })
            provider.getTimeline(in: context, completion: completion.closure)
        case .options, .recommendations:
            reply(.failure("a static widget has no configuration"))
        case .openURL, .performIntent, .previews:
            reply(.failure("taps and previews are answered by the bundle, not the provider"))
        case .activity, .control:
            reply(.failure("a widget draws no Live Activity and is no Control (\(request.kind.rawValue) request)"))
        }
    }
}

/// Carries a value the SDK knows to be used safely across threads (a provider is only ever called
/// from one request at a time, as the ABI promises), where the compiler cannot see it.
struct _UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
