import FoundationEssentials

/// "1 s", "2.5 s", "5 min", "1 h": a span of time as a person reads it.
package func timeSpan(_ seconds: TimeInterval) -> String {
    if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600)) h" }
    if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60)) min" }
    if seconds == seconds.rounded() { return "\(Int(seconds)) s" }
    return cFormat("%.1f s", seconds)
}

/// "29.0 MB": mebibytes, as the limit is stated.
package func megabytes(_ bytes: Int64) -> String {
    cFormat("%.1f MB", Double(bytes) / 1_048_576)
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval`.
    package var timeInterval: TimeInterval {
        // `components` divides a 128-bit count each time it is read: once, not twice.
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
