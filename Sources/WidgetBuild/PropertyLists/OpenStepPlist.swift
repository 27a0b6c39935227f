import FoundationEssentials
import WidgetSupport

/// A reader of OpenStep ("old-style ASCII") property lists: Xcode's `project.pbxproj`, and `.strings`
/// files, whose top level is a dictionary without braces (`"key" = "value";`).
///
///     { key = value; list = (a, "b c", ); data = <0fbd 7771>; }   // comments, /* and //
///
/// Bad input is one `PlistError` naming the file, the line and what was expected.
public enum OpenStepPlist {
    public static func parse(_ text: String, file: String) throws(PlistError) -> PlistValue {
        var parser = Parser(bytes: Array(text.utf8), file: file)
        try parser.skipSpace()
        // A byte order mark, from a UTF-8 file saved by some editors.
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.index = 3
            try parser.skipSpace()
        }
        if parser.atEnd { return .dictionary([:]) }
        if parser.peek == UInt8(ascii: "{") || parser.peek == UInt8(ascii: "(") || parser.peek == UInt8(ascii: "<") {
            let value = try parser.value(depth: 0)
            try parser.skipSpace()
            guard parser.atEnd else { throw parser.error("unexpected text after the property list") }
            return value
        }
        // A strings file: key = value; pairs to the end (a key alone stands for itself).
        return .dictionary(try parser.members(until: nil, depth: 0))
    }

    struct Parser {
        let bytes: [UInt8]
        let file: String
        var index = 0

        init(bytes: [UInt8], file: String) {
            self.bytes = bytes
            self.file = file
        }

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// The line of the reading position; counted only for an error.
        var line: Int { line(at: index) }

        func line(at offset: Int) -> Int { 1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }

        func error(_ message: String) -> PlistError { PlistError(file: file, line: line, message: message) }

        mutating func skipSpace() throws(PlistError) {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 12 {
                    index += 1
                } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                    while index < bytes.count, bytes[index] != 10 { index += 1 }
                } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                    let start = index
                    index += 2
                    while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                    guard index + 1 < bytes.count else {
                        throw PlistError(file: file, line: line(at: start), message: "a /* comment is never closed")
                    }
                    index += 2
                } else {
                    return
                }
            }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(PlistError) {
            try skipSpace()
            guard peek == byte else {
                throw error("expected \(what)\(peek.map { ", found '\(String(decoding: [$0], as: UTF8.self))'" } ?? ", found the end of the file")")
            }
            index += 1
        }

        mutating func value(depth: Int) throws(PlistError) -> PlistValue {
            guard depth < 256 else { throw error("nested more than 256 deep") }
            try skipSpace()
            guard let byte = peek else { throw error("expected a value, found the end of the file") }
            switch byte {
            case UInt8(ascii: "{"):
                index += 1
                return .dictionary(try members(until: UInt8(ascii: "}"), depth: depth + 1))
            case UInt8(ascii: "("):
                index += 1
                var items: [PlistValue] = []
                while true {
                    try skipSpace()
                    if peek == UInt8(ascii: ")") {
                        index += 1
                        return .array(items)
                    }
                    items.append(try value(depth: depth + 1))
                    try skipSpace()
                    if peek == UInt8(ascii: ",") {
                        index += 1
                    } else if peek != UInt8(ascii: ")") {
                        throw error("expected ',' or ')' in a list")
                    }
                }
            case UInt8(ascii: "<"):
                index += 1
                return .data(try data())
            default:
                return .string(try string())
            }
        }

        /// `key = value;` pairs until `close` (the end of the text for nil).
        mutating func members(until close: UInt8?, depth: Int) throws(PlistError) -> [String: PlistValue] {
            var members: [String: PlistValue] = [:]
            while true {
                try skipSpace()
                if let close, peek == close {
                    index += 1
                    return members
                }
                if atEnd {
                    if close == nil { return members }
                    throw error("a dictionary is never closed with '}'")
                }
                let key = try string()
                try skipSpace()
                if close == nil, peek == UInt8(ascii: ";") {
                    // A strings file's "key"; stands for "key" = "key";.
                    index += 1
                    members[key] = .string(key)
                    continue
                }
                try expect(UInt8(ascii: "="), "'=' after the key \"\(key)\"")
                let value = try value(depth: depth)
                try expect(UInt8(ascii: ";"), "';' after the value of \"\(key)\"")
                members[key] = value
            }
        }

        mutating func string() throws(PlistError) -> String {
            try skipSpace()
            guard let byte = peek else { throw error("expected a string, found the end of the file") }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { return try quoted(byte) }
            let start = index
            while let current = peek, Self.isUnquoted(current) { index += 1 }
            guard index > start else {
                throw error("expected a string, found '\(String(decoding: [byte], as: UTF8.self))'")
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        static func isUnquoted(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
                UInt8(ascii: "-"):
                true
            default: byte >= 0x80
            }
        }

        mutating func quoted(_ quote: UInt8) throws(PlistError) -> String {
            let start = index
            index += 1
            var out: [UInt8] = []
            while true {
                guard let byte = peek else {
                    throw PlistError(file: file, line: line(at: start), message: "a quoted string is never closed")
                }
                index += 1
                if byte == quote { break }
                guard byte == UInt8(ascii: "\\") else {
                    out.append(byte)
                    continue
                }
                guard let escaped = peek else { throw error("a quoted string ends in a backslash") }
                index += 1
                switch escaped {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "a"): out.append(7)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "v"): out.append(11)
                case UInt8(ascii: "U"), UInt8(ascii: "u"):
                    var value: UInt32 = 0
                    var digits = 0
                    while digits < 4, let hex = peek, let digit = hexDigitValue(hex) {
                        value = value * 16 + UInt32(digit)
                        index += 1
                        digits += 1
                    }
                    guard digits > 0 else { throw error("\\U without hexadecimal digits") }
                    // A surrogate pair, as \Ud83d\Ude00.
                    if (0xD800...0xDBFF).contains(value), peek == UInt8(ascii: "\\"), index + 1 < bytes.count,
                        bytes[index + 1] == UInt8(ascii: "U") || bytes[index + 1] == UInt8(ascii: "u")
                    {
                        let save = index
                        index += 2
                        var low: UInt32 = 0
                        var count = 0
                        while count < 4, let hex = peek, let digit = hexDigitValue(hex) {
                            low = low * 16 + UInt32(digit)
                            index += 1
                            count += 1
                        }
                        if count == 4, (0xDC00...0xDFFF).contains(low) {
                            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index = save
                        }
                    }
                    out.append(contentsOf: Array(String(UnicodeScalar(value).map(Character.init) ?? "\u{FFFD}").utf8))
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = UInt32(escaped - UInt8(ascii: "0"))
                    var digits = 1
                    while digits < 3, let octal = peek, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(octal) {
                        value = value * 8 + UInt32(octal - UInt8(ascii: "0"))
                        index += 1
                        digits += 1
                    }
                    out.append(contentsOf: Array(String(UnicodeScalar(value).map(Character.init) ?? "\u{FFFD}").utf8))
                default: out.append(escaped)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        mutating func data() throws(PlistError) -> Data {
            var out: [UInt8] = []
            var high: UInt8?
            while true {
                try skipSpace()
                guard let byte = peek else { throw error("data is never closed with '>'") }
                index += 1
                if byte == UInt8(ascii: ">") {
                    guard high == nil else { throw error("data has an odd number of hexadecimal digits") }
                    return Data(out)
                }
                guard let digit = hexDigitValue(byte) else { throw error("data holds a character that is not a hexadecimal digit") }
                if let first = high {
                    out.append(first << 4 | digit)
                    high = nil
                } else {
                    high = digit
                }
            }
        }
    }
}
