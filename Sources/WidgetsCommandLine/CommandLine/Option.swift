import WidgetSupport
/// An option as a command declares it: what help, the man page and the completions show, and the
/// check its value passes. `Option` is the typed handle a command reads it through.
struct OptionSpec: Sendable {
    let name: String
    /// The value's placeholder ("FAMILY"); nil for a flag.
    let valueName: String?
    let help: String
    /// The values it takes, for completions and suggestions; empty when any value goes.
    let choices: [String]
    /// Whether it may be given more than once (`--set`), each value kept.
    let repeatable: Bool
    /// The usage error a value gets, or nil when the value is good.
    let check: @Sendable (String) -> String?
    /// For an option whose value may be left out (`--web` or `--web ADDR:PORT`): the value it then has.
    var implicitValue: String? = nil

    var isFlag: Bool { valueName == nil }

    /// `--family FAMILY`, `--json`, `--web [ADDR:PORT]`.
    var synopsis: String {
        guard let valueName else { return "--\(name)" }
        return implicitValue == nil ? "--\(name) \(valueName)" : "--\(name) [\(valueName)]"
    }
}

/// A typed handle on an option: declared once (`Options`), listed by the commands that take it, and
/// read through `Invocation` as a `Value`. Reading an option a command did not declare is a
/// programming error, caught at once.
struct Option<Value>: Sendable {
    var spec: OptionSpec
    let parse: @Sendable (String) -> Result<Value, UsageText>

    /// An option that takes a value, parsed by `parse` into a value or the usage error's text.
    init(
        _ name: String, value valueName: String, help: String, choices: [String] = [], repeatable: Bool = false,
        parse: @escaping @Sendable (String) -> Result<Value, UsageText>
    ) {
        self.parse = parse
        spec = OptionSpec(
            name: name, valueName: valueName, help: help, choices: choices, repeatable: repeatable,
            check: { text in
                if case .failure(let failure) = parse(text) { return failure.text }
                return nil
            })
    }

    /// An option whose value may be left out: alone it has `implicitValue`; its value is the next
    /// argument unless that is an option, or follows `=`.
    init(
        _ name: String, optionalValue valueName: String, implicitValue: String, help: String,
        parse: @escaping @Sendable (String) -> Result<Value, UsageText>
    ) {
        self.init(name, value: valueName, help: help, parse: parse)
        spec.implicitValue = implicitValue
    }
}

extension Option where Value == Bool {
    /// A flag: present or not.
    init(flag name: String, help: String) {
        parse = { _ in .success(true) }
        spec = OptionSpec(name: name, valueName: nil, help: help, choices: [], repeatable: false, check: { _ in nil })
    }
}

extension Option where Value == String {
    /// An option whose value is any text.
    init(_ name: String, value valueName: String, help: String, repeatable: Bool = false) {
        self.init(name, value: valueName, help: help, repeatable: repeatable) { .success($0) }
    }
}

extension Option where Value: RawRepresentable & CaseIterable & SendableMetatype, Value.RawValue == String {
    /// An option whose value is one of an enum's cases, by name; any other is refused naming them.
    init(_ name: String, value valueName: String, help: String, cases: Value.Type = Value.self) {
        let names = Value.allCases.map(\.rawValue)
        self.init(name, value: valueName, help: help, choices: names) { text in
            // Exactly, else in letters of any case.
            guard let value = Value(rawValue: text) ?? Value.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                return .failure(UsageText("--\(name) takes \(names.joined(separator: ", ")), not '\(text)'\(Suggestion.hint(for: text, among: names))"))
            }
            return .success(value)
        }
    }
}

/// The text of a usage error, before the command it concerns is known.
struct UsageText: Error, Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

/// A mistake on the command line: printed with a pointer to the help, exit code 2.
struct UsageError: Error {
    let message: String
    let command: String?
}
