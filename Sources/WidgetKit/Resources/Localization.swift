/// Looks keys up in the bundle's string tables and formats them, for every localized text the SDK
/// has (`Text`, `LocalizedStringKey`, `LocalizedStringResource`, `String(localized:)`,
/// `NSLocalizedString`, widget names and descriptions, intent titles).
enum Localization {
    /// The text of `key` from `table` (`Localizable` for nil) in the user's language, its
    /// `arguments` placed; where no table has it, `fallback` (else the key) with them. A key that is
    /// not a format (a plain literal) is shown as it reads, never formatted.
    static func segments(
        key: String, arguments: [LocalizedArgument], isFormat: Bool, table: String?, fallback: String? = nil
    ) -> [Text.Segment] {
        let strings = BundleResources.shared.table(table ?? "Localizable")
        if let entry = strings.entry(key) {
            guard isFormat || !entry.variables.isEmpty || !arguments.isEmpty else { return [.literal(entry.format)] }
            return LocalizedFormat.format(entry.format, arguments, variables: entry.variables, language: entry.language)
        }
        let text = fallback ?? key
        guard isFormat else { return [.literal(text)] }
        return LocalizedFormat.format(text, arguments, language: strings.language)
    }

    static func string(key: String, arguments: [LocalizedArgument], isFormat: Bool, table: String?, fallback: String? = nil) -> String {
        segments(key: key, arguments: arguments, isFormat: isFormat, table: table, fallback: fallback).map(\.fallback).joined()
    }
}
