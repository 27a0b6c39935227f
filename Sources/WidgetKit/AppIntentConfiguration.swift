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
    let definition: _WidgetDefinition

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
            kind: kind, configurationKind: .appIntent, configurationName: String(describing: Intent.self),
            schema: IntentParameters.schema(
                of: Intent(), title: Intent.title.key, description: Intent.description?.descriptionText.key ?? ""),
            respond: responder.respond)
    }

    public func _definitions() -> [_WidgetDefinition] { [definition] }
}

/// Answers a configurable widget's requests, for both configuration APIs: fills a fresh intent from
/// the instance's configuration (resolving entities), then asks the provider.
final class ConfiguredResponder<Intent, Entry: TimelineEntry, Content: View>: @unchecked Sendable {
    let content: (Entry) -> Content
    let makeIntent: () -> Intent
    let placeholder: (TimelineProviderContext) -> Entry
    let snapshot: (Intent, TimelineProviderContext) async -> Entry
    let timeline: (Intent, TimelineProviderContext) async -> Timeline<Entry>
    let recommendations: () -> [(Intent, String)]

    init(
        content: @escaping (Entry) -> Content, makeIntent: @escaping () -> Intent,
        placeholder: @escaping (TimelineProviderContext) -> Entry,
        snapshot: @escaping (Intent, TimelineProviderContext) async -> Entry,
        timeline: @escaping (Intent, TimelineProviderContext) async -> Timeline<Entry>,
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
                do throws(_ParameterFailure) {
                    try await IntentParameters.fill(intent.value, from: request.configuration)
                } catch {
                    return reply(.failure(error.description))
                }
                if request.kind == .snapshot {
                    let entry = await self.snapshot(intent.value, context)
                    reply(.timeline(request.renderAlone(entry, self.content)))
                } else {
                    reply(.timeline(request.render(await self.timeline(intent.value, context), self.content)))
                }
            }
        case .options:
            let intent = _UncheckedSendable(makeIntent())
            runOnCallingThread {
                do {
                    reply(.json(try await IntentParameters.options(of: intent.value, parameter: request.parameter).json))
                } catch {
                    reply(.failure("options for \"\(request.parameter ?? "")\": \(error)"))
                }
            }
        case .recommendations:
            let list = recommendations().map { intent, description in
                WireRecommendation(description: description, configuration: IntentParameters.configuration(of: intent))
            }
            reply(.json(WireRecommendation.json(list)))
        }
    }
}

/// Runs async provider code on the calling thread (the provider's queue) for as long as it has work
/// there, so what it allocates is charged to the provider by the host's memory guard; once it waits
/// on something else, what remains runs on Dispatch's shared threads.
func runOnCallingThread(_ body: @escaping @Sendable () async -> Void) {
    let executor = CallingThreadExecutor()
    Task(executorPreference: executor) { await body() }
    executor.drain()
}

final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    private var released = false

    func enqueue(_ job: UnownedJob) {
        let queued = lock.withLock {
            guard !released else { return false }
            jobs.append(job)
            return true
        }
        if !queued {
            DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    /// Runs queued jobs on this thread until none is left, then hands later ones to Dispatch.
    func drain() {
        while true {
            let next: UnownedJob? = lock.withLock {
                guard !jobs.isEmpty else {
                    released = true
                    return nil
                }
                return jobs.removeFirst()
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
