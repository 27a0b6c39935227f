import Foundation

/// A string the system shows a person (Apple's type lives in Foundation; Linux's Foundation lacks it).
public struct LocalizedStringResource: ExpressibleByStringInterpolation, Sendable, Equatable, CustomStringConvertible {
    public let key: String

    public init(stringLiteral value: String) { key = value }
    public init(_ key: String) { self.key = key }
    public var description: String { key }
}

extension String {
    public init(localized resource: LocalizedStringResource) { self = resource.key }
}
