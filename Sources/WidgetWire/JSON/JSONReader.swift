extension JSONValue {
    /// The deepest nesting accepted: garbage from a bundle must not exhaust the host's stack.
    public static let maximumDepth = 256

    /// Parses one JSON document (RFC 8259), rejecting trailing content.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw reader.error("trailing content after the document") }
        return value
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// Reads JSON from bytes; shared by `JSONValue.parse` and the wire decoder.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: position, reason: reason) }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func readValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw error("nested deeper than \(JSONValue.maximumDepth) levels") }
        guard position < bytes.count else { throw error("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object(try readObject(depth: depth))
        case UInt8(ascii: "["): return .array(try readArray(depth: depth))
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default:
            // Named so it prints on one line: a control byte, or one of a UTF-8 sequence, by its value.
            let byte = bytes[position]
            throw error(byte >= 0x20 && byte < 0x7F ? "unexpected character '\(Unicode.Scalar(byte))'" : "unexpected byte 0x\(String(byte, radix: 16, uppercase: true))")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("unexpected end of input") }
        for index in 0..<count where bytes[position + index] != literal.utf8Start[index] {
            throw error("expected '\(literal)'")
        }
        position += count
    }

    mutating func readObject(depth: Int) throws(JSONSyntaxError) -> JSONObject {
        position += 1
        var object = JSONObject()
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return object
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try readString()
            if object.members.contains(where: { $0.key == key }) { throw error("duplicate member \"\(key)\"") }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
            position += 1
            skipWhitespace()
            object.members.append((key, try readValue(depth: depth + 1)))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; return object }
            throw error("expected ',' or '}'")
        }
    }

    mutating func readArray(depth: Int) throws(JSONSyntaxError) -> [JSONValue] {
        position += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return array
        }
        while true {
            skipWhitespace()
            array.append(try readValue(depth: depth + 1))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return array }
            throw error("expected ',' or ']'")
        }
    }

    /// Reads a string whose opening quote is at `position`.
    mutating func readString() throws(JSONSyntaxError) -> String {
        let start = position + 1
        if let plain = try readPlainString() {
            if plain.isASCII { return String(decoding: plain.bytes, as: UTF8.self) }
            guard let string = String(validating: plain.bytes, as: UTF8.self) else {
                throw JSONSyntaxError(offset: start, reason: "string is not valid UTF-8")
            }
            return string
        }
        return try readEscapedString(from: start)
    }

    /// A string with no escapes, read in place: its bytes (not yet checked as UTF-8 unless
    /// `isASCII`), with `position` after its closing quote. Nil, with `position` at the first escape,
    /// when it has one. The opening quote is at `position`.
    mutating func readPlainString() throws(JSONSyntaxError) -> (bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool)? {
        let start = position + 1
        var index = start
        var high: UInt8 = 0
        // A local scan: the reader's own fields are not reloaded at every byte.
        let base = bytes.baseAddress
        let end = bytes.count
        // Eight bytes at a time while none of them is a quote, a backslash or a control character.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var highWord: UInt64 = 0
        while index + 8 <= end {
            // Little-endian whatever the machine: the first byte is the lowest, where the search
            // below counts from.
            let word = UInt64(littleEndian: UnsafeRawPointer(base.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // A byte is zero in `quote` or `backslash`, or is below 0x20 in `word`, when its high
            // bit is set here (the classic test; bytes of 0x80 and above never count as below).
            let special = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word) & highBits
            if special != 0 {
                // The lowest flagged byte is a true one (a false flag only follows a true one):
                // the bytes before it are the string's, and the byte itself is the loop's below.
                let before = special.trailingZeroBitCount / 8
                highWord |= word & ((1 &<< (UInt64(before) &* 8)) &- 1)
                index += before
                break
            }
            highWord |= word
            index += 8
        }
        if highWord & highBits != 0 { high = 0x80 }
        while index < end {
            let byte = base.unsafelyUnwrapped[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return (UnsafeBufferPointer(rebasing: bytes[start..<index]), high < 0x80)
            }
            if byte == UInt8(ascii: "\\") {
                position = index
                return nil
            }
            if byte < 0x20 {
                position = index
                throw error("control character in a string")
            }
            high |= byte
            index += 1
        }
        position = index
        throw error("unterminated string")
    }

    /// The rest of a string that has an escape at `position`; its text began at `start`.
    private mutating func readEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: scratch, as: UTF8.self) else {
                    throw JSONSyntaxError(offset: start, reason: "string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw error("unexpected end of input in an escape") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate") }
                        position += 2
                        let low = try readHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired surrogate")
                    }
                    scratch.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default: throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in a string") }
                scratch.append(byte)
                position += 1
            }
        }
        throw error("unterminated string")
    }

    mutating func readHex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("unexpected end of input in \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// 10^0 through 10^15, each exact as a double.
    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    mutating func readNumber() throws(JSONSyntaxError) -> Double {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        func digits(_ reader: inout JSONReader) -> Int {
            let begin = reader.position
            while reader.position < reader.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.position])
            {
                reader.position += 1
            }
            return reader.position - begin
        }
        let integerStart = position
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error("expected a digit") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw JSONSyntaxError(offset: integerStart, reason: "leading zero in a number")
        }
        var fractionDigits = 0
        var hasExponent = false
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            fractionDigits = digits(&self)
            guard fractionDigits > 0 else { throw error("expected a digit after '.'") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            hasExponent = true
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
        }
        // Short numbers (sizes, counts, a score, a fraction of a second): their digits make an
        // integer below 2^53 and the point a power of ten at most 10^15, both exact as doubles, so
        // one division gives the correctly rounded value, as the general conversion would
        // (Clinger's fast path). A whole number divides by 1.
        if !hasExponent, integerDigits + fractionDigits <= 15 {
            var value: Int64 = 0
            var index = integerStart
            while index < position {
                let byte = bytes[index]
                if byte != UInt8(ascii: ".") { value = value * 10 + Int64(byte - UInt8(ascii: "0")) }
                index += 1
            }
            let magnitude = Double(value) / Self.powersOfTen[fractionDigits]
            return bytes[start] == UInt8(ascii: "-") ? -magnitude : magnitude
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError(offset: start, reason: "number out of range")
        }
        return value
    }
}
