public import Foundation

/// Foundation's relative date formatter ("5 minutes ago", "in 2 hr."), which Linux's Foundation
/// lacks, written on `Date.RelativeFormatStyle`, which it has: localized as that is.
open class RelativeDateTimeFormatter: Formatter, @unchecked Sendable {
    public enum DateTimeStyle: Int, Sendable {
        /// "1 day ago".
        case numeric
        /// "yesterday".
        case named
    }

    public enum UnitsStyle: Int, Sendable {
        case full, spellOut, short, abbreviated
    }

    open var dateTimeStyle: DateTimeStyle = .numeric
    open var unitsStyle: UnitsStyle = .full
    open var calendar: Calendar! = .current
    open var locale: Locale! = .current

    public override init() { super.init() }
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    private var style: Date.RelativeFormatStyle {
        let units: Date.RelativeFormatStyle.UnitsStyle =
            switch unitsStyle {
            case .full: .wide
            case .spellOut: .spellOut
            case .short: .abbreviated
            case .abbreviated: .narrow
            }
        return Date.RelativeFormatStyle(
            presentation: dateTimeStyle == .named ? .named : .numeric, unitsStyle: units, locale: locale ?? .current, calendar: calendar ?? .current)
    }

    /// `date` relative to `referenceDate`: "2 hours ago", "in 3 days".
    open func localizedString(for date: Date, relativeTo referenceDate: Date) -> String {
        style.format(Date(timeIntervalSinceNow: date.timeIntervalSince(referenceDate)))
    }

    /// A span of time from now: negative is past.
    open func localizedString(fromTimeInterval timeInterval: TimeInterval) -> String {
        style.format(Date(timeIntervalSinceNow: timeInterval))
    }

    /// Date components from now (`DateComponents(day: -1)` is "1 day ago").
    open func localizedString(from dateComponents: DateComponents) -> String {
        let now = Date()
        return localizedString(for: (calendar ?? .current).date(byAdding: dateComponents, to: now) ?? now, relativeTo: now)
    }

    open override func string(for obj: Any?) -> String? {
        guard let date = obj as? Date else { return nil }
        return localizedString(for: date, relativeTo: Date())
    }
}

/// Foundation's list formatter ("a, b, and c"), written on `ListFormatStyle`.
open class ListFormatter: Formatter, @unchecked Sendable {
    open var locale: Locale! = .current

    public override init() { super.init() }
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    open class func localizedString(byJoining strings: [String]) -> String {
        strings.formatted(.list(type: .and))
    }

    open func string(from items: [Any]) -> String? {
        items.map { "\($0)" }.formatted(.list(type: .and).locale(locale ?? .current))
    }

    open override func string(for obj: Any?) -> String? {
        guard let items = obj as? [Any] else { return nil }
        return string(from: items)
    }
}

/// Foundation's formatter of durations ("1:02:05", "1 hr, 2 min"), which Linux's Foundation marks
/// unavailable, written on `Duration`'s format styles: positional and the unit styles, the units
/// allowed, the most units shown, and dropping or padding zeros. Months and years, which have no
/// fixed length, are shown as days.
open class DateComponentsFormatter: Formatter, @unchecked Sendable {
    public enum UnitsStyle: Int, Sendable {
        case positional, abbreviated, short, full, spellOut, brief
    }

