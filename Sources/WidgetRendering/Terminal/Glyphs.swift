import Synchronization

/// A cell's character as a number: its scalar when it has one alone, else its place in a table of
/// the characters of several scalars seen so far (emoji sequences, combined marks), which only grows.
enum Glyphs {
    private struct Table {
        var texts: [String] = []
        var codes: [String: UInt32] = [:]
    }
    private static let table = Mutex(Table())
    static let tableFlag: UInt32 = 0x8000_0000

    static func code(_ character: Character) -> UInt32 {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first { return scalar.value }
        return interned(String(character))
    }

    /// The code of a cell's text: one character, or none ("").
    static func code(_ text: String) -> UInt32 {
        guard let character = text.first else { return 0 }
        return code(character)
    }

    private static func interned(_ text: String) -> UInt32 {
        table.withLock { table in
            if let known = table.codes[text] { return known }
            let code = tableFlag | UInt32(table.texts.count)
            table.texts.append(text)
            table.codes[text] = code
            return code
        }
    }

    static func text(_ code: UInt32) -> String {
        var text = ""
        append(code, to: &text)
        return text
    }

    static func append(_ code: UInt32, to text: inout String) {
        if code == 0 { return }
        if code & tableFlag != 0 {
            text += table.withLock { $0.texts[Int(code & ~tableFlag)] }
        } else if let scalar = Unicode.Scalar(code) {
            text.unicodeScalars.append(scalar)
        }
    }
}
