import FoundationEssentials

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
    /// For numbers: the least and greatest value it takes (`inclusiveRange:`); nil for any.
    public var range: ClosedRange<Double>?
    /// Whether it holds a list of values of its type (`[City]`), in the configuration a JSON array.
    public var isList: Bool
    /// For a list: the most values it holds (`size:`); nil for any number.
    public var maximumCount: Int?

    public init(
        name: String, title: String, type: ParameterType, typeName: String? = nil, isOptional: Bool,
        defaultValue: JSONValue? = nil, cases: [ParameterOption] = [], hasDynamicOptions: Bool = false, range: ClosedRange<Double>? = nil,
        isList: Bool = false, maximumCount: Int? = nil
    ) {
        self.name = name
        self.title = title
        self.type = type
        self.typeName = typeName
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.cases = cases
        self.hasDynamicOptions = hasDynamicOptions
        self.range = range
        self.isList = isList
        self.maximumCount = maximumCount
    }

    /// Why `value`, this parameter's value in a configuration, is outside its bounds (a number out
    /// of its range, a list longer than it holds); nil when it is within them.
    public func boundsProblem(_ value: JSONValue) -> String? {
        Self.boundsProblem(value, isList: isList, range: range, maximumCount: maximumCount)
    }

    public static func boundsProblem(_ value: JSONValue, isList: Bool, range: ClosedRange<Double>?, maximumCount: Int?) -> String? {
        let items = isList ? value.arrayValue ?? [] : [value]
        if isList, let maximumCount, items.count > maximumCount { return "\(items.count) values, more than the \(maximumCount) it holds" }
        if let range, let outside = items.first(where: { $0.numberValue.map { !range.contains($0) } ?? false }) {
            return "\(outside.displayText) is out of range: \(rangeText(range))"
        }
        return nil
    }

    /// One value of a list parameter, as a parameter of its own.
    public var element: ParameterSchema {
        var element = self
        element.isList = false
        element.maximumCount = nil
        element.isOptional = false
        return element
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
