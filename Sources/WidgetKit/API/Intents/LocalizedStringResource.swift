public import Foundation

/// A string the system shows a person, looked up in the bundle's string tables in the user's
/// language when it is shown (Apple's type lives in Foundation; Linux's Foundation lacks it). An
/// interpolated literal is a format, its key written with a specifier for each value
/// (`"\(count) items"` is the key `"%lld items"`), as Xcode extracts it.
public struct LocalizedStringResource: ExpressibleByStringInterpolation, Sendable, Equatable, CustomStringConvertible {
    /// The key in the string table.
    public let key: String
    /// The table (`Localizable` when nil).
    public let table: String?
    let arguments: [LocalizedArgument]
    let isFormat: Bool
    /// The text where no table has the key, as a format of the same arguments; the key when nil.
    let fallback: String?

    public init(stringLiteral value: String) {
        key = value
        table = nil
        arguments = []
        isFormat = false
        fallback = nil
    }

    public init(stringInterpolation: StringInterpolation) {
        key = stringInterpolation.key
        table = nil
        arguments = stringInterpolation.arguments
        isFormat = true
        fallback = nil
    }

    /// A resource of a runtime string (not a key Xcode would extract: shown as given unless a table has it).
    public init(_ key: String) { self.init(stringLiteral: key) }

    init(key: String, table: String?, arguments: [LocalizedArgument], isFormat: Bool, fallback: String?) {
        self.key = key
        self.table = table
        self.arguments = arguments
        self.isFormat = isFormat
        self.fallback = fallback
    }

    /// A resource whose key and text are one value: `LocalizedStringResource("Hello \(name)", table: "Main")`.
    public init(_ keyAndValue: String.LocalizationValue, table: String? = nil, locale: Locale = .current, comment: StaticString? = nil) {
        self.init(key: keyAndValue.key, table: table, arguments: keyAndValue.arguments, isFormat: keyAndValue.isFormat, fallback: nil)
    }

    /// A resource with a key and the text shown where no table has the key.
    public init(_ key: StaticString, defaultValue: String.LocalizationValue, table: String? = nil, locale: Locale = .current, comment: StaticString? = nil) {
        self.init(key: "\(key)", table: table, arguments: defaultValue.arguments, isFormat: defaultValue.isFormat, fallback: defaultValue.key)
    }

    /// The text where no table has the key.
    public var defaultValue: String.LocalizationValue {
        LocalizedStringResource(key: fallback ?? key, table: nil, arguments: arguments, isFormat: isFormat, fallback: nil)
    }

    /// The text in the user's language, its arguments placed.
    var segments: [Text.Segment] {
        Localization.segments(key: key, arguments: arguments, isFormat: isFormat, table: table, fallback: fallback)
    }

    /// The text in the user's language, as it reads now.
    var text: String { segments.map(\.fallback).joined() }

    public var description: String { text }

    /// Two resources are equal when they show the same text (`"\(name)"` and `"Faro"` for "Faro").
    public static func == (lhs: LocalizedStringResource, rhs: LocalizedStringResource) -> Bool { lhs.text == rhs.text }

    /// Interpolations as Foundation's `String.LocalizationValue` writes them into a key.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var key = ""
        var arguments: [LocalizedArgument] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func add(_ specifier: String, _ argument: LocalizedArgument) {
            key += specifier
            arguments.append(argument)
        }

        public mutating func appendLiteral(_ literal: String) { key += literal.replacingOccurrences(of: "%", with: "%%") }
        public mutating func appendInterpolation(_ string: String) { add("%@", .text(string)) }
        public mutating func appendInterpolation<S: StringProtocol>(_ string: S) { add("%@", .text(String(string))) }
        public mutating func appendInterpolation(_ value: Int) { add("%lld", .integer(Int64(value))) }
        public mutating func appendInterpolation<T: BinaryInteger>(_ value: T) {
            if T.isSigned { add("%lld", .integer(Int64(clamping: value))) } else { add("%llu", .unsigned(UInt64(clamping: value))) }
        }
        public mutating func appendInterpolation(_ value: Double) { add("%lf", .double(value)) }
        public mutating func appendInterpolation(_ value: Float) { add("%f", .double(Double(value))) }
        public mutating func appendInterpolation<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatOutput == String {
            add("%@", .text(format.format(input)))
        }
        public mutating func appendInterpolation(_ resource: LocalizedStringResource) { add("%@", .text(resource.text)) }
        /// Anything else, as `String(describing:)` writes it.
        @_disfavoredOverload
        public mutating func appendInterpolation<T>(_ value: T) { add("%@", .text(String(describing: value))) }
    }
}

extension String {
    /// Apple's type of a localizable text with interpolations (Linux's Foundation lacks it).
    public typealias LocalizationValue = LocalizedStringResource

    /// A localized string: `key` (a literal, or a format of its interpolations) looked up in the
    /// bundle's table `table` (`Localizable`) in the user's language, else the text as written.
    public init(
        localized keyAndValue: LocalizedStringResource, table: String? = nil, bundle: Bundle? = nil, locale: Locale = .current,
        comment: StaticString? = nil
    ) {
        self = Localization.string(key: keyAndValue.key, arguments: keyAndValue.arguments, isFormat: keyAndValue.isFormat, table: table ?? keyAndValue.table)
    }

    /// A localized string with a key of its own and the text shown where no table has the key.
    public init(
        localized key: StaticString, defaultValue: LocalizationValue, table: String? = nil, bundle: Bundle? = nil,
        locale: Locale = .current, comment: StaticString? = nil
    ) {
        self = Localization.string(
            key: "\(key)", arguments: defaultValue.arguments, isFormat: defaultValue.isFormat, table: table, fallback: defaultValue.key)
    }

    /// A resource's text in the user's language.
    public init(localized resource: LocalizedStringResource) { self = resource.text }
}

// Foundation's `NSLocalizedString`, answered from the bundle's own string tables in the user's
// language (Linux's Foundation would look in the host's): `value`, or the key, where no table has it.
// A file importing Foundation sees Foundation's too, and two functions of one signature in two
// modules are ambiguous to Swift (neither shadows the other). So the SDK's is one function per
// way of calling it, with no defaults: Swift prefers the one that needs none, so every call finds
// the SDK's, except one naming all five arguments with a table that may be nil, which Foundation
// answers (with `value`).

public func NSLocalizedString(_ key: String, comment: String) -> String { localized(key, nil, "") }
public func NSLocalizedString(_ key: String, tableName: String?, comment: String) -> String { localized(key, tableName, "") }
public func NSLocalizedString(_ key: String, bundle: Bundle, comment: String) -> String { localized(key, nil, "") }
public func NSLocalizedString(_ key: String, value: String, comment: String) -> String { localized(key, nil, value) }
public func NSLocalizedString(_ key: String, tableName: String?, bundle: Bundle, comment: String) -> String { localized(key, tableName, "") }
public func NSLocalizedString(_ key: String, tableName: String?, value: String, comment: String) -> String { localized(key, tableName, value) }
public func NSLocalizedString(_ key: String, bundle: Bundle, value: String, comment: String) -> String { localized(key, nil, value) }
public func NSLocalizedString(_ key: String, tableName: String, bundle: Bundle, value: String, comment: String) -> String {
    localized(key, tableName, value)
}

private func localized(_ key: String, _ table: String?, _ value: String) -> String {
    Localization.string(key: key, arguments: [], isFormat: false, table: table, fallback: value.isEmpty ? nil : value)
}
