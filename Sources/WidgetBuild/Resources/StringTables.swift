import FoundationEssentials
import WidgetWire

/// A bundle's string tables, by localization and table: what `<localization>.lproj/<table>.strings`
/// and `.stringsdict` will hold. Filled from string catalogs (`.xcstrings`, compiled as Xcode
/// compiles them) and from `.strings`/`.stringsdict` files (any property list format; written
/// out as XML).
public struct StringTables: Sendable {
    public struct Table: Sendable, Equatable {
        public var strings: [String: String] = [:]
        /// Plural entries, in `.stringsdict`'s form.
        public var plurals: [String: PlistValue] = [:]
    }

    /// By localization, then by table name.
    public var tables: [String: [String: Table]] = [:]

    public init() {}

    subscript(localization: String, table: String) -> Table {
        get { tables[localization]?[table] ?? Table() }
        set { tables[localization, default: [:]][table] = newValue }
    }

    /// Adds a `.strings` or `.stringsdict` file of an `.lproj` folder.
    public mutating func add(file path: String, localization: String) throws(BuildError) {
        let name = path.pathFileName.pathWithoutExtension
        let isPlurals = path.hasSuffix(".stringsdict")
        let value: PlistValue
        do {
            value = try PlistValue.read(contentsOf: path)
        } catch {
            throw BuildError(error.description)
        }
        guard let members = value.dictionary else { throw BuildError("\(path): error: not a table of strings (its top level is not a dictionary)") }
        for (key, item) in members {
            if isPlurals {
                guard item.dictionary != nil else { throw BuildError("\(path): error: the entry \"\(key)\" is not a dictionary") }
                self[localization, name].plurals[key] = item
            } else {
                guard let text = item.string else { throw BuildError("\(path): error: the value of \"\(key)\" is not a string") }
                self[localization, name].strings[key] = text
            }
        }
    }

    /// Adds a string catalog: each key's value in each localization, its plural variations as a
    /// `.stringsdict` entry, the iPhone's device variation where a key has several.
    public mutating func add(catalog path: String) throws(BuildError) {
        let table = path.pathFileName.pathWithoutExtension
        guard let data = FileManager.default.contents(atPath: path) else { throw BuildError("\(path): error: cannot read") }
        let root: JSONValue
        do {
            root = try JSONValue.parse([UInt8](data))
        } catch {
            throw BuildError("\(path): error: not valid JSON: \(error)")
        }
        guard let strings = root["strings"]?.objectValue else {
            throw BuildError("\(path): error: not a string catalog (it has no \"strings\" object)")
        }
        for (key, entry) in strings.members {
            guard entry["shouldTranslate"]?.boolValue != false || entry["localizations"] != nil else { continue }
            for (localization, unit) in entry["localizations"]?.objectValue?.members ?? [] {
                let place = "\(path): the string \"\(key)\" in \(localization)"
                do {
                    try add(key: key, unit: unit, localization: localization, table: table)
                } catch {
                    throw BuildError("\(place): error: \(error.description)")
                }
            }
        }
    }

    private mutating func add(key: String, unit: JSONValue, localization: String, table: String) throws(BuildError) {
        let chosen = Self.device(unit)
        if let plural = chosen["variations"]?["plural"] {
            let forms = try Self.forms(plural, argument: nil)
            // The argument the plural is chosen by: the first number the forms take.
            let other = forms["other"] ?? forms.values.first ?? ""
            let position = Self.firstNumericPosition(other) ?? 1
            var rule: [String: PlistValue] = [
                "NSStringFormatSpecTypeKey": .string("NSStringPluralRuleType"), "NSStringFormatValueTypeKey": .string("lld"),
            ]
            for (category, form) in forms { rule[category] = .string(Self.positional(form)) }
            self[localization, table].plurals[key] = .dictionary([
                "NSStringLocalizedFormatKey": .string("%\(position)$#@plural@"), "plural": .dictionary(rule),
            ])
            return
        }
        guard let value = chosen["stringUnit"]?["value"]?.stringValue else { return }
        guard let substitutions = chosen["substitutions"]?.objectValue, !substitutions.members.isEmpty else {
            self[localization, table].strings[key] = value
            return
        }
        var entry: [String: PlistValue] = [:]
        var format = value
        for (name, substitution) in substitutions.members {
            let argument = substitution["argNum"]?.numberValue.map { Int($0) } ?? 1
            let specifier = substitution["formatSpecifier"]?.stringValue ?? "lld"
            guard let plural = Self.device(substitution)["variations"]?["plural"] else {
                throw BuildError("the substitution \"\(name)\" has no plural variations")
            }
            var rule: [String: PlistValue] = [
                "NSStringFormatSpecTypeKey": .string("NSStringPluralRuleType"), "NSStringFormatValueTypeKey": .string(specifier),
            ]
            for (category, form) in try Self.forms(plural, argument: (argument, specifier)) { rule[category] = .string(form) }
            entry[name] = .dictionary(rule)
            format = format.replacing("%#@\(name)@", with: "%\(argument)$#@\(name)@")
        }
        entry["NSStringLocalizedFormatKey"] = .string(Self.positional(format, skippingVariables: true))
        self[localization, table].plurals[key] = .dictionary(entry)
    }

