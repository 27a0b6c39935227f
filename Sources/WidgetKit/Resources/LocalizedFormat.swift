import Foundation

/// A value interpolated into a localized string, kept as the type its specifier says, so that a
/// translation can place it, format it its own way, or choose a plural form by it.
enum LocalizedArgument: Sendable, Equatable {
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case text(String)
    /// What the host formats as it draws (a self-updating date, a symbol, a Text's parts).
    case segments([Text.Segment])

    /// A value given with a printf specifier (`\(x, specifier: "%.1f")`), kept by its type.
    init(specified value: Any) {
        switch value {
        case let value as Int: self = .integer(Int64(value))
        case let value as Int64: self = .integer(value)
        case let value as Int32: self = .integer(Int64(value))
        case let value as Int16: self = .integer(Int64(value))
        case let value as Int8: self = .integer(Int64(value))
        case let value as UInt: self = .unsigned(UInt64(value))
        case let value as UInt64: self = .unsigned(value)
        case let value as UInt32: self = .unsigned(UInt64(value))
        case let value as UInt16: self = .unsigned(UInt64(value))
        case let value as UInt8: self = .unsigned(UInt64(value))
        case let value as Double: self = .double(value)
        case let value as Float: self = .double(Double(value))
        case let value as CGFloat: self = .double(Double(value))
        case let value as String: self = .text(value)
        default: self = .text(String(describing: value))
        }
    }

    /// Its value as a number, for a plural form; nil for text.
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .double(let value): value
        case .text(let text): Double(text)
        case .segments: nil
        }
    }
}

/// The variables of a stringsdict entry (`%#@items@`): for each, its plural forms by category.
typealias PluralVariables = [String: [String: String]]

/// Formats a localized string as Foundation's `String(format:)` and `.stringsdict` do: `%@`, the
/// integer and floating-point conversions with their flags, width, precision and length, positions
/// (`%2$@`), `%%`, and plural variables (`%#@items@`), whose chosen form takes the variable's
/// argument for its own conversions.
enum LocalizedFormat {
    /// A conversion of a format string.
    struct Conversion: Equatable {
        var position: Int?
        var flags = ""
        var width = ""
        var precision: String?
        var type: Character = "@"
        /// As written, for when it has no argument.
        var text = ""
    }

    enum Token: Equatable {
        case literal(String)
        case conversion(Conversion)
        case variable(name: String, position: Int?)
    }

    static func tokens(_ format: String) -> [Token] {
        var tokens: [Token] = []
        var literal = ""
        var index = format.startIndex
        func flush() {
            if !literal.isEmpty { tokens.append(.literal(literal)) }
            literal = ""
        }
        while index < format.endIndex {
            let character = format[index]
            guard character == "%" else {
                literal.append(character)
                index = format.index(after: index)
                continue
            }
            let start = index
            var cursor = format.index(after: index)
            guard cursor < format.endIndex else {
                literal.append("%")
                break
            }
            if format[cursor] == "%" {
                literal.append("%")
                index = format.index(after: cursor)
                continue
            }
            var position: Int?
            var digits = ""
            var scan = cursor
            while scan < format.endIndex, format[scan].isASCII, format[scan].isNumber {
                digits.append(format[scan])
                scan = format.index(after: scan)
            }
            if !digits.isEmpty, scan < format.endIndex, format[scan] == "$" {
                position = Int(digits)
                cursor = format.index(after: scan)
            }
            // A plural variable: %#@name@.
            if format[cursor...].hasPrefix("#@"), let end = format[format.index(cursor, offsetBy: 2)...].firstIndex(of: "@") {
                flush()
                tokens.append(.variable(name: String(format[format.index(cursor, offsetBy: 2)..<end]), position: position))
                index = format.index(after: end)
                continue
            }
            var conversion = Conversion(position: position)
            while cursor < format.endIndex, "-+ #0'".contains(format[cursor]) {
                conversion.flags.append(format[cursor])
                cursor = format.index(after: cursor)
            }
            while cursor < format.endIndex, format[cursor].isASCII, format[cursor].isNumber {
                conversion.width.append(format[cursor])
                cursor = format.index(after: cursor)
            }
            if cursor < format.endIndex, format[cursor] == "." {
                var precision = ""
                cursor = format.index(after: cursor)
                while cursor < format.endIndex, format[cursor].isASCII, format[cursor].isNumber {
                    precision.append(format[cursor])
                    cursor = format.index(after: cursor)
                }
                conversion.precision = precision
            }
            while cursor < format.endIndex, "hlqLzjt".contains(format[cursor]) { cursor = format.index(after: cursor) }
            guard cursor < format.endIndex, "@dDiuUoOxXfFeEgGaAcCsSp".contains(format[cursor]) else {
                // Not a conversion: kept as written.
                literal += String(format[start..<cursor])
                index = cursor
                continue
            }
            conversion.type = format[cursor]
            index = format.index(after: cursor)
            conversion.text = String(format[start..<index])
            flush()
            tokens.append(.conversion(conversion))
        }
        flush()
        return tokens
    }

