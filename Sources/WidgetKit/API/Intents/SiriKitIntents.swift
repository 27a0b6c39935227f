public import WidgetWire
import Foundation
import Synchronization

// The SiriKit-style configuration of iOS 14: `IntentConfiguration` and `IntentTimelineProvider`.
// On iOS, Xcode generates the intent class, its custom types and a handler protocol from an intent
// definition file. No Xcode generates them here: write them by hand, in a few lines (docs/CONFIGURATION.md):
//
//     public class GameCharacter: INObject {}                     // the custom type
//
//     public class SelectCharacterIntent: INIntent {               // the intent
//         @Parameter(title: "Character", optionsProvider: IntentHandler.provideCharacterOptionsCollection)
//         public var character: GameCharacter?
//     }
//
//     class IntentHandler: INExtension {                           // the dynamic options handler
//         func provideCharacterOptionsCollection(
//             for intent: SelectCharacterIntent, with completion: @escaping (INObjectCollection<GameCharacter>?, Error?) -> Void
//         ) { ... }
//     }

/// The base of a hand-written SiriKit-style intent class; its parameters are `@Parameter` properties.
open class INIntent {
    public required init() {}

    /// The title an intent definition gives the intent (what a configuration screen shows); nil for
    /// an intent written by hand, which is titled by its class's name.
    open class var _definitionTitle: LocalizedStringResource? { nil }
}

/// A custom type's value: an identifier (what an instance stores) and how it displays.
open class INObject: _IntentValue {
    public let identifier: String?
    public let displayString: String
    public var subtitleString: String?
    public let pronunciationHint: String?

    public required init(identifier: String?, display displayString: String, pronunciationHint: String? = nil) {
        self.identifier = identifier
        self.displayString = displayString
        self.pronunciationHint = pronunciationHint
    }

    public convenience init(identifier: String?, display displayString: String, subtitle: String?, image: Never? = nil) {
        self.init(identifier: identifier, display: displayString)
        subtitleString = subtitle
    }

    public static var _parameterType: ParameterType { .entity }
    public static var _typeName: String? { nameOfType(self) }
    public var _configurationValue: JSONValue { .string(identifier ?? displayString) }
    public var _displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: LocalizedStringResource(displayString), subtitle: subtitleString.map { LocalizedStringResource($0) })
    }

    /// The object the options handler offers under this identifier (it carries the handler's other
    /// properties, as on iOS); without a handler, an object of the identifier alone.
    public static func _decode(_ json: JSONValue, choices: _Choices?) async throws(_ParameterFailure) -> Self {
        guard let identifier = json.stringValue else { throw .type("an identifier", json) }
        guard let choices else { return Self(identifier: identifier, display: identifier) }
        let offered: [Any]
        do {
            offered = try await choices.load(nil).values
        } catch {
            throw _ParameterFailure("its options handler failed while resolving \"\(identifier)\": \(error)")
        }
        guard let match = offered.lazy.compactMap({ $0 as? Self }).first(where: { $0.identifier == identifier }) else {
            throw _ParameterFailure(
                "no \(nameOfType(self)) has the identifier \"\(identifier)\" any more (its options handler no longer offers it)")
        }
        return match
    }
}

/// What an options handler hands its completion: objects, or strings for a text parameter.
public struct INObjectCollection<ObjectType>: @unchecked Sendable {
    public let allItems: [ObjectType]

    public init(items: [ObjectType]) { allItems = items }
    public init(sections: [INObjectSection<ObjectType>]) { allItems = sections.flatMap(\.items) }
}

public struct INObjectSection<ObjectType>: @unchecked Sendable {
    public let title: String?
    public let items: [ObjectType]

    public init(title: String?, items: [ObjectType]) {
        self.title = title
        self.items = items
    }
}

/// The Intents extension's principal class: on Linux, the type that holds the options handlers.
open class INExtension {
    public required init() {}

    /// The object that handles an intent: by default the extension itself, as iOS's template has it.
    open func handler(for intent: INIntent) -> Any? { self }
}

