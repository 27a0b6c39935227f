import FoundationEssentials
import Glibc

/// Dates as ISO 8601 writes them, in UTC: what the CLI and the host print and read (a
/// configuration's date, the dates of `watch`'s events).
package enum ISODate {
    /// "2026-11-21T09:30:00Z": to the second, written without a format style (the host's events
    /// are made on the engine's queue, many at a time).
    package static func text(_ date: Date) -> String {
        var seconds = time_t(min(max(date.timeIntervalSince1970.rounded(.down), -6.2e10), 2.5e11))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.tm_year + 1900)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// "2026-11-21": the date's day, in UTC.
    package static func day(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle().year().month().day())
    }

    /// A date and time ("2026-11-21T09:30:00Z", "2026-11-21T10:30:00+01:00"), or a day alone
    /// ("2026-11-21", its midnight in UTC); nil for anything else.
    package static func parse(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle().year().month().day().parse(text)
    }
}
