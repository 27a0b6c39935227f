public import Foundation
public import WidgetWire

/// A view that displays one or more lines of read-only text.
///
/// Dates given with a `style`, date ranges and timers update themselves, also inside a longer text
/// (`Text("Ends \(date, style: .relative)")`): the host formats them when it draws, every second if
/// need be, without asking the provider again (as iOS does).
public struct Text: _PrimitiveView, Equatable {
    /// A run of the text: literal, or a date the host formats as it draws.
    enum Segment: Equatable {
        case literal(String)
        /// What the host formats as it draws (a self-updating date, a symbol): its wire attributes,
        /// and its text without the host, the fallback.
        case formatted(JSONObject, fallback: String)

        var fallback: String {
            switch self {
            case .literal(let text): text
            case .formatted(_, let fallback): fallback
            }
        }
    }

    var segments: [Segment]
    /// Modifiers applied to the text itself (`bold()`, `font(_:)`...), innermost first.
    var modifiers: [ViewModifierNode] = []

    init(segments: [Segment]) { self.segments = segments }

    /// Text from a string key, literal or interpolated, as SwiftUI's: looked up in the bundle's
    /// table `tableName` (`Localizable`) in the user's language, else the key as written (numbers,
    /// dates with a style, formatters and specifiers interpolated as SwiftUI writes them).
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {
        segments = key.segments(table: tableName)
    }

    /// Text shown as given (a string literal is a key: the `LocalizedStringKey` overload takes it, as in SwiftUI).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) { segments = [.literal(String(content))] }

    /// Text shown exactly as given.
    public init(verbatim content: String) { segments = [.literal(content)] }

    /// Text from a resource, in the user's language. (A literal is a `LocalizedStringKey`, as in SwiftUI.)
    @_disfavoredOverload
    public init(_ resource: LocalizedStringResource) { segments = resource.segments }

    /// Text with an attributed string's characters (its attributes are not drawn).
    /// (Disfavoured: Linux's `AttributedString` takes a string literal, which SwiftUI's `Text` reads as a key.)
    @_disfavoredOverload
    public init(_ attributedContent: AttributedString) { segments = [.literal(String(attributedContent.characters))] }

    /// A symbol, as a character of text.
    public init(_ image: Image) { segments = [image.textSegment] }

    /// A value formatted by a format style: `Text(price, format: .currency(code: "EUR"))`.
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatOutput == String {
        segments = [.literal(format.format(input))]
    }

    /// A value formatted by a formatter.
    public init<Subject>(_ subject: Subject, formatter: Formatter) {
        segments = [.literal(formatter.string(for: subject) ?? "")]
    }

    /// How a date shows, relative to the moment it is drawn.
    public struct DateStyle: Equatable, Sendable {
        let name: String
        /// The date: "November 21, 2026".
        public static let date = DateStyle(name: "date")
        /// The time: "14:05".
        public static let time = DateStyle(name: "time")
        /// Time to or since the date, updating: "2 hr, 5 min".
        public static let relative = DateStyle(name: "relative")
        /// Time from now, signed: "+2 hours", "-5 minutes".
        public static let offset = DateStyle(name: "offset")
        /// A counting timer: "2:05:09", "5:09".
        public static let timer = DateStyle(name: "timer")
    }

    /// A date shown in a style, updating as time passes.
    public init(_ date: Date, style: DateStyle) { segments = [Self.dateSegment(date, style: style)] }

    /// A range of dates: "14:00–15:30".
    public init(_ dates: ClosedRange<Date>) { segments = [Self.rangeSegment(dates)] }

    /// An interval of time, shown as its range.
    public init(_ interval: DateInterval) { segments = [Self.rangeSegment(interval.start...interval.end)] }

    /// A timer over an interval: counting down to its end (or up from its start), stopped at
    /// `pauseTime` when given.
    public init(timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true) {
        segments = [Self.timerSegment(timerInterval, pauseTime: pauseTime, countsDown: countsDown, showsHours: showsHours)]
    }

    static func dateSegment(_ date: Date, style: DateStyle) -> Segment {
        .formatted(
            JSONObject([("date", .number(date.timeIntervalSince1970)), ("dateStyle", .string(style.name))]),
            fallback: ISO8601DateFormatter().string(from: date))
    }

    static func rangeSegment(_ dates: ClosedRange<Date>) -> Segment {
        .formatted(
            JSONObject([("dateRange", .array([.number(dates.lowerBound.timeIntervalSince1970), .number(dates.upperBound.timeIntervalSince1970)]))]),
            fallback: ISO8601DateFormatter().string(from: dates.lowerBound))
    }

