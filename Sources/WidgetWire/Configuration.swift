/// A configurable widget's parameters, as its bundle describes them through the ABI (the descriptor's
/// `configuration_schema`): what a configuration screen would show, in order. docs/CONFIGURATION.md
/// describes the JSON.
public struct ConfigurationSchema: Equatable, Sendable {
    /// The intent's title (`static var title`), e.g. "Select Character".
    public var title: String
    public var description: String
    public var parameters: [ParameterSchema]

    public init(title: String, description: String, parameters: [ParameterSchema]) {
        self.title = title
        self.description = description
        self.parameters = parameters
    }

    public func parameter(named name: String) -> ParameterSchema? {
        parameters.first { $0.name == name }
    }
}

/// The type of a parameter's value, and how the value is written in a configuration's JSON.
public enum ParameterType: String, Sendable, CaseIterable {
    /// A JSON string.
    case string
    /// A JSON number without a fraction.
    case integer
    /// A JSON number.
    case double
    /// `true` or `false`.
    case boolean
    /// A string in ISO 8601, e.g. "2026-11-21T09:30:00Z".
    case date
    /// A string holding an absolute URL.
    case url
    /// One of `cases`, by value (a string).
    case enumeration = "enum"
    /// An entity, by its identifier (a string), resolved by the bundle before each request.
    case entity
}

/// One parameter of a configuration.
public struct ParameterSchema: Equatable, Sendable {
    /// The property's name, e.g. "character".
    public var name: String
    public var title: String
    public var type: ParameterType
    /// For enums and entities: the type's name as it displays ("Coin", "Character").
    public var typeName: String?
    /// Whether the parameter may have no value.
    public var isOptional: Bool
    /// The value a new instance gets, in the configuration's JSON form; nil for none.
    public var defaultValue: JSONValue?
    /// An enum's cases, in order.
    public var cases: [ParameterOption]
    /// Whether the provider offers the choices at run time (a `DynamicOptionsProvider`, an entity
    /// query, or a SiriKit-style options handler).
    public var hasDynamicOptions: Bool

    public init(
        name: String, title: String, type: ParameterType, typeName: String? = nil, isOptional: Bool,
        defaultValue: JSONValue? = nil, cases: [ParameterOption] = [], hasDynamicOptions: Bool = false
    ) {
        self.name = name
        self.title = title
        self.type = type
        self.typeName = typeName
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.cases = cases
        self.hasDynamicOptions = hasDynamicOptions
    }
}

/// One choice for a parameter: its value in the configuration's JSON form and how it displays.
public struct ParameterOption: Equatable, Sendable {
    public var value: JSONValue
    public var title: String
    public var subtitle: String?

    public init(value: JSONValue, title: String, subtitle: String? = nil) {
        self.value = value
        self.title = title
        self.subtitle = subtitle
    }
}

/// The answer to an options request: the choices and the one a new instance starts with.
public struct ParameterOptions: Equatable, Sendable {
    public var options: [ParameterOption]
    public var defaultValue: JSONValue?

    public init(options: [ParameterOption], defaultValue: JSONValue?) {
        self.options = options
        self.defaultValue = defaultValue
    }
}

/// A preconfigured instance a provider suggests (`recommendations()`).
public struct WireRecommendation: Equatable, Sendable {
    public var description: String
    public var configuration: JSONObject

    public init(description: String, configuration: JSONObject) {
        self.description = description
        self.configuration = configuration
    }
}

// MARK: - JSON

extension ConfigurationSchema {
    public var json: JSONValue {
        .object(
            JSONObject([
                ("title", .string(title)), ("description", .string(description)),
                ("parameters", .array(parameters.map(\.json))),
            ]))
    }

    public init(json: JSONValue) throws(WireFormatError) {
        guard case .object = json else { throw WireFormatError(path: "", reason: "the schema is not a JSON object") }
        title = json["title"]?.stringValue ?? ""
        description = json["description"]?.stringValue ?? ""
        guard let list = json["parameters"]?.arrayValue else {
            throw WireFormatError(path: "parameters", reason: "missing, or not an array")
        }
        var parameters: [ParameterSchema] = []
        for (index, item) in list.enumerated() {
            do throws(WireFormatError) {
                let parameter = try ParameterSchema(json: item)
                guard !parameters.contains(where: { $0.name == parameter.name }) else {
                    throw WireFormatError(path: "", reason: "a second parameter named \"\(parameter.name)\"")
                }
                parameters.append(parameter)
            } catch {
                throw WireFormatError(path: "parameters[\(index)]" + (error.path.isEmpty ? "" : "." + error.path), reason: error.reason)
            }
        }
        self.parameters = parameters
    }
}

extension ParameterSchema {
    public var json: JSONValue {
        var object = JSONObject([
            ("name", .string(name)), ("title", .string(title)), ("type", .string(type.rawValue)), ("optional", .bool(isOptional)),
        ])
        if let typeName { object["typeName"] = .string(typeName) }
        if let defaultValue { object["default"] = defaultValue }
        if !cases.isEmpty { object["cases"] = .array(cases.map(\.json)) }
        if hasDynamicOptions { object["dynamicOptions"] = .bool(true) }
        return .object(object)
    }

