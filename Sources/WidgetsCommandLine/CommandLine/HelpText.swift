import Glibc

/// Help as a terminal shows it: paragraphs wrapped at the window's width (80 columns when the output
/// is not a terminal), option descriptions with a hanging indent under their own column.
enum HelpText {
    /// The width help is wrapped at: the terminal's, when standard output is one; else 80.
    static var width: Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return max(40, Int(size.ws_col))
        }
        return 80
    }

    /// Text whose paragraphs (separated by blank lines) are filled to `width`, each line after the
    /// first prefixed by `indent` spaces and the first by `first` (when given).
    static func fill(_ text: String, width: Int, indent: Int = 0, first: String? = nil) -> String {
        text.components(separatedBy: "\n\n").map { paragraph in
            let words = paragraph.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            var lines: [String] = []
            var line = first ?? String(repeating: " ", count: indent)
            var lineHasWord = false
            for word in words {
                let room = width - line.count
                if lineHasWord, word.count + 1 > room {
                    lines.append(line)
                    line = String(repeating: " ", count: indent) + word
                } else {
                    line += (lineHasWord ? " " : "") + word
                }
                lineHasWord = true
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// Rows of two columns (an option and what it does): the second column filled within the width
    /// left, under itself; a first column too wide for it puts the description on the next line.
    static func columns(_ rows: [(String, String)], width: Int) -> String {
        let column = min((rows.map(\.0.count).max() ?? 0) + 4, max(20, width / 3))
        return rows.map { name, description in
            let lead = "  " + name
            let first = lead.count + 2 <= column ? lead + String(repeating: " ", count: column - lead.count) : nil
            let text = fill(description, width: width, indent: column, first: first ?? String(repeating: " ", count: column))
            return first == nil ? lead + "\n" + text : text
        }.joined(separator: "\n")
    }
}
