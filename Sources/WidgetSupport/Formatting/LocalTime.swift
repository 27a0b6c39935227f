import FoundationEssentials
import Glibc

/// Dates as a clock in a time zone shows them: the system's (`TZ`, else /etc/localtime, as glibc's
/// `localtime_r` reads them), or a fixed offset from GMT. FoundationEssentials alone knows no time
/// zone but GMT (its zones come with ICU), and the host and the CLI are built without ICU.
package struct LocalTime: Sendable {
    /// The zone given (its offset at each date); nil for the system's.
    package var zone: TimeZone?

    package init(_ zone: TimeZone? = nil) {
        self.zone = zone
    }

    /// The date's calendar fields in the zone (`tm_gmtoff` its offset).
    package func fields(_ date: Date) -> tm {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // Held to what gmtime_r can write (some two billion years either way).
        var moment = time_t(min(max(seconds, -6.7e16), 6.7e16))
        var fields = tm()
        if let given = zone?.secondsFromGMT(for: date) {
            moment += time_t(given)
            gmtime_r(&moment, &fields)
            fields.tm_gmtoff = given
        } else {
            localtime_r(&moment, &fields)
        }
        return fields
    }

    /// The date as `strftime` writes `format` in the C locale ("%H:%M", "%B %-d, %Y": English names,
    /// whatever locale a library set for the process).
    package func text(_ date: Date, _ format: String) -> String {
        var fields = fields(date)
        var buffer = [CChar](repeating: 0, count: 256)
        let count = Self.cLocale.map { strftime_l(&buffer, buffer.count, format, &fields, $0) } ?? strftime(&buffer, buffer.count, format, &fields)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The C locale's dates (LC_TIME), made once and never freed; only read.
    nonisolated(unsafe) private static let cLocale: locale_t? = newlocale(1 << LC_TIME, "C", nil)

    /// "+01:00", "-05:30", "+00:00": the zone's offset at the date, as ISO 8601 writes it.
    package func offsetText(_ date: Date) -> String {
        let offset = fields(date).tm_gmtoff
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + cFormat("%02ld:%02ld", minutes / 60, minutes % 60)
    }

    /// Whether the two dates fall on the same day in the zone.
    package func isSameDay(_ first: Date, _ second: Date) -> Bool {
        let (a, b) = (fields(first), fields(second))
        return a.tm_year == b.tm_year && a.tm_yday == b.tm_yday
    }
}