    static func timerSegment(_ interval: ClosedRange<Date>, pauseTime: Date?, countsDown: Bool, showsHours: Bool) -> Segment {
        var attributes = JSONObject([
            ("timerInterval", .array([.number(interval.lowerBound.timeIntervalSince1970), .number(interval.upperBound.timeIntervalSince1970)])),
            ("countsDown", .bool(countsDown)), ("showsHours", .bool(showsHours)),
        ])
        if let pauseTime { attributes["pauseTime"] = .number(pauseTime.timeIntervalSince1970) }
        return .formatted(attributes, fallback: "")
    }

    /// Two texts as one (their own modifiers are not kept apart).
    public static func + (lhs: Text, rhs: Text) -> Text {
        var joined = Text(segments: lhs.segments + rhs.segments)
        joined.modifiers = lhs.modifiers
        return joined
    }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        var attributes = JSONObject([("text", .string(segments.map(\.fallback).joined()))])
        let formatted = segments.contains { if case .formatted = $0 { true } else { false } }
        if segments.count == 1, case .formatted(let part, _) = segments[0], part["systemName"] == nil {
            // One self-updating date alone: its attributes beside the text.
            for (key, value) in part.members { attributes[key] = value }
        } else if formatted {
            // Dates or symbols inside a longer text: the parts, each literal or for the host to format.
            attributes["parts"] = .array(
                segments.map { segment in
                    switch segment {
                    case .literal(let text): .string(text)
                    case .formatted(let part, _): .object(part)
                    }
                })
        }
        return [ViewNode("text", attributes: attributes, modifiers: modifiers)]
    }

    /// The text as written now (self-updating dates as of now).
    var plainText: String { segments.map(\.fallback).joined() }

    /// The same text with one more modifier of its own.
    func adding(_ name: String, _ value: JSONValue) -> Text {
        var text = self
        text.modifiers.append(ViewModifierNode(name, value))
        return text
    }
}

// MARK: - Modifiers that keep it a Text

extension Text {
    public func font(_ font: Font?) -> Text { adding("font", font?.json ?? .null) }
    public func fontWeight(_ weight: Font.Weight?) -> Text { adding("fontWeight", weight.map { .string($0.rawValue) } ?? .null) }
    public func fontDesign(_ design: Font.Design?) -> Text { adding("fontDesign", design.map { .string($0.rawValue) } ?? .null) }
    public func fontWidth(_ width: Font.Width?) -> Text { adding("fontWidth", width.map { .number($0.value) } ?? .null) }
    public func bold() -> Text { adding("bold", .bool(true)) }
    public func bold(_ isActive: Bool) -> Text { adding("bold", .bool(isActive)) }
    public func italic() -> Text { adding("italic", .bool(true)) }
    public func italic(_ isActive: Bool) -> Text { adding("italic", .bool(isActive)) }
    public func monospaced(_ isActive: Bool = true) -> Text { adding("monospaced", .bool(isActive)) }
    public func monospacedDigit() -> Text { adding("monospacedDigit", .bool(true)) }
    public func foregroundColor(_ color: Color?) -> Text { adding("foregroundColor", color?.json ?? .null) }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text { adding("foregroundStyle", style._paint) }
    public func strikethrough(_ isActive: Bool = true, color: Color? = nil) -> Text { adding("strikethrough", .bool(isActive)) }
    public func strikethrough(_ isActive: Bool = true, pattern: Text.LineStyle.Pattern, color: Color? = nil) -> Text {
        adding("strikethrough", .bool(isActive))
    }
    public func underline(_ isActive: Bool = true, color: Color? = nil) -> Text { adding("underline", .bool(isActive)) }
    public func underline(_ isActive: Bool = true, pattern: Text.LineStyle.Pattern, color: Color? = nil) -> Text {
        adding("underline", .bool(isActive))
    }
    public func kerning(_ kerning: CGFloat) -> Text { adding("tracking", .number(Double(kerning))) }
    public func tracking(_ tracking: CGFloat) -> Text { adding("tracking", .number(Double(tracking))) }
    public func baselineOffset(_ baselineOffset: CGFloat) -> Text { self }
    public func textScale(_ scale: Text.Scale, isEnabled: Bool = true) -> Text { self }

    /// How an underline or strikethrough is drawn.
    public struct LineStyle: Sendable {
        public struct Pattern: Sendable {
            public static let solid = Pattern()
            public static let dot = Pattern()
            public static let dash = Pattern()
            public static let dashDot = Pattern()
            public static let dashDotDot = Pattern()
        }
    }

    public struct Scale: Sendable {
        public static let `default` = Scale()
        public static let secondary = Scale()
    }

    /// Where truncated text loses its characters.
    public enum TruncationMode: String, Sendable {
        case head, tail, middle
    }

    /// The case text is shown in.
    public enum Case: String, Sendable {
        case uppercase, lowercase
    }
}

// MARK: - String keys