    /// `format` with its arguments placed; `variables` are a stringsdict entry's, chosen among by
    /// `language`'s plural rules.
    static func format(_ format: String, _ arguments: [LocalizedArgument], variables: PluralVariables = [:], language: String = "en") -> [Text.Segment] {
        var out: [Text.Segment] = []
        render(format, arguments, variables: variables, language: language, first: 0, depth: 0, into: &out)
        return out
    }

    /// The text alone (self-updating parts as they read now).
    static func string(_ format: String, _ arguments: [LocalizedArgument], variables: PluralVariables = [:], language: String = "en") -> String {
        self.format(format, arguments, variables: variables, language: language).map(\.fallback).joined()
    }

    private static func render(
        _ format: String, _ arguments: [LocalizedArgument], variables: PluralVariables, language: String, first: Int, depth: Int,
        into out: inout [Text.Segment]
    ) {
        var next = first
        for token in tokens(format) {
            switch token {
            case .literal(let text): append(.literal(text), to: &out)
            case .conversion(let conversion):
                let index = conversion.position.map { $0 - 1 } ?? next
                next = max(next, index) + 1
                let argument = arguments.indices.contains(index) ? arguments[index] : nil
                for segment in formatted(conversion, argument) { append(segment, to: &out) }
            case .variable(let name, let position):
                let index = position.map { $0 - 1 } ?? next
                next = max(next, index) + 1
                let value = arguments.indices.contains(index) ? arguments[index].number ?? 0 : 0
                guard depth < 4, let forms = variables[name], let form = PluralRules.form(for: value, language: language, among: forms) else {
                    append(.literal("%#@\(name)@"), to: &out)
                    continue
                }
                // The form's own conversions take the variable's argument.
                render(form, arguments, variables: variables, language: language, first: index, depth: depth + 1, into: &out)
            }
        }
    }

    private static func append(_ segment: Text.Segment, to out: inout [Text.Segment]) {
        if case .literal(let text) = segment, case .literal(let previous)? = out.last {
            out[out.count - 1] = .literal(previous + text)
        } else if case .literal(let text) = segment, text.isEmpty {
            return
        } else {
            out.append(segment)
        }
    }

    /// One conversion of one argument, as `String(format:)` writes it; as written when the
    /// argument is missing.
    static func formatted(_ conversion: Conversion, _ argument: LocalizedArgument?) -> [Text.Segment] {
        guard let argument else { return [.literal(conversion.text)] }
        let spec = "%" + conversion.flags + conversion.width + (conversion.precision.map { "." + $0 } ?? "")
        switch conversion.type {
        case "@", "s", "S":
            switch argument {
            case .segments(let segments): return segments
            case .text(let text): return [.literal(text)]
            case .integer(let value): return [.literal(String(value))]
            case .unsigned(let value): return [.literal(String(value))]
            case .double(let value): return [.literal(String(value))]
            }
        case "d", "D", "i":
            return [.literal(String(format: spec + "lld", integer(argument)))]
        case "u", "U", "o", "O", "x", "X":
            let type = conversion.type == "U" ? "u" : conversion.type == "O" ? "o" : String(conversion.type)
            return [.literal(String(format: spec + "ll" + type, UInt64(bitPattern: integer(argument))))]
        case "c", "C":
            let code = integer(argument)
            return [.literal(UnicodeScalar(UInt32(truncatingIfNeeded: code)).map { String(Character($0)) } ?? "")]
        case "p":
            return [.literal(String(format: "0x%llx", integer(argument)))]
        default:
            return [.literal(String(format: spec + String(conversion.type), double(argument)))]
        }
    }

    private static func integer(_ argument: LocalizedArgument) -> Int64 {
        switch argument {
        case .integer(let value): value
        case .unsigned(let value): Int64(bitPattern: value)
        case .double(let value): value.isFinite ? Int64(clamping: Int(exactly: value.rounded(.towardZero)) ?? 0) : 0
        case .text(let text): Int64(text) ?? 0
        case .segments: 0
        }
    }

    private static func double(_ argument: LocalizedArgument) -> Double {
        switch argument {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .double(let value): value
        case .text(let text): Double(text) ?? 0
        case .segments: 0
        }
    }
}
