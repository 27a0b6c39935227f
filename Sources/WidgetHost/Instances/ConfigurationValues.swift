import FoundationEssentials
import WidgetSupport
import WidgetWire

/// Why a configuration value was refused: one line naming the widget and parameter.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// The same in a person's terms, for a form (the home screen's Edit Widget): the parameter by
    /// its title, not its name, and no widget kind ("Decimals: 99 is out of range: from 0 to 8").
    public let forPerson: String?

    public init(description: String, forPerson: String? = nil) {
        self.description = description
        self.forPerson = forPerson
    }
}

/// Turns what a person types (`--set coin=ETH`) into a configuration value, checked against the
/// widget's schema.
public enum ConfigurationValues {
    /// Splits `NAME=VALUE`.
    public static func assignment(_ text: String) throws(ConfigurationError) -> (name: String, value: String) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ConfigurationError(description: "'\(text)' is not NAME=VALUE")
        }
        let name = String(text[..<equals])
        guard !name.isEmpty, !name.contains(where: \.isWhitespace) else {
            throw ConfigurationError(description: "'\(text)' is not NAME=VALUE: the name is empty or has spaces")
        }
        return (name, String(text[text.index(after: equals)...]))
    }

    /// The value of `text` for `parameter`: null for an empty text when the parameter is optional.
    /// A value of a parameter with dynamic choices (an entity, an options provider) must be among
    /// `options`, the choices its provider offers now; a number within its range, a list no longer
    /// than it holds.
    public static func value(
        _ text: String, for parameter: ParameterSchema, kind: String, options: ParameterOptions? = nil
    ) throws(ConfigurationError) -> JSONValue {
        let typed = try typedValue(text, for: parameter, kind: kind, options: options)
        if let problem = parameter.boundsProblem(typed) { throw failure(problem, parameter, kind) }
        return typed
    }

    private static func failure(_ reason: String, _ parameter: ParameterSchema, _ kind: String) -> ConfigurationError {
        ConfigurationError(
            description: "widget \"\(kind)\": parameter \"\(parameter.name)\": \(reason)",
            forPerson: "\(parameter.title.isEmpty ? parameter.name : parameter.title): \(reason)")
    }

    /// The value of `text` for `parameter`, of its type (and among `options`), not yet checked
    /// against its bounds.
    private static func typedValue(
        _ text: String, for parameter: ParameterSchema, kind: String, options: ParameterOptions? = nil
    ) throws(ConfigurationError) -> JSONValue {
        func fail(_ reason: String) -> ConfigurationError { failure(reason, parameter, kind) }
        if parameter.isList {
            // A list: its values separated by commas, each a value of the parameter's type.
            let items = text.split(separator: ",").map(\.trimmingSpaces).filter { !$0.isEmpty }
            if items.isEmpty { return parameter.isOptional ? .null : .array([]) }
            return .array(
                try items.map { item throws(ConfigurationError) in try typedValue(item, for: parameter.element, kind: kind, options: options) })
        }
        if text.isEmpty {
            guard parameter.isOptional else { throw fail("needs a value (it is not optional)") }
            return .null
        }
        if let options, parameter.type != .string, parameter.type != .entity {
            // Typed first (so a wrong type says so), then among what the provider offers.
            let typed = try typedValue(text, for: parameter, kind: kind)
            if options.options.contains(where: { $0.value == typed }) { return typed }
            return try choose(text, among: options.options, fail)
        }
        switch parameter.type {
        case .string:
            if let options { return try choose(text, among: options.options, fail) }
            return .string(text)
        case .integer:
            guard let value = Int(text), abs(Double(value)) < 0x1p53 else { throw fail("'\(text)' is not an integer") }
            return .number(Double(value))
        case .double:
            guard let value = Double(text), value.isFinite else { throw fail("'\(text)' is not a number") }
            return .number(value)
        case .boolean:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw fail("'\(text)' is not true or false")
            }
        case .date:
            guard let date = parseDate(text) else {
                throw fail("'\(text)' is not a date (ISO 8601: 2026-11-21 or 2026-11-21T09:30:00Z)")
            }
            return .string(ISODate.text(date))
        case .url:
            guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty, text.contains(":") else {
                throw fail("'\(text)' is not an absolute URL (such as https://example.com)")
            }
            return .string(url.absoluteString)
        case .enumeration:
            return try choose(text, among: parameter.cases, fail)
        case .entity:
            guard let options else { return .string(text) }
            return try choose(text, among: options.options, fail)
        }
    }

    private static func choose(
        _ text: String, among options: [ParameterOption], _ fail: (String) -> ConfigurationError
    ) throws(ConfigurationError) -> JSONValue {
        if let match = options.first(where: { $0.value.displayText == text }) { return match.value }
        // Letters of any case, when that names one choice only (`eth` for `ETH`).
        let folded = options.filter { $0.value.displayText.lowercased() == text.lowercased() }
        if folded.count == 1 { return folded[0].value }
        guard !options.isEmpty else { throw fail("'\(text)' is not offered: the provider offers no choices now") }
        let hint = Suggestion.hint(for: text, among: options.map(\.value.displayText))
        throw fail("'\(text)' is not one of its choices\(hint): \(describe(options))")
    }

    /// `BTC (Bitcoin), ETH (Ethereum)`: values as typed, with their titles where they differ.
    public static func describe(_ options: [ParameterOption]) -> String {
        options.map { option in
            let value = option.value.displayText
            return option.title == value ? value : "\(value) (\(option.title))"
        }.joined(separator: ", ")
    }

    static func parseDate(_ text: String) -> Date? {
        ISODate.parse(text)
    }
}

