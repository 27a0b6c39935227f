import Foundation

/// Readings from /proc. Each parser takes the file's text, so its format is pinned in one place.
enum SystemReadings {
    struct Load: Equatable {
        var one: Double
        var five: Double
        var fifteen: Double
    }

    struct CPUTimes: Equatable {
        var busy: UInt64
        var total: UInt64
    }

    struct Memory: Equatable {
        var totalKiB: UInt64
        var availableKiB: UInt64
        var usedFraction: Double { totalKiB == 0 ? 0 : Double(totalKiB - min(availableKiB, totalKiB)) / Double(totalKiB) }
    }

    enum Failure: Error, CustomStringConvertible {
        case unreadable(String)
        case unexpected(String)
        var description: String {
            switch self {
            case .unreadable(let path): "cannot read \(path)"
            case .unexpected(let path): "unexpected format in \(path)"
            }
        }
    }

    static func read(_ path: String) throws(Failure) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw .unreadable(path) }
        return text
    }

    /// /proc/loadavg: "0.52 0.58 0.59 1/467 12345".
    static func load(_ text: String) -> Load? {
        let fields = text.split(separator: " ").prefix(3).compactMap { Double($0) }
        guard fields.count == 3 else { return nil }
        return Load(one: fields[0], five: fields[1], fifteen: fields[2])
    }

    /// The first line of /proc/stat: "cpu user nice system idle iowait irq softirq steal ...".
    static func cpuTimes(_ text: String) -> CPUTimes? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let values = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard values.count >= 4 else { return nil }
        let idle = values[3] + (values.count > 4 ? values[4] : 0)
        let total = values.prefix(8).reduce(0, +)
        return CPUTimes(busy: total - idle, total: total)
    }

    /// The share of CPU time spent busy between two readings, 0...1.
    static func usage(from earlier: CPUTimes, to later: CPUTimes) -> Double {
        guard later.total > earlier.total else { return 0 }
        return Double(later.busy &- earlier.busy) / Double(later.total - earlier.total)
    }

    /// /proc/meminfo: "MemTotal:  16318480 kB" lines.
    static func memory(_ text: String) -> Memory? {
        var values: [Substring: UInt64] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let value = UInt64(parts[1]) { values[parts[0].dropLast()] = value }
        }
        guard let total = values["MemTotal"], let available = values["MemAvailable"] else { return nil }
        return Memory(totalKiB: total, availableKiB: available)
    }

    /// /proc/uptime: "35523.45 67890.12", seconds since boot.
    static func uptime(_ text: String) -> TimeInterval? {
        text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// "3 d 4 h", "4 h 12 min", "12 min".
    static func duration(_ seconds: TimeInterval) -> String {
        let minutes = Int(seconds) / 60
        let (days, hours, rest) = (minutes / 1440, minutes / 60 % 24, minutes % 60)
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return "\(hours) h \(rest) min" }
        return "\(rest) min"
    }

    static func percent(_ fraction: Double) -> String { "\(Int((fraction * 100).rounded()))%" }

    static func gibibytes(_ kibibytes: UInt64) -> String {
        String(format: "%.1f GiB", Double(kibibytes) / 1_048_576)
    }
}
