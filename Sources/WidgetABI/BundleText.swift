import Glibc
import WidgetWire

extension String {
    /// Text a bundle handed the host, made safe to print on one line: invalid UTF-8 repaired, control
    /// characters (a newline could forge another diagnostic) replaced by spaces, and cut past 1000
    /// bytes, saying how long it was ("… (N bytes)"). Only what is kept is copied.
    package init(bundleText pointer: UnsafePointer<CChar>) {
        let limit = 1000
        let length = strlen(pointer)
        let text = Swift.String(decoding: UnsafeRawBufferPointer(start: pointer, count: Swift.min(length, limit + 4)), as: UTF8.self)
        // Most text needs nothing done: kept as decoded.
        if length <= limit, !text.hasControlCharacters {
            self = text
            return
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(scalar.isControl ? " " : scalar)
        }
        self = Swift.String(scalars).cut(to: limit, of: length)
    }

    /// The same, for text a bundle's worker reported (a worker speaks for a bundle, and a bundle
    /// may write on its worker's channel).
    package init(bundleText text: String) {
        // Most text needs nothing done: kept as it is, uncopied.
        if text.utf8.count <= 1000, !text.hasControlCharacters {
            self = text
        } else {
            self = text.withCString { String(bundleText: $0) }
        }
    }
}
