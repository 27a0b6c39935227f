public import Foundation

/// A string the system shows a person (Apple's type lives in Foundation; Linux's Foundation lacks it).
public struct LocalizedStringResource: ExpressibleByStringInterpolation, Sendable, Equatable, CustomStringConvertible {
    public let key: String

    public init(stringLiteral value: String) { key = value }
    public init(_ key: String) { self.key = key }

    /// A resource with a key and the text shown where no table has the key (here: always).
    public init(_ key: StaticString, defaultValue: String.LocalizationValue, table: String? = nil, locale: Locale = .current, comment: StaticString? = nil) {
        self.key = defaultValue.key
    }

    public var description: String { key }
}

extension String {
    /// Apple's type of a localizable text with interpolations (Linux's Foundation lacks it).
    public typealias LocalizationValue = LocalizedStringResource

    /// A localized string. A bundle here carries no string tables, so the text is the key as
    /// written, interpolations filled in (docs/PORTING.md).
    public init(
        localized keyAndValue: LocalizedStringResource, table: String? = nil, bundle: Bundle? = nil, locale: Locale = .current,
        comment: StaticString? = nil
    ) {
        self = keyAndValue.key
    }

    /// A localized string with a key of its own and the text shown where no table has the key.
    public init(
        localized key: StaticString, defaultValue: LocalizationValue, table: String? = nil, bundle: Bundle? = nil,
        locale: Locale = .current, comment: StaticString? = nil
    ) {
        self = defaultValue.key
    }
}