extension WidgetRegistry {
    /// The choices for one parameter: an enum's cases from the schema, or the provider's (its
    /// options provider, entity query or options handler). `configuration` is the configuration so
    /// far (the parameters before it, as a configuration screen has them), which a provider's query
    /// may depend on (`IntentParameterDependency`).
    public func options(kind: String, parameter name: String, configuration: JSONObject = JSONObject()) async throws -> ParameterOptions {
        let parameter = try schemaParameter(kind: kind, name: name)
        if parameter.type == .enumeration && !parameter.hasDynamicOptions {
            return ParameterOptions(options: parameter.cases, defaultValue: parameter.defaultValue)
        }
        guard parameter.hasDynamicOptions else {
            throw ConfigurationError(
                description: "widget \"\(kind)\": parameter \"\(name)\" takes any \(parameter.type.rawValue); it has no list of options")
        }
        let result = try await request(.options, kind: kind, configuration: JSONValue.object(configuration).jsonText, parameter: name)
        return try ParameterOptions(json: result.payload ?? .null)
    }

    /// The instances a provider suggests.
    public func recommendations(kind: String) async throws -> [WireRecommendation] {
        let result = try await request(.recommendations, kind: kind)
        return try WireRecommendation.list(json: result.payload ?? .null)
    }

    private func schemaParameter(kind: String, name: String) throws -> ParameterSchema {
        let schema = try configurationSchema(kind: kind)
        guard let parameter = schema.parameter(named: name) else {
            throw ConfigurationError(
                description: "widget \"\(kind)\" has no parameter \"\(name)\"\(Suggestion.hint(for: name, among: schema.parameters.map(\.name))) (\(Self.parameterList(schema)))")
        }
        return parameter
    }

    private func configurationSchema(kind: String) throws -> ConfigurationSchema {
        let (widget, _) = try widget(kind: kind, family: nil)
        guard let schema = widget.configuration else {
            throw ConfigurationError(description: "widget \"\(kind)\" is static: it has no parameters")
        }
        return schema
    }

    static func parameterList(_ schema: ConfigurationSchema) -> String {
        schema.parameters.isEmpty ? "it has none" : "parameters: " + schema.parameters.map(\.name).joined(separator: ", ")
    }

    /// A configuration for `kind`: `base` (an instance's current one, or empty for a new instance)
    /// with `assignments` (`NAME=VALUE`) applied and every parameter given a value: set, kept,
    /// default, or the provider's default choice. Checks everything before returning; throws on the
    /// first bad input with a line that names it. Not `complete`, a parameter with no value set, kept
    /// or by default is left out (the configuration so far, for asking a later parameter's options).
    public func configuration(
        kind: String, base: JSONObject = JSONObject(), assignments: [String], complete: Bool = true
    ) async throws -> JSONObject {
        let parsed = try assignments.map { text throws(ConfigurationError) in try ConfigurationValues.assignment(text) }
        let (widget, _) = try widget(kind: kind, family: nil)
        guard let schema = widget.configuration else {
            if let first = parsed.first {
                throw ConfigurationError(description: "widget \"\(kind)\" is static: it has no parameter \"\(first.name)\" (it has none)")
            }
            return JSONObject()
        }
        for (name, _) in parsed where schema.parameter(named: name) == nil {
            throw ConfigurationError(
                description: "widget \"\(kind)\" has no parameter \"\(name)\"\(Suggestion.hint(for: name, among: schema.parameters.map(\.name))) (\(Self.parameterList(schema)))")
        }
        var configuration = JSONObject()
        for parameter in schema.parameters {
            var options: ParameterOptions?
            func dynamicOptions() async throws -> ParameterOptions? {
                guard parameter.hasDynamicOptions else { return nil }
                if let options { return options }
                options = try await self.options(kind: kind, parameter: parameter.name, configuration: configuration)
                return options
            }
            if let text = parsed.last(where: { $0.name == parameter.name })?.value {
                configuration[parameter.name] = try ConfigurationValues.value(
                    text, for: parameter, kind: kind, options: text.isEmpty ? nil : try await dynamicOptions())
            } else if let kept = base[parameter.name] {
                configuration[parameter.name] = kept
            } else if let fixed = parameter.defaultValue {
                configuration[parameter.name] = fixed
            } else if !complete {
                continue
            } else if let chosen = try await dynamicOptions()?.defaultValue {
                configuration[parameter.name] = chosen
            } else if parameter.isOptional {
                configuration[parameter.name] = .null
            } else {
                throw ConfigurationError(
                    description: "widget \"\(kind)\": parameter \"\(parameter.name)\" needs a value: --set \(parameter.name)=VALUE")
            }
        }
        return configuration
    }
}