    public struct ZeroFormattingBehavior: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let `default` = ZeroFormattingBehavior(rawValue: 1 << 0)
        public static let dropLeading = ZeroFormattingBehavior(rawValue: 1 << 1)
        public static let dropMiddle = ZeroFormattingBehavior(rawValue: 1 << 2)
        public static let dropTrailing = ZeroFormattingBehavior(rawValue: 1 << 3)
        public static let dropAll: ZeroFormattingBehavior = [.dropLeading, .dropMiddle, .dropTrailing]
        public static let pad = ZeroFormattingBehavior(rawValue: 1 << 16)
    }

    open var allowedUnits: NSCalendar.Unit = []
    open var unitsStyle: UnitsStyle = .positional
    open var zeroFormattingBehavior: ZeroFormattingBehavior = .default
    open var maximumUnitCount = 0
    open var calendar: Calendar? = .current
    open var includesApproximationPhrase = false
    open var includesTimeRemainingPhrase = false
    open var allowsFractionalUnits = false
    open var collapsesLargestUnit = false

    public override init() { super.init() }
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The units shown: those allowed, else hours, minutes and seconds (days above a day).
    private func units(for seconds: Double) -> [NSCalendar.Unit] {
        let order: [NSCalendar.Unit] = [.weekOfMonth, .day, .hour, .minute, .second]
        var allowed = order.filter { allowedUnits.contains($0) }
        if allowedUnits.contains(.year) || allowedUnits.contains(.month), !allowed.contains(.day) { allowed.insert(.day, at: 0) }
        if allowed.isEmpty { allowed = seconds >= 86_400 ? [.day, .hour, .minute, .second] : [.hour, .minute, .second] }
        return allowed
    }

    private static func length(of unit: NSCalendar.Unit) -> Double {
        switch unit {
        case .weekOfMonth: 604_800
        case .day: 86_400
        case .hour: 3600
        case .minute: 60
        default: 1
        }
    }

    open func string(from ti: TimeInterval) -> String? {
        guard ti.isFinite else { return nil }
        let negative = ti < 0
        var remaining = abs(ti).rounded()
        let units = units(for: remaining)
        var values: [(NSCalendar.Unit, Int)] = []
        for unit in units {
            let length = Self.length(of: unit)
            let value = Int(remaining / length)
            remaining -= Double(value) * length
            values.append((unit, value))
        }
        let text = unitsStyle == .positional ? positional(values) : spelled(values)
        return negative ? "-" + text : text
    }

    open func string(from startDate: Date, to endDate: Date) -> String? { string(from: endDate.timeIntervalSince(startDate)) }

    open func string(from components: DateComponents) -> String? {
        let seconds = [
            Double(components.weekOfMonth ?? 0) * 604_800, Double(components.day ?? 0) * 86_400, Double(components.hour ?? 0) * 3600,
            Double(components.minute ?? 0) * 60, Double(components.second ?? 0),
        ].reduce(0, +)
        return string(from: seconds)
    }

    open override func string(for obj: Any?) -> String? {
        switch obj {
        case let interval as TimeInterval: string(from: interval)
        case let components as DateComponents: string(from: components)
        default: nil
        }
    }

    /// "1:02:05": leading zero units dropped (but minutes) unless padding, two digits after the first.
    private func positional(_ values: [(NSCalendar.Unit, Int)]) -> String {
        var shown = values
        if !zeroFormattingBehavior.contains(.pad) {
            while shown.count > 2, shown.first?.1 == 0 { shown.removeFirst() }
        }
        return shown.enumerated().map { index, item in
            index == 0 && !zeroFormattingBehavior.contains(.pad) ? String(item.1) : (item.1 < 10 ? "0" : "") + String(item.1)
        }.joined(separator: ":")
    }

    /// "1 hr, 2 min", as `Duration`'s units style writes it in the user's language.
    private func spelled(_ values: [(NSCalendar.Unit, Int)]) -> String {
        let seconds = values.reduce(0) { $0 + Double($1.1) * Self.length(of: $1.0) }
        let allowed: Set<Duration.UnitsFormatStyle.Unit> = Set(values.map { unit, _ in
            switch unit {
            case .weekOfMonth: .weeks
            case .day: .days
            case .hour: .hours
            case .minute: .minutes
            default: .seconds
            }
        })
        let width: Duration.UnitsFormatStyle.UnitWidth =
            switch unitsStyle {
            case .full, .spellOut: .wide
            case .short: .abbreviated
            case .brief: .condensedAbbreviated
            default: .narrow
            }
        let dropsZeros = zeroFormattingBehavior.contains(.dropAll) || zeroFormattingBehavior.contains(.default)
        let style = Duration.UnitsFormatStyle(
            allowedUnits: allowed, width: width, maximumUnitCount: maximumUnitCount > 0 ? maximumUnitCount : nil,
            zeroValueUnits: dropsZeros ? .hide : .show(length: 1))
        return Duration.seconds(seconds).formatted(style)
    }
}
