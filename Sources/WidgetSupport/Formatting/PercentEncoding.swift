extension StringProtocol {
    /// The text with every byte of its UTF-8 but the unreserved characters of RFC 3986 (letters,
    /// digits, `-._~`) written `%XX`: a query value or a path segment.
    package var percentEncoded: String {
        var text = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                text += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return text
    }

    /// The text with each `%XX` read as the byte it writes; nil for a `%` not followed by two hex
    /// digits, or bytes that are not UTF-8 (as Foundation's `removingPercentEncoding`).
    package var percentDecoded: String? {
        var bytes: [UInt8] = []
        var rest = Array(utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let high = hexDigitValue(rest[rest.startIndex]), let low = hexDigitValue(rest[rest.startIndex + 1]) else { return nil }
            bytes.append(high << 4 | low)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// The value of an ASCII hexadecimal digit ("7", "b", "F"); nil for any other byte.
package func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
