public import Foundation
import WidgetWire

/// A font: a text style (`.title`, `.headline`...) or a system font of a size, with a weight, design
/// and width. On the wire a text style is its name; anything more is an object.
public struct Font: Equatable, Hashable, Sendable {
    let json: JSONValue

    init(json: JSONValue) { self.json = json }

    public static func == (lhs: Font, rhs: Font) -> Bool { lhs.json == rhs.json }
    public func hash(into hasher: inout Hasher) { hasher.combine(json.jsonText) }

    public static let largeTitle = Font(style: .largeTitle)
    public static let title = Font(style: .title)
    public static let title2 = Font(style: .title2)
    public static let title3 = Font(style: .title3)
    public static let headline = Font(style: .headline)
    public static let subheadline = Font(style: .subheadline)
    public static let body = Font(style: .body)
    public static let callout = Font(style: .callout)
    public static let footnote = Font(style: .footnote)
    public static let caption = Font(style: .caption)
    public static let caption2 = Font(style: .caption2)
    /// iOS 17's extra-large title styles.
    public static let extraLargeTitle = Font(style: .extraLargeTitle)
    public static let extraLargeTitle2 = Font(style: .extraLargeTitle2)

    init(style: TextStyle) { json = .string(style.rawValue) }

    /// A system font of a fixed size.
    public static func system(size: CGFloat, weight: Weight? = nil, design: Design? = nil) -> Font {
        var object = JSONObject([("size", .number(Double(size)))])
        if let weight { object["weight"] = .string(weight.rawValue) }
        if let design { object["design"] = .string(design.rawValue) }
        return Font(json: .object(object))
    }

    /// A system font of a fixed size (the iOS 13 spelling).
    public static func system(size: CGFloat, weight: Weight = .regular) -> Font { system(size: size, weight: weight, design: nil) }

    /// A text style's system font, with a design and a weight.
    public static func system(_ style: TextStyle, design: Design? = nil, weight: Weight? = nil) -> Font {
        guard design != nil || weight != nil else { return Font(style: style) }
        var object = JSONObject([("style", .string(style.rawValue))])
        if let weight { object["weight"] = .string(weight.rawValue) }
        if let design { object["design"] = .string(design.rawValue) }
        return Font(json: .object(object))
    }

    /// A text style's system font with a design (the iOS 14 spelling).
    public static func system(_ style: TextStyle, design: Design) -> Font { system(style, design: design, weight: nil) }

    /// A font by name: Linux draws it in the system font, at its size.
    public static func custom(_ name: String, size: CGFloat) -> Font { system(size: size) }
    public static func custom(_ name: String, size: CGFloat, relativeTo textStyle: TextStyle) -> Font { system(size: size) }
    public static func custom(_ name: String, fixedSize: CGFloat) -> Font { system(size: fixedSize) }

    /// The same font with a member changed.
    func with(_ key: String, _ value: JSONValue) -> Font {
        var object: JSONObject
        switch json {
        case .object(let existing): object = existing
        case .string(let style): object = JSONObject([("style", .string(style))])
        default: object = JSONObject()
        }
        object[key] = value
        return Font(json: .object(object))
    }

    public func weight(_ weight: Weight) -> Font { with("weight", .string(weight.rawValue)) }
    public func bold() -> Font { weight(.bold) }
    public func italic() -> Font { with("italic", .bool(true)) }
    public func monospaced() -> Font { with("design", .string(Design.monospaced.rawValue)) }
    public func monospacedDigit() -> Font { with("monospacedDigit", .bool(true)) }
    public func smallCaps() -> Font { self }
    public func lowercaseSmallCaps() -> Font { self }
    public func uppercaseSmallCaps() -> Font { self }
    public func leading(_ leading: Leading) -> Font { self }
    public func width(_ width: Width) -> Font { with("width", .number(width.value)) }

    /// The text styles, at the default Dynamic Type size.
    public enum TextStyle: String, CaseIterable, Hashable, Sendable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
        case extraLargeTitle, extraLargeTitle2
    }

    public struct Weight: Equatable, Hashable, Sendable {
        let rawValue: String
        public static let ultraLight = Weight(rawValue: "ultraLight")
        public static let thin = Weight(rawValue: "thin")
        public static let light = Weight(rawValue: "light")
        public static let regular = Weight(rawValue: "regular")
        public static let medium = Weight(rawValue: "medium")
        public static let semibold = Weight(rawValue: "semibold")
        public static let bold = Weight(rawValue: "bold")
        public static let heavy = Weight(rawValue: "heavy")
        public static let black = Weight(rawValue: "black")
    }

    public enum Design: String, Hashable, Sendable {
        case `default`, serif, rounded, monospaced
    }

    public struct Width: Hashable, Sendable {
        public var value: CGFloat
        public init(_ value: CGFloat) { self.value = value }
        public static let compressed = Width(-0.3)
        public static let condensed = Width(-0.2)
        public static let standard = Width(0)
        public static let expanded = Width(0.2)
    }

    public enum Leading: Hashable, Sendable {
        case standard, tight, loose
    }
}