    public init(json: JSONValue) throws(WireFormatError) {
        guard let name = json["name"]?.stringValue, !name.isEmpty else {
            throw WireFormatError(path: "name", reason: "missing or empty")
        }
        guard let typeText = json["type"]?.stringValue else { throw WireFormatError(path: "type", reason: "missing") }
        guard let type = ParameterType(rawValue: typeText) else {
            throw WireFormatError(
                path: "type", reason: "unknown type \"\(typeText)\" (\(ParameterType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var cases: [ParameterOption] = []
        for (index, item) in (json["cases"]?.arrayValue ?? []).enumerated() {
            do throws(WireFormatError) { cases.append(try ParameterOption(json: item)) } catch {
                throw WireFormatError(path: "cases[\(index)].\(error.path)", reason: error.reason)
            }
        }
        if type == .enumeration && cases.isEmpty { throw WireFormatError(path: "cases", reason: "an enum parameter needs its cases") }
        let defaultValue = json["default"].flatMap { $0 == .null ? nil : $0 }
        if let defaultValue {
            // A default is a value the parameter could take: of its type, and one of its cases.
            let fits: Bool
            switch type {
            case .string, .date, .url, .entity: fits = defaultValue.stringValue != nil
            case .integer: fits = defaultValue.numberValue.map { $0 == $0.rounded() && abs($0) < 0x1p53 } ?? false
            case .double: fits = defaultValue.numberValue != nil
            case .boolean: fits = defaultValue.boolValue != nil
            case .enumeration: fits = cases.contains { $0.value == defaultValue }
            }
            guard fits else {
                throw WireFormatError(
                    path: "default",
                    reason: type == .enumeration
                        ? "\(defaultValue.jsonText) is not one of the cases" : "\(defaultValue.jsonText) is not a value of type \(type.rawValue)")
            }
        }
        self.init(
            name: name, title: json["title"]?.stringValue ?? name, type: type, typeName: json["typeName"]?.stringValue,
            isOptional: json["optional"]?.boolValue ?? false, defaultValue: defaultValue, cases: cases,
            hasDynamicOptions: json["dynamicOptions"]?.boolValue ?? false)
    }
}

extension ParameterOption {
    public var json: JSONValue {
        var object = JSONObject([("value", value), ("title", .string(title))])
        if let subtitle { object["subtitle"] = .string(subtitle) }
        return .object(object)
    }

    public init(json: JSONValue) throws(WireFormatError) {
        guard let value = json["value"], value != .null else { throw WireFormatError(path: "value", reason: "missing") }
        self.init(value: value, title: json["title"]?.stringValue ?? value.displayText, subtitle: json["subtitle"]?.stringValue)
    }
}

extension ParameterOptions {
    public var json: JSONValue {
        .object(JSONObject([("options", .array(options.map(\.json))), ("default", defaultValue ?? .null)]))
    }

    public init(json: JSONValue) throws(WireFormatError) {
        guard let list = json["options"]?.arrayValue else { throw WireFormatError(path: "options", reason: "missing, or not an array") }
        var options: [ParameterOption] = []
        for (index, item) in list.enumerated() {
            do throws(WireFormatError) { options.append(try ParameterOption(json: item)) } catch {
                throw WireFormatError(path: "options[\(index)].\(error.path)", reason: error.reason)
            }
        }
        self.init(options: options, defaultValue: json["default"].flatMap { $0 == .null ? nil : $0 })
    }
}

extension WireRecommendation {
    public var json: JSONValue {
        .object(JSONObject([("description", .string(description)), ("configuration", .object(configuration))]))
    }

    /// A list of recommendations, as a bundle answers a recommendations request.
    public static func json(_ list: [WireRecommendation]) -> JSONValue {
        .object(JSONObject([("recommendations", .array(list.map(\.json)))]))
    }

    public static func list(json: JSONValue) throws(WireFormatError) -> [WireRecommendation] {
        guard let list = json["recommendations"]?.arrayValue else {
            throw WireFormatError(path: "recommendations", reason: "missing, or not an array")
        }
        var recommendations: [WireRecommendation] = []
        for (index, item) in list.enumerated() {
            guard let description = item["description"]?.stringValue else {
                throw WireFormatError(path: "recommendations[\(index)].description", reason: "missing")
            }
            guard let configuration = item["configuration"]?.objectValue else {
                throw WireFormatError(path: "recommendations[\(index)].configuration", reason: "missing, or not an object")
            }
            recommendations.append(WireRecommendation(description: description, configuration: configuration))
        }
        return recommendations
    }
}

extension JSONValue {
    /// The value as a person reads it: strings bare, numbers without a needless ".0", null as "none".
    public var displayText: String {
        switch self {
        case .null: "none"
        case .bool(let value): value ? "true" : "false"
        case .number(let value):
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): value
        case .array, .object: jsonText
        }
    }
}
