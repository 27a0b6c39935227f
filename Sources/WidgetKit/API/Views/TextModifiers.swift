public import Foundation
import WidgetWire

extension View {
    /// Sets the font of text in this view.
    public func font(_ font: Font?) -> some View { wire("font", font?.json ?? .null) }

    /// Sets the weight of text in this view.
    public func fontWeight(_ weight: Font.Weight?) -> some View { wire("fontWeight", weight.map { .string($0.rawValue) } ?? .null) }

    /// Sets the design of text in this view (monospaced text is drawn so where it can be).
    public func fontDesign(_ design: Font.Design?) -> some View { wire("fontDesign", design.map { .string($0.rawValue) } ?? .null) }

    public func fontWidth(_ width: Font.Width?) -> some View { wire("fontWidth", width.map { .number($0.value) } ?? .null) }

    /// Makes text in this view bold.
    public func bold(_ isActive: Bool = true) -> some View { wire("bold", .bool(isActive)) }

    public func italic(_ isActive: Bool = true) -> some View { wire("italic", .bool(isActive)) }

    public func monospaced(_ isActive: Bool = true) -> some View { wire("monospaced", .bool(isActive)) }

    public func monospacedDigit() -> some View { wire("monospacedDigit") }

    public func underline(_ isActive: Bool = true, color: Color? = nil) -> some View { wire("underline", .bool(isActive)) }

    public func strikethrough(_ isActive: Bool = true, color: Color? = nil) -> some View { wire("strikethrough", .bool(isActive)) }

    /// The most lines text in this view may take; it truncates with "…" beyond. Nil: no limit.
    public func lineLimit(_ number: Int?) -> some View { wire("lineLimit", number.map { .number(Double($0)) } ?? .null) }

    /// The most lines, and whether the text keeps their room when it takes fewer.
    public func lineLimit(_ limit: Int, reservesSpace: Bool) -> some View {
        wire("lineLimit", .number(Double(limit)))
    }

    /// Bounds on the lines text in this view takes.
    public func lineLimit(_ limit: ClosedRange<Int>) -> some View { wire("lineLimit", .number(Double(limit.upperBound))) }
    public func lineLimit(_ limit: PartialRangeThrough<Int>) -> some View { wire("lineLimit", .number(Double(limit.upperBound))) }
    public func lineLimit(_ limit: PartialRangeFrom<Int>) -> some View { unchanged }

    /// How the lines of wrapped text line up with each other.
    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { wire("multilineTextAlignment", .string(alignment.rawValue)) }

    /// How small text may shrink to fit before it is truncated: 0.5 lets it halve.
    public func minimumScaleFactor(_ factor: CGFloat) -> some View { wire("minimumScaleFactor", .number(Double(factor))) }

    /// Where truncated text loses its characters: the end (`.tail`), the start or the middle.
    public func truncationMode(_ mode: Text.TruncationMode) -> some View { wire("truncationMode", .string(mode.rawValue)) }

    /// Shows text in this view in upper or lower case.
    public func textCase(_ textCase: Text.Case?) -> some View { wire("textCase", textCase.map { .string($0.rawValue) } ?? .null) }

    /// Whether a line too long may set its characters closer before it is cut.
    public func allowsTightening(_ flag: Bool) -> some View { wire("allowsTightening", .bool(flag)) }
    public func lineSpacing(_ lineSpacing: CGFloat) -> some View { unchanged }
    /// Space added after each character, in points, beside what the system's font sets.
    public func kerning(_ kerning: CGFloat) -> some View { wire("tracking", .number(Double(kerning))) }
    public func tracking(_ tracking: CGFloat) -> some View { wire("tracking", .number(Double(tracking))) }
    public func baselineOffset(_ baselineOffset: CGFloat) -> some View { unchanged }
    public func dynamicTypeSize(_ size: DynamicTypeSize) -> some View { unchanged }
    public func dynamicTypeSize<T: RangeExpression>(_ range: T) -> some View where T.Bound == DynamicTypeSize { unchanged }
    public func flipsForRightToLeftLayoutDirection(_ enabled: Bool) -> some View { unchanged }
    public func textSelection<S: TextSelectability>(_ selectability: S) -> some View { unchanged }
}

/// How the lines of multiline text line up.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    case leading, center, trailing
}

/// The Dynamic Type sizes; widgets here are drawn at `.large`, the default.
public enum DynamicTypeSize: Int, Hashable, Comparable, CaseIterable, Sendable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var isAccessibilitySize: Bool { self >= .accessibility1 }
}

/// The older name of the Dynamic Type sizes (`@Environment(\.sizeCategory)`).
public enum ContentSizeCategory: Hashable, Comparable, CaseIterable, Sendable {
    case extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge
    case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge, accessibilityExtraExtraLarge, accessibilityExtraExtraExtraLarge
    public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }
}

/// Whether a person may select text (`.textSelection(.enabled)`); a widget's text is not selectable.
public protocol TextSelectability: Sendable {}
public struct EnabledTextSelectability: TextSelectability {}
public struct DisabledTextSelectability: TextSelectability {}
extension TextSelectability where Self == EnabledTextSelectability {
    public static var enabled: EnabledTextSelectability { EnabledTextSelectability() }
}
extension TextSelectability where Self == DisabledTextSelectability {
    public static var disabled: DisabledTextSelectability { DisabledTextSelectability() }
}