extension IntentParameter {
    /// A SiriKit-style dynamic parameter, its options from a handler method written as on iOS:
    /// `optionsProvider: IntentHandler.provideCharacterOptionsCollection`.
    public convenience init<Handler: INExtension, Intent: INIntent, Object: INObject>(
        title: LocalizedStringResource,
        optionsProvider: @escaping (Handler) -> (Intent, @escaping (INObjectCollection<Object>?, (any Error)?) -> Void) -> Void
    ) where Value == Object? {
        let provide = _UncheckedSendable(optionsProvider)
        self.init(
            title: title.text, defaultValue: nil,
            choices: _Choices { _ in
                let items: _UncheckedSendable<[Object]> = try await withCheckedThrowingContinuation { continuation in
                    let once = OnceContinuation(continuation)
                    provide.value(Handler())(Intent()) { collection, error in
                        if let error {
                            once.resume(throwing: error)
                        } else {
                            once.resume(returning: _UncheckedSendable(collection?.allItems ?? []))
                        }
                    }
                }
                return (items.value.map { $0 as Any }, nil)
            })
    }
}

/// A continuation a handler may call more than once: only the first call counts.
final class OnceContinuation<T: Sendable, Failure: Error>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, Failure>?>

    init(_ continuation: CheckedContinuation<T, Failure>) { self.continuation = Mutex(continuation) }

    func resume(returning value: T) { take()?.resume(returning: value) }
    func resume(throwing error: Failure) { take()?.resume(throwing: error) }

    private func take() -> CheckedContinuation<T, Failure>? {
        continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
    }
}

/// Supplies entries for a SiriKit-style configurable widget, handed the instance's intent.
public protocol IntentTimelineProvider {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: INIntent
    typealias Context = TimelineProviderContext

    func placeholder(in context: Context) -> Entry
    func getSnapshot(for configuration: Intent, in context: Context, completion: @escaping @Sendable (Entry) -> Void)
    func getTimeline(for configuration: Intent, in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)
    func recommendations() -> [IntentRecommendation<Intent>]
}

extension IntentTimelineProvider {
    public func recommendations() -> [IntentRecommendation<Intent>] { [] }
}

/// A preconfigured instance a SiriKit-style provider suggests.
public struct IntentRecommendation<Intent: INIntent> {
    public let intent: Intent
    public let description: String

    public init(intent: Intent, description: some StringProtocol) {
        self.intent = intent
        self.description = String(description)
    }
}

/// A widget configured with a SiriKit-style intent (the iOS 14 API).
public struct IntentConfiguration<Intent: INIntent, Content: View>: WidgetConfiguration {
    var definition: _WidgetDefinition

    public init<Provider: IntentTimelineProvider>(
        kind: String, intent: Intent.Type, provider: Provider, @ViewBuilder content: @escaping (Provider.Entry) -> Content
    ) where Provider.Intent == Intent {
        // A completion called twice counts once (the host reports the second call for C bundles; here
        // the SDK keeps the first); one never called fails the request when the provider lets it go.
        let responder = ConfiguredResponder<Intent, Provider.Entry, Content>(
            content: content, makeIntent: { Intent() },
            placeholder: { provider.placeholder(in: $0) },
            snapshot: { intent, context throws(ProviderCompletion<Provider.Entry>.Dropped) in
                try await ProviderCompletion.value(of: "getSnapshot(for:in:completion:)") { provider.getSnapshot(for: intent, in: context, completion: $0) }
            },
            timeline: { intent, context throws(ProviderCompletion<Timeline<Provider.Entry>>.Dropped) in
                try await ProviderCompletion.value(of: "getTimeline(for:in:completion:)") { provider.getTimeline(for: intent, in: context, completion: $0) }
            },
            recommendations: { provider.recommendations().map { ($0.intent, $0.description) } })
        definition = _WidgetDefinition(
            kind: kind, configurationKind: .intent, configurationName: nameOfType(Intent.self),
            schema: IntentParameters.schema(of: Intent(), title: Intent._definitionTitle?.text ?? nameOfType(Intent.self), description: ""),
            respond: responder.respond)
        definition.renderPreview = _WidgetDefinition.previewRenderer(content)
    }

    public func _definitions() -> [_WidgetDefinition] { [definition] }
}
