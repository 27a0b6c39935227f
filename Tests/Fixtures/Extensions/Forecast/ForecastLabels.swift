import Foundation

/// A shared file that imports Foundation alone and uses what Apple's Foundation has
/// (`LocalizedStringResource`), as an app's model files shared with a widget do.
enum ForecastLabels {
    static let title: LocalizedStringResource = "Forecast"
    static func days(_ count: Int) -> LocalizedStringResource { "\(count) days" }
}