/// A text key, as SwiftUI's: a string literal, looked up in the bundle's string tables in the
/// user's language (docs/PORTING.md, "Localization"). An interpolated literal is a format, as Xcode
/// extracts it: `"\(count) points"` is the key `"%lld points"` with its argument kept, so that a
/// translation (or a plural form) places it; where no table has the key, it is the text as written,
/// each interpolation as SwiftUI writes it (a `Double` as "%lf" does, "3.500000"; `specifier:`,
/// `formatter:`, `format:` and dates with a `style:` as asked).
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Equatable, Sendable {
    /// The key: the literal, with a specifier for each interpolation (`%@`, `%lld`, `%lf`...).
    let key: String
    let arguments: [LocalizedArgument]
    /// Whether the key is a format (it was interpolated); a plain literal is shown as it is.
    let isFormat: Bool

    public init(_ value: String) {
        key = value
        arguments = []
        isFormat = false
    }

    public init(stringLiteral value: String) { self.init(value) }

    public init(stringInterpolation: StringInterpolation) {
        key = stringInterpolation.key
        arguments = stringInterpolation.arguments
        isFormat = true
    }

    /// The text in the user's language, from the bundle's table `table` (`Localizable` for nil).
    func segments(table: String? = nil) -> [Text.Segment] {
        Localization.segments(key: key, arguments: arguments, isFormat: isFormat, table: table)
    }

    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var key = ""
        var arguments: [LocalizedArgument] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func add(_ specifier: String, _ argument: LocalizedArgument) {
            key += specifier
            arguments.append(argument)
        }

        /// A literal part: a "%" in it is written "%%", as a format has it.
        public mutating func appendLiteral(_ literal: String) { key += literal.replacingOccurrences(of: "%", with: "%%") }
        public mutating func appendInterpolation(_ string: String) { add("%@", .text(string)) }
        public mutating func appendInterpolation<S: StringProtocol>(_ string: S) { add("%@", .text(String(string))) }
        public mutating func appendInterpolation(_ value: Int) { add("%lld", .integer(Int64(value))) }
        public mutating func appendInterpolation(_ value: Int32) { add("%d", .integer(Int64(value))) }
        public mutating func appendInterpolation(_ value: UInt) { add("%llu", .unsigned(UInt64(value))) }
        public mutating func appendInterpolation<T: BinaryInteger>(_ value: T) {
            if T.isSigned { add("%lld", .integer(Int64(clamping: value))) } else { add("%llu", .unsigned(UInt64(clamping: value))) }
        }
        /// As SwiftUI does: "%lf", six decimals where no translation says otherwise.
        public mutating func appendInterpolation(_ value: Double) { add("%lf", .double(value)) }
        public mutating func appendInterpolation(_ value: Float) { add("%f", .double(Double(value))) }
        public mutating func appendInterpolation(_ value: CGFloat) { add("%lf", .double(Double(value))) }
        /// A number written with a printf specifier: `\(ratio * 100, specifier: "%.0f")`.
        public mutating func appendInterpolation<T: CVarArg>(_ value: T, specifier: String) { add(specifier, LocalizedArgument(specified: value)) }
        /// A value written by a formatter: `\(date, formatter: Self.timeFormatter)`.
        public mutating func appendInterpolation<Subject>(_ subject: Subject, formatter: Formatter) {
            add("%@", .text(formatter.string(for: subject) ?? String(describing: subject)))
        }
        public mutating func appendInterpolation<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatOutput == String {
            add("%@", .text(format.format(input)))
        }
        public mutating func appendInterpolation(_ text: Text) { add("%@", .segments(text.segments)) }
        public mutating func appendInterpolation(_ attributedString: AttributedString) { add("%@", .text(String(attributedString.characters))) }
        public mutating func appendInterpolation(_ image: Image) { add("%@", .segments([image.textSegment])) }
        /// A date in a style, updating as time passes: `\(date, style: .relative)`.
        public mutating func appendInterpolation(_ date: Date, style: Text.DateStyle) { add("%@", .segments([Text.dateSegment(date, style: style)])) }
        public mutating func appendInterpolation(_ dates: ClosedRange<Date>) { add("%@", .segments([Text.rangeSegment(dates)])) }
        public mutating func appendInterpolation(_ interval: DateInterval) { add("%@", .segments([Text.rangeSegment(interval.start...interval.end)])) }
        public mutating func appendInterpolation(timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true) {
            add("%@", .segments([Text.timerSegment(timerInterval, pauseTime: pauseTime, countsDown: countsDown, showsHours: showsHours)]))
        }
        public mutating func appendInterpolation(_ resource: LocalizedStringResource) { add("%@", .text(resource.text)) }
        /// Anything else, as `String(describing:)` writes it.
        @_disfavoredOverload
        public mutating func appendInterpolation<T>(_ value: T) { add("%@", .text(String(describing: value))) }
    }
}
