public import Foundation
public import WidgetWire

// What the code Xcode generates from a SiriKit intent definition (`.intentdefinition`) stands on, so
// that `widgets build` can generate the same declarations: the intent class with its parameters
// (numbers as `NSNumber`, dates as `DateComponents`, enums, custom `INObject` types, lists), its
// response, and its handling protocol, whose options and defaults the extension's intent handler
// (its `INExtension`) provides, as on iOS.

extension NSNumber: _IntentValue {
    /// A number; the parameter's kind says whether integer, decimal or boolean.
    public static var _parameterType: ParameterType { .double }
    public var _configurationValue: JSONValue { .number(doubleValue) }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> Self {
        let number: NSNumber
        switch json {
        case .bool(let flag): number = NSNumber(value: flag)
        case .number(let value): number = value.rounded() == value && abs(value) < 1e15 ? NSNumber(value: Int(value)) : NSNumber(value: value)
        default: throw .type("a number", json)
        }
        // NSNumber is never subclassed by an intent: the cast only names the type.
        return number as! Self
    }
}

extension DateComponents: _IntentValue {
    /// A date and time, kept as ISO 8601 and given to the widget as its components in the calendar.
    public static var _parameterType: ParameterType { .date }
    public var _configurationValue: JSONValue {
        guard let date = (calendar ?? Calendar.current).date(from: self) else { return .null }
        return .string(ISO8601DateFormatter().string(from: date))
    }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> DateComponents {
        guard let text = json.stringValue, let date = ISO8601DateFormatter().date(from: text) else {
            throw .type("a date in ISO 8601", json)
        }
        var components = Calendar.current.dateComponents([.calendar, .timeZone, .year, .month, .day, .hour, .minute, .second], from: date)
        components.calendar = Calendar.current
        return components
    }
}

/// An enumeration generated from an intent definition (`public enum Coin: Int` with `case unknown = 0`):
/// its cases by their names in the definition and their display names. `.unknown` is no choice.
public protocol _IntentDefinitionEnum: _IntentValue, RawRepresentable, CaseIterable, Hashable where RawValue == Int {
    /// Each case but `.unknown`: its name in the definition, and its display name.
    static var _definitionCases: [(value: Self, name: String, title: LocalizedStringResource)] { get }
    static var _definitionTypeName: String { get }
}

extension _IntentDefinitionEnum {
    public static var _parameterType: ParameterType { .enumeration }
    public static var _typeName: String? { _definitionTypeName }
    public static var _isOptional: Bool { true }
    public static var _none: Self? { Self(rawValue: 0) }
    public static var _cases: [ParameterOption] {
        _definitionCases.map { ParameterOption(value: .string($0.name), title: $0.title.text, subtitle: nil) }
    }
    public var _configurationValue: JSONValue {
        Self._definitionCases.first { $0.value == self }.map { .string($0.name) } ?? .null
    }
    public var _displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: Self._definitionCases.first { $0.value == self }?.title ?? "unknown")
    }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> Self {
        if json == .null, let none = Self(rawValue: 0) { return none }
        guard let text = json.stringValue, let match = _definitionCases.first(where: { $0.name == text }) else {
            throw _ParameterFailure("expected one of \(_definitionCases.map { "\"\($0.name)\"" }.joined(separator: ", ")), got \(json.jsonText)")
        }
        return match.value
    }
}

extension IntentParameter {
    /// A parameter of an intent generated from an intent definition: its title (localized by the
    /// definition's string table), its kind where the Swift type does not say it, a default, and
    /// the options the extension's handler provides for the intent being configured.
    public convenience init<Intent: INIntent>(
        _definitionTitle title: LocalizedStringResource, kind: ParameterType? = nil, default: Value? = nil, range: ClosedRange<Double>? = nil,
        intent: Intent.Type, options: (@Sendable (Intent) async throws -> [Any]?)? = nil, defaultOption: (@Sendable (Intent) async -> Any?)? = nil
    ) {
        var choices: _Choices?
        if let options {
            choices = _Choices { configured in
                let intent = (configured as? Intent) ?? Intent()
                return (try await options(intent) ?? [], await defaultOption?(intent))
            }
        }
        self.init(title: title.text, defaultValue: `default`, choices: choices)
        self.kind = kind
        self.range = range
    }
}

extension INExtension {
    /// The object that handles `intent` in an extension, as iOS finds it: the extension's principal
    /// class (`NSExtensionPrincipalClass` of the Intents extension, `Module.IntentHandler`) made and
    /// asked `handler(for:)`. Nil when there is no such class.
    public static func _handler(for intent: INIntent, principalClass: String) -> Any? {
        guard let type = NSClassFromString(principalClass) as? INExtension.Type else {
            AssetWarnings.once("the intent handler class \(principalClass) is not in the bundle; \(type(of: intent)) has no options or defaults")
            return nil
        }
        return type.init().handler(for: intent)
    }
}

/// A SiriKit intent's response (`ConfigurationIntentResponse`), which Siri shows after handling an
/// intent; widgets never see one, but intent handlers written for iOS make them.
open class INIntentResponse {
    public var userActivity: NSUserActivity?
    public required init() {}
}

/// An activity an app continues (Handoff, Siri); here only what a response carries.
open class NSUserActivity {
    public let activityType: String
    public var title: String?
    public var userInfo: [AnyHashable: Any]?
    public var webpageURL: URL?
    public init(activityType: String) { self.activityType = activityType }
}
