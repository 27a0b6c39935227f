import FoundationEssentials

/// Xcode's build settings for one target, and the expansion of `$(NAME)` and `${NAME}` references
/// in them and in Info.plist, with Xcode's operators (`$(PRODUCT_NAME:rfc1034identifier)`, `:lower`,
/// `:upper`, `:c99extidentifier`, `:identifier`). A name not set expands to nothing, as in Xcode.
public struct BuildSettings: Sendable, Equatable {
    public var values: [String: String]

    public init(_ values: [String: String] = [:]) { self.values = values }

    public subscript(name: String) -> String? {
        get { values[name].map { expand($0) } }
        set { values[name] = newValue }
    }

    /// The settings Xcode gives every target, where the project does not set them.
    public static func defaults(target: String, projectDirectory: String) -> BuildSettings {
        BuildSettings([
            "TARGET_NAME": target, "PRODUCT_NAME": "$(TARGET_NAME)", "EXECUTABLE_NAME": "$(PRODUCT_NAME)",
            "PRODUCT_MODULE_NAME": "$(PRODUCT_NAME:c99extidentifier)", "SRCROOT": projectDirectory, "PROJECT_DIR": projectDirectory,
            "SOURCE_ROOT": projectDirectory, "DEVELOPMENT_LANGUAGE": "en", "PRODUCT_BUNDLE_PACKAGE_TYPE": "XPC!", "CONFIGURATION": "Release",
            "PLATFORM_NAME": "linux", "SDKROOT": "linux", "ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME": "AccentColor",
        ])
    }

    /// Settings laid over these (a target's over its project's): `$(inherited)` in a value takes
    /// the value below.
    public func overlaid(with top: [String: String]) -> BuildSettings {
        var merged = values
        for (name, value) in top {
            let below = values[name] ?? ""
            merged[name] = value.replacing("$(inherited)", with: below).replacing("${inherited}", with: below)
                .trimmingSpaces
        }
        return BuildSettings(merged)
    }

    /// `text` with every reference expanded (nested ones too, up to a depth that stops cycles).
    public func expand(_ text: String, depth: Int = 0) -> String {
        // Deeper than this is a reference to itself: it expands to nothing.
        guard depth < 16 else { return "" }
        guard text.contains("$") else { return text }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            guard character == "$", next < text.endIndex, text[next] == "(" || text[next] == "{" else {
                out.append(character)
                index = next
                continue
            }
            let close: Character = text[next] == "(" ? ")" : "}"
            // The matching close, past nested references.
            var level = 0
            var end = text.index(after: next)
            while end < text.endIndex {
                if text[end] == "(" || text[end] == "{" { level += 1 }
                if text[end] == close {
                    if level == 0 { break }
                    level -= 1
                }
                end = text.index(after: end)
            }
            guard end < text.endIndex else {
                out += text[index...]
                break
            }
            let reference = expand(String(text[text.index(after: next)..<end]), depth: depth + 1)
            let parts = reference.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            var value = expand(values[parts[0]] ?? "", depth: depth + 1)
            for modifier in parts.dropFirst() { value = Self.apply(modifier, to: value) }
            out += value
            index = text.index(after: end)
        }
        return out
    }

    static func apply(_ modifier: String, to value: String) -> String {
        switch modifier {
        case "rfc1034identifier": String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
        case "c99extidentifier", "identifier": c99Identifier(value)
        case "lower": value.lowercased()
        case "upper": value.uppercased()
        default: value
        }
    }

    /// A name made an identifier as Xcode makes a module's: letters, digits and underscores, not
    /// starting with a digit.
    public static func c99Identifier(_ name: String) -> String {
        var identifier = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if identifier.first?.isNumber ?? true { identifier = "_" + identifier }
        return identifier
    }

    /// A setting that is a list (`SWIFT_ACTIVE_COMPILATION_CONDITIONS = DEBUG FOO`), its quoted
    /// items kept whole.
    public func list(_ name: String) -> [String] {
        guard let value = self[name] else { return [] }
        var items: [String] = []
        var current = ""
        var quote: Character?
        for character in value {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == " " || character == "\t" {
                if !current.isEmpty { items.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { items.append(current) }
        return items
    }

    /// A setting that is YES or NO.
    public func flag(_ name: String) -> Bool { ["yes", "true", "1"].contains(self[name]?.lowercased() ?? "") }
}
