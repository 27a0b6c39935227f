import Foundation

/// The user's languages, as a Linux desktop says them, and the bundle localizations they choose.
///
/// The order of preference is gettext's: `LANGUAGE` (a colon-separated list, "de:fr"), unless the
/// locale is C or POSIX; then the locale of messages, `LC_ALL`, else `LC_MESSAGES`, else `LANG`
/// ("de_AT.UTF-8"). Each becomes a language tag as Apple's localizations are named ("de-AT";
/// "zh_CN" is "zh-Hans", "zh_TW" "zh-Hant", "sr@latin" "sr-Latn").
enum PreferredLanguages {
    /// This process's languages, read once.
    static let current: [String] = from(environment: ProcessInfo.processInfo.environment)

    static func from(environment: [String: String]) -> [String] {
        let locale = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty }
        let isPlain = locale.map { $0 == "C" || $0 == "POSIX" || $0.hasPrefix("C.") } ?? true
        var languages: [String] = []
        if !isPlain, let list = environment["LANGUAGE"], !list.isEmpty {
            languages += list.split(separator: ":").map(String.init)
        }
        if let locale, !isPlain { languages.append(locale) }
        var tags: [String] = []
        for language in languages {
            guard let tag = tag(language), !tags.contains(tag) else { continue }
            tags.append(tag)
        }
        return tags
    }

    /// A POSIX locale name as a language tag: "de_AT.UTF-8@euro" is "de-AT"; nil for C or POSIX.
    static func tag(_ locale: String) -> String? {
        var text = Substring(locale)
        var modifier: Substring?
        if let at = text.firstIndex(of: "@") {
            modifier = text[text.index(after: at)...]
            text = text[..<at]
        }
        if let dot = text.firstIndex(of: ".") { text = text[..<dot] }
        guard !text.isEmpty, text != "C", text != "POSIX" else { return nil }
        let parts = text.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard let language = parts.first?.lowercased(), language.allSatisfy(\.isLetter) else { return nil }
        let region = parts.dropFirst().first
        if language == "zh" {
            if let region, ["TW", "HK", "MO", "Hant"].contains(region) { return "zh-Hant" }
            return "zh-Hans"
        }
        if modifier == "latin" { return language + "-Latn" }
        guard let region else { return language }
        return region.count == 4 ? language + "-" + region.prefix(1).uppercased() + region.dropFirst().lowercased() : language + "-" + region.uppercased()
    }

    /// The localizations to look a string up in, best first: the one that suits the first
    /// preferred language that any suits (the same tag, else its language alone, else another
    /// region of its language), then the development localization, then "Base".
    static func searchOrder(available: [String], preferred: [String], development: String?) -> [String] {
        func normalized(_ name: String) -> String { name.replacingOccurrences(of: "_", with: "-").lowercased() }
        func language(_ name: String) -> String { String(normalized(name).split(separator: "-").first ?? "") }
        var order: [String] = []
        func add(_ name: String?) {
            if let name, !order.contains(name) { order.append(name) }
        }
        for wanted in preferred {
            let match =
                available.first { normalized($0) == normalized(wanted) }
                ?? available.first { normalized($0) == language(wanted) }
                ?? available.first { language($0) == language(wanted) }
            if let match {
                add(match)
                break
            }
        }
        if let development {
            add(available.first { normalized($0) == normalized(development) } ?? available.first { language($0) == language(development) })
        }
        add(available.first { $0 == "Base" })
        return order
    }
}
