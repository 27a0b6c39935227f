/// The tracking iOS sets system text with at text sizes: SF Pro Text's, in points, as Apple's Human
/// Interface Guidelines list it for 6 to 19 points (body's 17 points -0.43, footnote's 13 -0.08).
/// Inter's text cut, standing in for SF Pro, is set with the same tracking, which brings its widths
/// to iOS's: measured against WidgetExamples' iOS screenshots, a body line was 6.5% wider than iOS's
/// without it ("Tap anywhere" 111.0 points against 104.2), 1.5% with it. From 20 points the display
/// cut is drawn, whose spacing is its own: nothing is added there.
enum SystemTracking {
    /// 6, 7, ... 19 points.
    static let textSizes: [Double] = [0.24, 0.23, 0.21, 0.17, 0.12, 0.06, 0, -0.08, -0.15, -0.23, -0.31, -0.43, -0.44, -0.45]

    /// The tracking at `size` points, between the sizes listed by straight lines.
    static func points(at size: Double) -> Double {
        guard size.isFinite, size < 20 else { return 0 }
        let place = min(max(size - 6, 0), Double(textSizes.count - 1))
        let lower = Int(place)
        let upper = min(lower + 1, textSizes.count - 1)
        let fraction = place - Double(lower)
        return textSizes[lower] + (textSizes[upper] - textSizes[lower]) * fraction
    }
}
