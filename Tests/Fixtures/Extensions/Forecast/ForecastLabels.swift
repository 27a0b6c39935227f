import Foundation

/// A shared file that imports Foundation alone and uses what Apple's Foundation has
/// (`LocalizedStringResource`), as an app's model files shared with a widget do.
enum ForecastLabels {
    static let title: LocalizedStringResource = "Forecast"
    static func days(_ count: Int) -> LocalizedStringResource { "\(count) days" }
}

/// Foundation's localization function, called as model code calls it, in a file that imports
/// Foundation (which has one too) and in one that imports SwiftUI beside it.
enum ForecastStrings {
    static func title() -> String { NSLocalizedString("Forecast", comment: "The widget's title") }
    static func titled(_ table: String) -> String { NSLocalizedString("Forecast", tableName: table, bundle: .main, value: "Forecast", comment: "") }
}
