import FoundationEssentials

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
        if let range { object["range"] = .array([.number(range.lowerBound), .number(range.upperBound)]) }
        if isList { object["list"] = .bool(true) }
        if let maximumCount { object["maxCount"] = .number(Double(maximumCount)) }
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
        var range: ClosedRange<Double>?
        if let bounds = json["range"], bounds != .null {
            guard type == .integer || type == .double else {
                throw WireFormatError(path: "range", reason: "only a number parameter has a range; this one is \(type.rawValue)")
            }
            guard let pair = bounds.arrayValue, pair.count == 2, let low = pair[0].numberValue, let high = pair[1].numberValue, low <= high
            else { throw WireFormatError(path: "range", reason: "\(bounds.jsonText) is not [least, greatest]") }
            range = low...high
        }
        let isList = json["list"]?.boolValue ?? false
        var maximumCount: Int?
        if let count = json["maxCount"], count != .null {
            guard isList, let number = count.numberValue, number >= 1, number == number.rounded(), number < 0x1p31 else {
                throw WireFormatError(path: "maxCount", reason: isList ? "\(count.jsonText) is not a count of 1 or more" : "only a list has a count")
            }
            maximumCount = Int(number)
        }
        let defaultValue = json["default"].flatMap { $0 == .null ? nil : $0 }
        if let defaultValue {
            // A default is a value the parameter could take: of its type, and one of its cases; a
            // list's, a list of such.
            func fits(_ value: JSONValue) -> Bool {
                switch type {
                case .string, .date, .url, .entity: value.stringValue != nil
                case .integer: value.numberValue.map { $0 == $0.rounded() && abs($0) < 0x1p53 } ?? false
                case .double: value.numberValue != nil
                case .boolean: value.boolValue != nil
                case .enumeration: cases.contains { $0.value == value }
                }
            }
            guard let values = isList ? defaultValue.arrayValue : [defaultValue], values.allSatisfy(fits) else {
                let what = type == .enumeration ? "one of the cases" : "a value of type \(type.rawValue)"
                throw WireFormatError(
                    path: "default", reason: "\(defaultValue.jsonText) is not \(isList ? "a list of which each is " : "")\(what)")
            }
            if let problem = ParameterSchema.boundsProblem(defaultValue, isList: isList, range: range, maximumCount: maximumCount) {
                throw WireFormatError(path: "default", reason: problem)
            }
        }
        self.init(
            name: name, title: json["title"]?.stringValue ?? name, type: type, typeName: json["typeName"]?.stringValue,
            isOptional: json["optional"]?.boolValue ?? false, defaultValue: defaultValue, cases: cases,
            hasDynamicOptions: json["dynamicOptions"]?.boolValue ?? false, range: range, isList: isList, maximumCount: maximumCount)
    }

    /// A range as a person reads it: "from 1 to 10".
    public static func rangeText(_ range: ClosedRange<Double>) -> String {
        "from \(JSONValue.number(range.lowerBound).displayText) to \(JSONValue.number(range.upperBound).displayText)"
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
