import FoundationEssentials

/// Dates as ISO 8601 writes them, in UTC: what the CLI and the host print and read (a
/// configuration's date, the dates of `watch`'s events).
package enum ISODate {
    /// "2026-11-21T09:30:00Z".
    package static func text(_ date: Date) -> String {
        date.formatted(.iso8601)
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
