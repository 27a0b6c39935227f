import FoundationEssentials

extension ViewNode {
    /// How full a progress view or gauge is, from 0 to 1: a gauge's value within its bounds, a
    /// timer's share of its interval at `now` (counting down unless it counts up), a progress
    /// view's value over its total; nil for an indeterminate one (or a view of another type).
    public func indicatorFraction(now: Date) -> Double? {
        guard view == "progress" || view == "gauge" else { return nil }
        func clamped(_ value: Double) -> Double { value.isFinite ? min(1, max(0, value)) : 0 }
        if view == "gauge", let value = self["value"]?.numberValue, let low = self["min"]?.numberValue,
            let high = self["max"]?.numberValue, high > low
        {
            return clamped((value - low) / (high - low))
        }
        if let interval = self["timerInterval"]?.arrayValue?.compactMap(\.numberValue), interval.count == 2, interval[1] > interval[0] {
            let passed = clamped((now.timeIntervalSince1970 - interval[0]) / (interval[1] - interval[0]))
            return self["countsDown"]?.boolValue == false ? passed : 1 - passed
        }
        guard let value = self["value"]?.numberValue else { return nil }
        let total = self["total"]?.numberValue ?? 1
        return total > 0 ? clamped(value / total) : 0
    }

    /// The first progress view or gauge with a value, in reading order: what a bar shows as the
    /// widget's percentage.
    public func firstIndicatorFraction(now: Date) -> Double? {
        if let fraction = indicatorFraction(now: now) { return fraction }
        for child in children {
            if let fraction = child.firstIndicatorFraction(now: now) { return fraction }
        }
        return nil
    }
}
