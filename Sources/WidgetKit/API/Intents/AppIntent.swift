import Foundation
import WidgetWire

// The App Intents names a configurable widget uses, with Apple's signatures. Values a user configures
// travel as JSON (docs/CONFIGURATION.md): the SDK describes each intent's parameters to the host,
// and fills a fresh intent from an instance's configuration before each request.

/// An action or a configuration, with parameters declared by `@Parameter`.
///
/// Its `description` may be declared either way authors write it: `static var description:
/// IntentDescription? = …` (Apple's declared type) or `static var description = IntentDescription("…")`
/// (Apple's templates, not optional). On iOS a build step reads the value from the source, whatever
/// its type; here each form is the witness of a requirement of its own (`_OptionalIntentDescribing`,
/// `_IntentDescribing`), and `_description` reads whichever the intent declared.
public protocol AppIntent: _IntentDescribing, _OptionalIntentDescribing, SendableMetatype {
    associatedtype PerformResult: IntentResult
    associatedtype SummaryContent: ParameterSummary = _NoParameterSummary
    static var title: LocalizedStringResource { get }
    /// Whether running the intent opens the app (it cannot, here: the intent runs in the widget).
    static var openAppWhenRun: Bool { get }
    static var isDiscoverable: Bool { get }
    static var authenticationPolicy: IntentAuthenticationPolicy { get }
    /// How the intent's parameters read as a sentence in a configuration screen.
    @ParameterSummaryBuilder<Self> static var parameterSummary: SummaryContent { get }
    init()
    func perform() async throws -> PerformResult
}

/// An intent's description declared as Apple's templates write it, not optional.
public protocol _IntentDescribing {
    static var description: IntentDescription { get }
}

/// An intent's description declared with Apple's type, `IntentDescription?`.
public protocol _OptionalIntentDescribing {
    static var description: IntentDescription? { get }
}

extension _IntentDescribing {
    /// Not declared in this form: an empty description, which `_description` passes over.
    public static var description: IntentDescription { IntentDescription(_undeclared: ()) }
}

extension _OptionalIntentDescribing {
    public static var description: IntentDescription? { nil }
}

extension AppIntent {
    /// The description the intent declared, in either form; nil where it declared none.
    public static var _description: IntentDescription? {
        let plain = (Self.self as any _IntentDescribing.Type).description
        return plain.isDeclared ? plain : (Self.self as any _OptionalIntentDescribing.Type).description
    }

    public static var openAppWhenRun: Bool { false }
    public static var isDiscoverable: Bool { true }
    public static var authenticationPolicy: IntentAuthenticationPolicy { .alwaysAllowed }
}

extension AppIntent where SummaryContent == _NoParameterSummary {
    public static var parameterSummary: _NoParameterSummary { _NoParameterSummary() }
}

/// Whether an intent may run on a locked device (it always may, here).
public struct IntentAuthenticationPolicy: Sendable {
    public static let alwaysAllowed = IntentAuthenticationPolicy()
    public static let requiresAuthentication = IntentAuthenticationPolicy()
    public static let requiresLocalDeviceAuthentication = IntentAuthenticationPolicy()
}

/// The intent a configurable widget's instances are configured with.
public protocol WidgetConfigurationIntent: AppIntent {}

extension WidgetConfigurationIntent {
    /// A configuration has nothing to perform.
    public func perform() async throws -> some IntentResult { .result() }
}
