import Foundation

/// One axis's scale: categories in bands, or a continuous range with the values its labels show.
struct ChartScale {
    var categories: [String]?
    var low = 0.0
    var high = 1.0
    var ticks: [Double] = []
    var isDate = false

    /// Where a value lies, 0 to 1 (the centre of its band for a category).
    func fraction(_ value: ChartValue?) -> Double? {
        guard let value else { return nil }
        if let categories {
            guard let index = categories.firstIndex(of: value.category) else { return nil }
            return (Double(index) + 0.5) / Double(categories.count)
        }
        guard let position = value.position else { return nil }
        return (position - low) / (high - low)
    }

    func fraction(of position: Double) -> Double { (position - low) / (high - low) }

    /// A band's width, 0 to 1: a category's, else that of `count` values side by side.
    func band(count: Int) -> Double {
        if let categories { return 1 / Double(max(1, categories.count)) }
        return 1 / Double(max(1, count))
    }

    /// The scale of `values`, `given` its domain or categories; a quantitative one includes zero
    /// (as Swift Charts' automatic scale does) when `zero`.
    static func make(_ values: [ChartValue], domain given: (Double, Double)?, categories: [String]?, zero: Bool, unit: Calendar.Component?) -> ChartScale {
        var scale = ChartScale()
        if let categories {
            scale.categories = categories
            return scale
        }
        // Numbers that are not finite have no place: left out, not taken for categories.
        let values = values.filter { if case .number(let number) = $0 { number.isFinite } else { true } }
        if values.contains(where: { if case .category = $0 { true } else { false } }) {
            var seen: [String] = []
            for value in values where !seen.contains(value.category) { seen.append(value.category) }
            scale.categories = seen
            return scale
        }
        scale.isDate = values.contains { if case .date = $0 { true } else { false } }
        if let (low, high) = given {
            (scale.low, scale.high) = (low, high)
            scale.ticks = [low, (low + high) / 2, high]
            return scale
        }
        var positions = values.compactMap(\.position)
        if positions.isEmpty { positions = [0, 1] }
        var low = positions.min()!
        var high = positions.max()!
        if scale.isDate {
            // A value per unit (a day's bar) spans its unit.
            if let unit, let end = Calendar.current.date(byAdding: unit, value: 1, to: Date(timeIntervalSince1970: high)) {
                high = end.timeIntervalSince1970
            }
            if high <= low { high = low + 3600 }
            (scale.low, scale.high) = (low, high)
            scale.ticks = [low, (low + high) / 2, high]
            return scale
        }
        if zero {
            low = min(low, 0)
            high = max(high, 0)
        }
        if high <= low {
            let pad = abs(low) > 0 ? abs(low) * 0.1 : 1
            (low, high) = (low - pad, high + pad)
        }
        let step = niceStep((high - low) / 3)
        scale.low = (low / step).rounded(.down) * step
        scale.high = (high / step).rounded(.up) * step
        scale.ticks = Array(stride(from: scale.low, through: scale.high + step / 2, by: step))
        return scale
    }

    /// A step of 1, 2 or 5 times a power of ten near `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough.isFinite, rough > 0 else { return 1 }
        let magnitude = pow(10, (log10(rough)).rounded(.down))
        let residual = rough / magnitude
        return (residual > 5 ? 10 : residual > 2 ? 5 : residual > 1 ? 2 : 1) * magnitude
    }

    /// A tick's text: a number short (`1.5K`), a date by the span of the axis.
    func label(_ position: Double) -> String {
        if isDate {
            let date = Date(timeIntervalSince1970: position)
            let span = high - low
            if span <= 2 * 86_400 { return date.formatted(date: .omitted, time: .shortened) }
            if span <= 120 * 86_400 { return date.formatted(.dateTime.month(.abbreviated).day()) }
            return date.formatted(.dateTime.month(.abbreviated))
        }
        let magnitude = abs(position)
        func whole(_ value: Double) -> String { abs(value) < 1e15 ? String(Int(value)) : String(value) }
        func short(_ value: Double, _ suffix: String) -> String {
            let rounded = (value * 10).rounded() / 10
            return (rounded == rounded.rounded() ? whole(rounded) : String(rounded)) + suffix
        }
        if magnitude >= 1_000_000_000 { return short(position / 1_000_000_000, "B") }
        if magnitude >= 1_000_000 { return short(position / 1_000_000, "M") }
        if magnitude >= 10_000 { return short(position / 1_000, "K") }
        if position == position.rounded() { return whole(position) }
        let places = magnitude >= 10 ? 1 : 2
        let factor = pow(10, Double(places))
        return String((position * factor).rounded() / factor)
    }
}
