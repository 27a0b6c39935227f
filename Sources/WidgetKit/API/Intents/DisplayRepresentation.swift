public import Foundation
import WidgetWire

/// What an intent does, shown under its title.
public struct IntentDescription: ExpressibleByStringInterpolation, Sendable {
    public let descriptionText: LocalizedStringResource
    /// False only for the stand-in of a form of `description` the intent did not declare.
    let isDeclared: Bool

    public init(stringLiteral value: String) { self.init(LocalizedStringResource(value)) }
    public init(_ descriptionText: LocalizedStringResource) {
        self.descriptionText = descriptionText
        isDeclared = true
    }
    init(_undeclared: Void) {
        descriptionText = LocalizedStringResource("")
        isDeclared = false
    }
    public init(
        _ descriptionText: LocalizedStringResource, categoryName: LocalizedStringResource? = nil, searchKeywords: [LocalizedStringResource] = [],
        resultValueName: LocalizedStringResource? = nil
    ) {
        self.init(descriptionText)
    }
}

/// How a value displays: a title and, optionally, a subtitle and an image.
public struct DisplayRepresentation: ExpressibleByStringInterpolation, Sendable {
    public var title: LocalizedStringResource
    public var subtitle: LocalizedStringResource?
    public var image: Image?

    public init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: Image? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }

    public init(stringLiteral value: String) { self.init(title: LocalizedStringResource(value)) }

    /// The image shown beside a value: a system symbol, or a named one.
    public struct Image: Sendable {
        public let name: String
        public init(systemName: String, isTemplate: Bool = true) { name = systemName }
        public init(named name: String, isTemplate: Bool = false) { self.name = name }
        public init(url: URL, isTemplate: Bool = false) { name = url.absoluteString }
        public init(data: Data, isTemplate: Bool = false) { name = "data" }
    }
}

/// How a type's name displays ("Character", "Coin").
public struct TypeDisplayRepresentation: ExpressibleByStringInterpolation, Sendable {
    public var name: LocalizedStringResource

    public init(name: LocalizedStringResource) { self.name = name }
    public init(stringLiteral value: String) { name = LocalizedStringResource(value) }
}

public protocol TypeDisplayRepresentable: SendableMetatype {
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
}
