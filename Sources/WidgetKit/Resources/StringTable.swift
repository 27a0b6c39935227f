import Foundation

/// One string table of a bundle (`Localizable` unless a `tableName:` says otherwise), in the
/// localizations the user's languages choose (`PreferredLanguages.searchOrder`): the `.strings` and
/// `.stringsdict` files of each `<localization>.lproj`, as `widgets build` writes them (from
/// `.xcstrings`, or copied). A key is looked up in the best localization first, then in the
/// development localization and Base, as iOS falls back.
struct StringTable: Sendable {
    /// A translation: a format, and the plural variables its `%#@name@`s choose among.
    struct Entry: Sendable {
        var format: String
        var variables: PluralVariables = [:]
        /// The localization it came from, whose plural rules choose its forms.
        var language: String
    }

    private var entries: [String: Entry] = [:]
    /// The localization strings are shown in, for formatting numbers and plural rules.
    private(set) var language = "en"

    init() {}

    init(name: String, directory: URL, preferred: [String]) {
        let available = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".lproj") }.map { String($0.dropLast(".lproj".count)) }.sorted()
        guard !available.isEmpty else { return }
        let info = BundleResources.plist(directory.appendingPathComponent("Info.plist")) ?? [:]
        let development = (info["CFBundleDevelopmentRegion"] as? String) ?? "en"
        let order = PreferredLanguages.searchOrder(available: available, preferred: preferred, development: development)
        language = order.first { $0 != "Base" } ?? development
        // The last in the order first, so the better ones replace its entries.
        for localization in order.reversed() {
            let folder = directory.appendingPathComponent(localization + ".lproj")
            let language = localization == "Base" ? development : localization
            for (key, value) in BundleResources.plist(folder.appendingPathComponent(name + ".strings")) ?? [:] {
                if let text = value as? String { entries[key] = Entry(format: text, language: language) }
            }
            for (key, value) in BundleResources.plist(folder.appendingPathComponent(name + ".stringsdict")) ?? [:] {
                guard let entry = value as? [String: Any], let format = entry["NSStringLocalizedFormatKey"] as? String else { continue }
                var variables: PluralVariables = [:]
                for (variable, rule) in entry {
                    guard let rule = rule as? [String: Any], (rule["NSStringFormatSpecTypeKey"] as? String) == "NSStringPluralRuleType" else { continue }
                    var forms: [String: String] = [:]
                    for category in ["zero", "one", "two", "few", "many", "other"] { forms[category] = rule[category] as? String }
                    variables[variable] = forms
                }
                entries[key] = Entry(format: format, variables: variables, language: language)
            }
        }
    }

    func entry(_ key: String) -> Entry? { entries[key] }

    var isEmpty: Bool { entries.isEmpty }
}
