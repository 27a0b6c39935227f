public import Foundation
import WidgetWire

/// UIKit's font, as widget code makes one to hand to SwiftUI (`Font(UIFont.systemFont(ofSize: 14,
/// weight: .semibold))`) or to measure by: a system font of a size, weight and width, or a text
/// style's. Drawn in the system font, as `Font.custom` is.
public final class UIFont: Hashable, @unchecked Sendable {
    /// The SwiftUI font it draws as.
    let font: Font
    public let pointSize: CGFloat
    public let fontName: String

    init(font: Font, pointSize: CGFloat, name: String = ".SFUI-Regular") {
        self.font = font
        self.pointSize = pointSize
        fontName = name
    }

    public static func == (lhs: UIFont, rhs: UIFont) -> Bool { lhs.font == rhs.font && lhs.pointSize == rhs.pointSize }
    public func hash(into hasher: inout Hasher) { hasher.combine(font) }

    public convenience init?(name fontName: String, size fontSize: CGFloat) {
        self.init(font: .custom(fontName, size: fontSize), pointSize: fontSize, name: fontName)
    }

    public static func systemFont(ofSize fontSize: CGFloat) -> UIFont { systemFont(ofSize: fontSize, weight: .regular) }

    public static func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(font: .system(size: fontSize, weight: weight.font), pointSize: fontSize)
    }

    public static func systemFont(ofSize fontSize: CGFloat, weight: Weight, width: Width) -> UIFont {
        UIFont(font: Font.system(size: fontSize, weight: weight.font).width(Font.Width(width.rawValue)), pointSize: fontSize)
    }

    public static func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont { systemFont(ofSize: fontSize, weight: .bold) }
    public static func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(font: Font.system(size: fontSize).italic(), pointSize: fontSize) }

    public static func monospacedSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(font: .system(size: fontSize, weight: weight.font, design: .monospaced), pointSize: fontSize)
    }

    public static func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(font: Font.system(size: fontSize, weight: weight.font).monospacedDigit(), pointSize: fontSize)
    }

    /// A text style's font at the default Dynamic Type size, with its point size as iOS has it.
    public static func preferredFont(forTextStyle style: TextStyle) -> UIFont {
        UIFont(font: Font(style: style.swiftUI), pointSize: style.pointSize)
    }

    public func withSize(_ fontSize: CGFloat) -> UIFont { UIFont(font: font.with("size", .number(Double(fontSize))), pointSize: fontSize, name: fontName) }

    /// The metrics of the system font as iOS's (SF Pro: ascender 0.952 em, descender 0.241 em).
    public var ascender: CGFloat { pointSize * 0.952 }
    public var descender: CGFloat { -pointSize * 0.241 }
    public var lineHeight: CGFloat { ascender - descender }
    public var capHeight: CGFloat { pointSize * 0.705 }
    public var xHeight: CGFloat { pointSize * 0.517 }
    public var leading: CGFloat { 0 }

    public struct Weight: Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
        public static let ultraLight = Weight(-0.8)
        public static let thin = Weight(-0.6)
        public static let light = Weight(-0.4)
        public static let regular = Weight(0)
        public static let medium = Weight(0.23)
        public static let semibold = Weight(0.3)
        public static let bold = Weight(0.4)
        public static let heavy = Weight(0.56)
        public static let black = Weight(0.62)

        /// The SwiftUI weight nearest to it.
        var font: Font.Weight {
            let steps: [(CGFloat, Font.Weight)] = [
                (-0.8, .ultraLight), (-0.6, .thin), (-0.4, .light), (0, .regular), (0.23, .medium), (0.3, .semibold), (0.4, .bold), (0.56, .heavy),
                (0.62, .black),
            ]
            return steps.min { abs($0.0 - rawValue) < abs($1.0 - rawValue) }!.1
        }
    }

    public struct Width: Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
        // SwiftUI's widths, which they draw as.
        public static let compressed = Width(Font.Width.compressed.value)
        public static let condensed = Width(Font.Width.condensed.value)
        public static let standard = Width(Font.Width.standard.value)
        public static let expanded = Width(Font.Width.expanded.value)
    }

    public struct TextStyle: Hashable, Sendable {
        let swiftUI: Font.TextStyle
        let pointSize: CGFloat
        public static let largeTitle = TextStyle(swiftUI: .largeTitle, pointSize: 34)
        public static let title1 = TextStyle(swiftUI: .title, pointSize: 28)
        public static let title2 = TextStyle(swiftUI: .title2, pointSize: 22)
        public static let title3 = TextStyle(swiftUI: .title3, pointSize: 20)
        public static let headline = TextStyle(swiftUI: .headline, pointSize: 17)
        public static let subheadline = TextStyle(swiftUI: .subheadline, pointSize: 15)
        public static let body = TextStyle(swiftUI: .body, pointSize: 17)
        public static let callout = TextStyle(swiftUI: .callout, pointSize: 16)
        public static let footnote = TextStyle(swiftUI: .footnote, pointSize: 13)
        public static let caption1 = TextStyle(swiftUI: .caption, pointSize: 12)
        public static let caption2 = TextStyle(swiftUI: .caption2, pointSize: 11)
    }
}

extension Font {
    /// The SwiftUI font a UIKit font draws as.
    public init(_ font: UIFont) { self = font.font }
}
