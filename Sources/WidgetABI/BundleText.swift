import Glibc
import WidgetWire

extension String {
    /// Text a bundle handed the host, made safe to print on one line: invalid UTF-8 repaired, control
    /// characters (a newline could forge another diagnostic) replaced by spaces, and at most 500
    /// characters kept.
    package init(bundleText pointer: UnsafePointer<CChar>) {
        let text = String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(scalar.isControl ? " " : scalar)
        }
        var cleaned = String(scalars)
        if cleaned.count > 500 { cleaned = String(cleaned.prefix(500)) + "…" }
        self = cleaned
    }

    /// Whether the text has characters that have no place in an identifier such as a widget kind.
    package var hasControlCharacters: Bool {
        unicodeScalars.contains(where: \.isControl)
    }
}
