import FoundationEssentials

/// Display widths of text in a terminal.
public enum TerminalText {
    /// Whether the bytes are all printable ASCII (U+0020 to U+007E, a column each; no control
    /// characters): eight at a time.
    static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let (ones, high): (UInt64, UInt64) = (0x0101_0101_0101_0101, 0x8080_8080_8080_8080)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if word & high != 0 { return false }
            // A byte below 0x20 borrows into its high bit; so does DEL's, once xored with 0x7F.
            if (word &- ones &* 0x20) & ~word & high != 0 { return false }
            let delete = word ^ (ones &* 0x7F)
            if (delete &- ones) & ~delete & high != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            if !(0x20..<0x7F).contains(bytes[offset]) { return false }
            offset += 1
        }
        return true
    }

    /// Columns `text` takes: 2 for wide and emoji characters, 0 for combining marks and joiners.
    ///
    /// Text is measured a scalar at a time, without breaking it into characters (which is slow);
    /// only text with scalars that join characters (joiners, selectors, marks, skin tones, flags)
    /// is measured character by character.
    public static func width(_ text: String) -> Int {
        // Printable ASCII, the common case, is one column a byte.
        if text.utf8.withContiguousStorageIfAvailable(isPrintableASCII) ?? text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) {
            return text.utf8.count
        }
        var total = 0
        for scalar in text.unicodeScalars {
            let columns = kind(of: scalar)
            if columns == joins { return text.reduce(0) { $0 + width(of: $1) } }
            total += Int(columns)
        }
        return total
    }

    /// The columns of `text`'s words (split at spaces), where each scalar is a character of its
    /// own, as in most text: then a run of words takes exactly its words' and spaces' columns. Nil
    /// for text with characters of several scalars (accents, emoji sequences, flags).
    static func wordWidths(_ text: String) -> [Double]? {
        // Printable ASCII, the common case: a column a byte, words between the spaces' bytes.
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> [Double]? in
            guard isPrintableASCII(bytes) else { return nil }
            let space = UInt8(ascii: " ")
            var widths: [Double] = []
            widths.reserveCapacity(bytes.reduce(1) { $1 == space ? $0 + 1 : $0 })
            var start = 0
            for index in 0..<bytes.count where bytes[index] == space {
                widths.append(Double(index - start))
                start = index + 1
            }
            widths.append(Double(bytes.count - start))
            return widths
        }
        if case let widths?? = ascii { return widths }
        // Each scalar a character of its own (found without breaking the text into characters).
        guard isSimple(text) else { return nil }
        var widths: [Double] = []
        widths.reserveCapacity(text.unicodeScalars.reduce(1) { $1 == " " ? $0 + 1 : $0 })
        var current = 0
        for scalar in text.unicodeScalars {
            if scalar == " " {
                widths.append(Double(current))
                current = 0
            } else {
                current += width(of: scalar)
            }
        }
        widths.append(Double(current))
        return widths
    }

    /// Whether each of `text`'s scalars is a character of its own, of one or two columns: no
    /// joiners, selectors, combining marks or other scalars that make a character of several.
    static func isSimple(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            let columns = kind(of: scalar)
            return columns == joins || columns == 0
        }
    }

    /// Each of `text`'s characters as a cell's glyph, with its columns (1 or 2; characters of none
    /// are skipped) and whether it is whitespace. By scalar where each is a character of its own
    /// (all but emoji sequences and combined marks), without breaking the text into characters.
    struct CellGlyphs: Sequence, IteratorProtocol {
        private var scalars: String.UnicodeScalarView.Iterator?
        private var characters: String.Iterator?

        init(_ text: String) {
            if isSimple(text) { scalars = text.unicodeScalars.makeIterator() } else { characters = text.makeIterator() }
        }

        mutating func next() -> (glyph: UInt32, width: Int, isWhitespace: Bool)? {
            if scalars != nil {
                while let scalar = scalars?.next() {
                    let width = width(of: scalar)
                    guard width > 0 else { continue }
                    return (scalar.value, width, scalar.isASCII ? scalar == " " : scalar.properties.isWhitespace)
                }
                return nil
            }
            while let character = characters?.next() {
                let width = width(of: character)
                guard width > 0 else { continue }
                return (Glyphs.code(character), width, character.isWhitespace)
            }
            return nil
        }
    }

    /// `text` as cells: a character each, and an empty continuation after a wide one.
    public static func cells(_ text: String) -> [(text: String, isContinuation: Bool)] {
        var cells: [(text: String, isContinuation: Bool)] = []
        for character in text {
            let width = width(of: character)
            guard width > 0 else { continue }
            cells.append((String(character), false))
            if width == 2 { cells.append(("", true)) }
        }
        return cells
    }

    public static func width(of character: Character) -> Int {
        // A control character (a line break, a tab, an escape, "\r\n") takes no column and is not drawn.
        if character.isASCII { return Int(kind(of: character.unicodeScalars.first!)) }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1, scalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) { return 2 }
        return width(of: first)
    }

    /// A scalar's columns on its own (a mark or joiner alone takes none).
    static func width(of scalar: Unicode.Scalar) -> Int {
        let columns = kind(of: scalar)
        return columns == joins ? standalone(scalar) : Int(columns)
    }

    /// What `kind(of:)` says of a scalar whose width depends on the character it is part of.
    static let joins: UInt8 = 0xFF

    /// A scalar's columns (0, 1 or 2), or `joins`. The scalars below U+3000 (Latin, Greek,
    /// Cyrillic, punctuation, symbols, arrows, box drawing) come from a table worked out once
    /// (12 KiB, about 2 ms); the rest from their properties.
    static func kind(of scalar: Unicode.Scalar) -> UInt8 {
        let value = scalar.value
        // Control characters take no column: drawn, they would move the cursor or start an escape.
        if value < 0x80 { return scalar.isControl ? 0 : 1 }
        if value < tableEnd { return table[Int(value)] }
        return classify(scalar)
    }

    private static let tableEnd: UInt32 = 0x3000
    private static let table: [UInt8] = (0..<tableEnd).map { value in Unicode.Scalar(value).map(classify) ?? 1 }

    /// `joins` for the scalars that combine with their neighbours into one character of another
    /// width: the zero-width joiner, variation selectors, the keycap mark, spacing and enclosing
    /// marks, Hangul vowel and final jamo, default-ignorable scalars (the zero-width non-joiner,
    /// soft hyphens), skin tones, regional indicators (flags) and tags. Otherwise its width.
    private static func classify(_ scalar: Unicode.Scalar) -> UInt8 {
        switch scalar.value {
        case 0x200D, 0xFE00...0xFE0F, 0x20E3, 0x1160...0x11FF, 0xD7B0...0xD7FF, 0x1F3FB...0x1F3FF, 0x1F1E6...0x1F1FF, 0xE0000...0xE007F:
            return joins
        default:
            break
        }
        let properties = scalar.properties
        if properties.isDefaultIgnorableCodePoint { return joins }
        switch properties.generalCategory {
        case .spacingMark, .enclosingMark: return joins
        default: return UInt8(standalone(scalar))
        }
    }

    /// A scalar's width from its properties alone: 2 for the wide (East Asian) ranges and emoji
    /// presentation, 0 for non-spacing marks and default-ignorable scalars, else 1.
    private static func standalone(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            let properties = scalar.properties
            if properties.isEmojiPresentation { return 2 }
            switch properties.generalCategory {
            case .nonspacingMark, .control: return 0
            default: return properties.isDefaultIgnorableCodePoint ? 0 : 1
            }
        }
    }
}
