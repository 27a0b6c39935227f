/// CLDR's cardinal plural categories (zero, one, two, few, many, other) for an integer, in the
/// languages widgets are commonly translated into; a language not listed follows English's rule.
/// Fractions follow CLDR where it differs by language (French and Brazilian Portuguese: any value
/// below 2 is "one").
enum PluralRules {
    static func category(_ value: Double, language: String) -> String {
        let base = String(language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
        let isInteger = value.rounded(.towardZero) == value && abs(value) < 1e15
        let n = isInteger ? Int64(abs(value)) : 0
        let mod10 = n % 10, mod100 = n % 100
        switch base {
        case "ja", "zh", "ko", "th", "vi", "id", "ms", "lo", "my", "km":
            return "other"
        case "fr":
            // i (the integer digits) is 0 or 1: "0,5 heure", "1 heure".
            return abs(value) < 2 ? "one" : "other"
        case "pt" where language.lowercased().replacingOccurrences(of: "_", with: "-") != "pt-pt":
            return abs(value) < 2 ? "one" : "other"
        case "ru", "uk", "be":
            guard isInteger else { return "other" }
            if mod10 == 1 && mod100 != 11 { return "one" }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return "few" }
            return "many"
        case "pl":
            guard isInteger else { return "other" }
            if n == 1 { return "one" }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return "few" }
            return "many"
        case "cs", "sk":
            guard isInteger else { return "many" }
            if n == 1 { return "one" }
            if (2...4).contains(n) { return "few" }
            return "other"
        case "hr", "sr", "bs":
            guard isInteger else { return "other" }
            if mod10 == 1 && mod100 != 11 { return "one" }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return "few" }
            return "other"
        case "sl":
            guard isInteger else { return "few" }
            if mod100 == 1 { return "one" }
            if mod100 == 2 { return "two" }
            if (3...4).contains(mod100) { return "few" }
            return "other"
        case "lt":
            guard isInteger else { return "many" }
            if mod10 == 1 && !(11...19).contains(mod100) { return "one" }
            if (2...9).contains(mod10) && !(11...19).contains(mod100) { return "few" }
            return "other"
        case "lv":
            guard isInteger else { return "other" }
            if mod10 == 0 || (11...19).contains(mod100) { return "zero" }
            if mod10 == 1 && mod100 != 11 { return "one" }
            return "other"
        case "ro":
            guard isInteger else { return "few" }
            if n == 1 { return "one" }
            if n == 0 || (2...19).contains(mod100) { return "few" }
            return "other"
        case "ar":
            guard isInteger else { return "other" }
            switch n {
            case 0: return "zero"
            case 1: return "one"
            case 2: return "two"
            default: break
            }
            if (3...10).contains(mod100) { return "few" }
            if (11...99).contains(mod100) { return "many" }
            return "other"
        case "he", "iw":
            guard isInteger else { return "other" }
            if n == 1 { return "one" }
            if n == 2 { return "two" }
            return "other"
        case "ga":
            guard isInteger else { return "other" }
            if n == 1 { return "one" }
            if n == 2 { return "two" }
            if (3...6).contains(n) { return "few" }
            if (7...10).contains(n) { return "many" }
            return "other"
        default:
            // English and the many languages that share its rule: one for exactly 1.
            return isInteger && n == 1 ? "one" : "other"
        }
    }

    /// The form for `value` among those given: Apple's stringsdict rule that a "zero" form, when
    /// given, is used for 0 in any language; then the language's category; then "other".
    static func form(for value: Double, language: String, among forms: [String: String]) -> String? {
        if value == 0, let zero = forms["zero"] { return zero }
        return forms[category(value, language: language)] ?? forms["other"]
    }
}