    /// The iPhone's variation of a unit varied by device, else its "other"; the unit itself otherwise.
    static func device(_ unit: JSONValue) -> JSONValue {
        guard let devices = unit["variations"]?["device"] else { return unit }
        return devices["iphone"] ?? devices["other"] ?? devices.objectValue?.members.first?.value ?? unit
    }

    /// Plural forms by category; in a substitution's forms, `%arg` is its argument.
    static func forms(_ plural: JSONValue, argument: (Int, String)?) throws(BuildError) -> [String: String] {
        var forms: [String: String] = [:]
        for (category, form) in plural.objectValue?.members ?? [] {
            guard ["zero", "one", "two", "few", "many", "other"].contains(category) else {
                throw BuildError("\"\(category)\" is not a plural category (zero, one, two, few, many, other)")
            }
            guard var value = device(form)["stringUnit"]?["value"]?.stringValue else { continue }
            if let (position, specifier) = argument { value = value.replacing("%arg", with: "%\(position)$\(specifier)") }
            forms[category] = value
        }
        guard !forms.isEmpty else { throw BuildError("its plural variations hold no values") }
        return forms
    }

    /// The conversions of a format (`%@`, `%lld`...), as they are written in it.
    static func conversions(_ format: String) -> [(position: Int?, type: Character, range: Range<String.Index>)] {
        var found: [(Int?, Character, Range<String.Index>)] = []
        var index = format.startIndex
        while index < format.endIndex {
            guard format[index] == "%" else {
                index = format.index(after: index)
                continue
            }
            let start = index
            var cursor = format.index(after: index)
            if cursor < format.endIndex, format[cursor] == "%" {
                index = format.index(after: cursor)
                continue
            }
            var digits = ""
            while cursor < format.endIndex, format[cursor].isASCII, format[cursor].isNumber {
                digits.append(format[cursor])
                cursor = format.index(after: cursor)
            }
            var position: Int?
            if !digits.isEmpty, cursor < format.endIndex, format[cursor] == "$" {
                position = Int(digits)
                cursor = format.index(after: cursor)
            } else {
                cursor = format.index(start, offsetBy: 1)
            }
            if format[cursor...].hasPrefix("#@"), let end = format[format.index(cursor, offsetBy: 2)...].firstIndex(of: "@") {
                found.append((position, "#", start..<format.index(after: end)))
                index = format.index(after: end)
                continue
            }
            while cursor < format.endIndex, "-+ #0'.123456789hlqLzjt".contains(format[cursor]) { cursor = format.index(after: cursor) }
            guard cursor < format.endIndex else { break }
            let type = format[cursor]
            index = format.index(after: cursor)
            if "@dDiuUoOxXfFeEgGaAcCsSp".contains(type) { found.append((position, type, start..<index)) }
        }
        return found
    }

    /// The 1-based position of the first numeric conversion of a format.
    static func firstNumericPosition(_ format: String) -> Int? {
        var next = 1
        for conversion in conversions(format) {
            let position = conversion.position ?? next
            next = position + 1
            if "dDiuUoOxXfFeEgGaA".contains(conversion.type) { return position }
        }
        return nil
    }

    /// A format with every conversion numbered (`%@ has %lld` is `%1$@ has %2$lld`), so that a plural
    /// form takes the arguments it names, whichever argument chose it.
    static func positional(_ format: String, skippingVariables: Bool = false) -> String {
        var out = ""
        var last = format.startIndex
        var next = 1
        for conversion in conversions(format) {
            out += format[last..<conversion.range.lowerBound]
            let text = String(format[conversion.range])
            if let position = conversion.position {
                out += text
                next = position + 1
            } else if conversion.type == "#" && skippingVariables {
                out += text
                next += 1
            } else {
                out += "%\(next)$" + text.dropFirst()
                next += 1
            }
            last = conversion.range.upperBound
        }
        return out + format[last...]
    }

    /// Writes every table into `directory` (the bundle being made), as XML property lists.
    public func write(into directory: String, writer: (String, Data) throws(BuildError) -> Void) throws(BuildError) {
        for (localization, byTable) in tables {
            for (name, table) in byTable {
                let folder = "\(localization).lproj"
                if !table.strings.isEmpty {
                    try writer("\(folder)/\(name).strings", PlistValue.dictionary(table.strings.mapValues { .string($0) }).xmlData())
                }
                if !table.plurals.isEmpty {
                    try writer("\(folder)/\(name).stringsdict", PlistValue.dictionary(table.plurals).xmlData())
                }
            }
        }
    }
}
