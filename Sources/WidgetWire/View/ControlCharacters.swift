extension Unicode.Scalar {
    /// A control character: C0 (below U+0020), DEL, or C1 (U+0080 to U+009F), the general category
    /// Cc. A terminal acts on them (a line break, an escape, a bell) instead of showing them, and
    /// they have no place in a name or a one-line diagnostic.
    package var isControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}

extension String {
    /// Whether the text has a control character (no place in an identifier such as a widget kind, nor
    /// in a one-line diagnostic), read from its UTF-8 bytes: C0 and DEL are bytes
    /// of their own, C1 is 0xC2 followed by 0x80 to 0x9F (0xC2 is never a continuation byte).
    package var hasControlCharacters: Bool {
        var afterC2 = false
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F || (afterC2 && byte <= 0x9F) { return true }
            afterC2 = byte == 0xC2
        }
        return false
    }

    /// The text on one line: each control character (a line break, an escape) replaced by a space.
    /// For text from outside (a peer, a bundle) that a diagnostic quotes.
    package var onOneLine: String {
        guard hasControlCharacters else { return self }
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars { scalars.append(scalar.isControl ? " " : scalar) }
        return String(scalars)
    }

    /// The text with every control character but line breaks and tabs shown by its code (`\x1B`):
    /// for what comes from outside (a file name, a bundle's message) and is printed on a terminal,
    /// which would act on an escape sequence (retitle the window, recolour, move the cursor) instead
    /// of showing it. A backslash before `x` is shown doubled, so the shown text reads back one way.
    package var visibleOnTerminal: String {
        guard hasControlCharacters else { return self }
        var shown = ""
        shown.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            if scalar.isControl, scalar != "\n", scalar != "\t" {
                shown += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }

    /// The text, or its first `limit` bytes (at a character boundary) followed by
    /// "… (N bytes)" when it is longer: for logs and diagnostics, which a bundle's text must not
    /// flood. `total` is the length to report when the text is itself a part of a longer one.
    package func cut(to limit: Int, of total: Int? = nil) -> String {
        let total = total ?? utf8.count
        guard total > limit else { return self }
        var end = utf8.index(utf8.startIndex, offsetBy: Swift.min(limit, utf8.count))
        while end > startIndex && !isCharacterBoundary(end) { end = utf8.index(before: end) }
        return String(self[..<end]) + "… (\(total) bytes)"
    }

    private func isCharacterBoundary(_ index: Index) -> Bool {
        index == endIndex || index.samePosition(in: unicodeScalars) != nil
    }
}
