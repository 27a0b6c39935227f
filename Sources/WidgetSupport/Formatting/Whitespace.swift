extension StringProtocol {
    /// The text without the spaces and tabs at either end: what `trimmingCharacters(in: .whitespaces)`
    /// gives (Unicode's space separators, the tab, and, as Foundation counts it, U+200B ZERO WIDTH
    /// SPACE), without NSString's bridging, which cost a table of 400 rows more than drawing it.
    package var trimmingSpaces: String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar == "\u{200B}"
                || (scalar.value > 0x7F && scalar.properties.generalCategory == .spaceSeparator)
        }
        let text = String(self)
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }
}

extension StringProtocol {
    /// The text without white space and line breaks at either end, as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it.
    package var trimmingSpacesAndNewlines: String {
        let text = String(self)
        let scalars = text.unicodeScalars
        let isSpace = { (scalar: Unicode.Scalar) in scalar == "\u{200B}" || scalar.properties.isWhitespace }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }
}

extension StringProtocol {
    /// The text without any of `characters` at either end.
    package func trimmingAny(of characters: String) -> String {
        let text = String(self)
        guard let first = text.firstIndex(where: { !characters.contains($0) }), let last = text.lastIndex(where: { !characters.contains($0) }) else { return "" }
        return String(text[first...last])
    }
}
