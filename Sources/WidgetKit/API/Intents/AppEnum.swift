import Foundation
public import WidgetWire

/// A fixed set of choices, such as a coin.
///
///     enum Coin: String, AppEnum {
///         case btc, eth, ltc
///         static var typeDisplayRepresentation: TypeDisplayRepresentation { "Coin" }
///         static var caseDisplayRepresentations: [Coin: DisplayRepresentation] {
///             [.btc: "Bitcoin", .eth: "Ethereum", .ltc: "Litecoin"]
///         }
///     }
public protocol AppEnum: _IntentValue, RawRepresentable, CaseIterable, Hashable, TypeDisplayRepresentable
where RawValue: LosslessStringConvertible {
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    public static var _parameterType: ParameterType { .enumeration }
    public static var _typeName: String? { typeDisplayRepresentation.name.text }
    public static var _cases: [ParameterOption] {
        allCases.map { value in
            let display = value._displayRepresentation
            return ParameterOption(value: value._configurationValue, title: display.title.text, subtitle: display.subtitle?.text)
        }
    }
    public var _configurationValue: JSONValue { .string(String(describing: rawValue)) }
    /// The case's title, as its display representation gives it (CustomLocalizedStringResourceConvertible).
    public var localizedStringResource: LocalizedStringResource { _displayRepresentation.title }
    public var _displayRepresentation: DisplayRepresentation {
        Self.caseDisplayRepresentations[self] ?? DisplayRepresentation(title: LocalizedStringResource(String(describing: rawValue)))
    }
    public static func _decode(_ json: JSONValue, choices: _Choices?) throws(_ParameterFailure) -> Self {
        guard let text = json.stringValue else { throw .type("one of \(caseList)", json) }
        guard let raw = RawValue(text), let value = Self(rawValue: raw) else {
            throw _ParameterFailure("\"\(text)\" is not one of \(caseList)")
        }
        return value
    }
    private static var caseList: String { allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }
}
