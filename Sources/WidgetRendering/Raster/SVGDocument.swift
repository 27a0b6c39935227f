import FoundationEssentials
import Glibc

/// An SVG document read back into elements, for the painter that draws the SVG renderer's drawings
/// with cairo (`SVGPainter`). It reads XML as that renderer writes it: elements, attributes in
/// quotes, the five named entities and numeric ones, text; a comment, a processing instruction or a
/// declaration is skipped. Anything else is an error that names where it is.
struct SVGElement: Equatable {
    var name: String
    var attributes: [String: String]
    var children: [SVGElement]
    /// The characters directly inside it (a `<text>`'s words).
    var text: String

    subscript(_ attribute: String) -> String? { attributes[attribute] }

    /// The document's root element.
    static func parse(_ source: String) throws(SVGUnsupported) -> SVGElement {
        var reader = XMLReader(bytes: Array(source.utf8))
        return try reader.document()
    }
}

/// Why the painter cannot draw a drawing itself (librsvg then may): the construct and where.
struct SVGUnsupported: Error, CustomStringConvertible, Equatable {
    let description: String
    init(_ description: String) { self.description = description }
}

private struct XMLReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(SVGUnsupported) -> SVGElement {
        try skipMisc()
        guard peek == UInt8(ascii: "<") else { throw failure("no element") }
        let root = try readElement()
        try skipMisc()
        guard offset == bytes.count else { throw failure("more after the root element") }
        return root
    }

    private var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private func failure(_ reason: String) -> SVGUnsupported {
        SVGUnsupported("the SVG is not XML the painter reads: \(reason) at byte \(offset)")
    }

    private func starts(with text: String) -> Bool {
        let prefix = Array(text.utf8)
        return offset + prefix.count <= bytes.count && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
    }

    /// Skips to after `terminator`.
    private mutating func skip(past terminator: String) throws(SVGUnsupported) {
        while offset < bytes.count, !starts(with: terminator) { offset += 1 }
        guard offset < bytes.count else { throw failure("no \(terminator)") }
        offset += terminator.utf8.count
    }

    /// Whitespace, comments, `<?…?>` and `<!DOCTYPE…>`.
    private mutating func skipMisc() throws(SVGUnsupported) {
        while true {
            skipSpace()
            if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!") {
                try skip(past: ">")
            } else {
                return
            }
        }
    }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
    }

    private mutating func name() throws(SVGUnsupported) -> String {
        let start = offset
        while let byte = peek, byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D, byte != UInt8(ascii: "="), byte != UInt8(ascii: ">"),
            byte != UInt8(ascii: "/"), byte != UInt8(ascii: "<")
        {
            offset += 1
        }
        guard offset > start else { throw failure("a name expected") }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func readElement() throws(SVGUnsupported) -> SVGElement {
        offset += 1  // <
        var element = SVGElement(name: try name(), attributes: [:], children: [], text: "")
        while true {
            skipSpace()
            guard let byte = peek else { throw failure("<\(element.name)> not ended") }
            if byte == UInt8(ascii: "/") {
                offset += 1
                guard peek == UInt8(ascii: ">") else { throw failure("/ without >") }
                offset += 1
                return element
            }
            if byte == UInt8(ascii: ">") {
                offset += 1
                break
            }
            let attribute = try name()
            skipSpace()
            guard peek == UInt8(ascii: "=") else { throw failure("attribute \(attribute) without a value") }
            offset += 1
            skipSpace()
            guard let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw failure("attribute \(attribute) not quoted") }
            offset += 1
            let start = offset
            while let byte = peek, byte != quote { offset += 1 }
            guard offset < bytes.count else { throw failure("attribute \(attribute) not ended") }
            element.attributes[attribute] = try decode(start..<offset)
            offset += 1
        }
        // Content: children and text, to the end tag.
        while true {
            let start = offset
            while let byte = peek, byte != UInt8(ascii: "<") { offset += 1 }
            if offset > start { element.text += try decode(start..<offset) }
            guard offset < bytes.count else { throw failure("</\(element.name)> missing") }
            if starts(with: "</") {
                offset += 2
                let closing = try name()
                guard closing == element.name else { throw failure("</\(closing)> ends <\(element.name)>") }
                skipSpace()
                guard peek == UInt8(ascii: ">") else { throw failure("</\(closing) without >") }
                offset += 1
                return element
            }
            if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                offset += 9
                let textStart = offset
                try skip(past: "]]>")
                element.text += String(decoding: bytes[textStart..<offset - 3], as: UTF8.self)
            } else if starts(with: "<?") {
                try skip(past: "?>")
            } else {
                element.children.append(try readElement())
            }
        }
    }

    /// Text with its entities replaced.
    private func decode(_ range: Range<Int>) throws(SVGUnsupported) -> String {
        guard bytes[range].contains(UInt8(ascii: "&")) else { return String(decoding: bytes[range], as: UTF8.self) }
        var result = ""
        var index = range.lowerBound
        var plain = index
        while index < range.upperBound {
            guard bytes[index] == UInt8(ascii: "&") else {
                index += 1
                continue
            }
            result += String(decoding: bytes[plain..<index], as: UTF8.self)
            guard let end = bytes[index..<range.upperBound].firstIndex(of: UInt8(ascii: ";")) else {
                throw SVGUnsupported("the SVG is not XML the painter reads: & without ; at byte \(index)")
            }
            let entity = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let value: UInt32? =
                    entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                guard let value, let scalar = Unicode.Scalar(value) else {
                    throw SVGUnsupported("the SVG is not XML the painter reads: the entity &\(entity); at byte \(index)")
                }
                result.unicodeScalars.append(scalar)
            }
            index = end + 1
            plain = index
        }
        return result + String(decoding: bytes[plain..<range.upperBound], as: UTF8.self)
    }
}

/// SVG path data (`d`) as absolute moves, lines, cubic curves and closes: every command of SVG 1.1,
/// relative ones made absolute, quadratic curves raised to cubic, arcs drawn as cubic curves.
enum SVGPath {
    enum Segment: Equatable {
        case move(Double, Double)
        case line(Double, Double)
        case curve(Double, Double, Double, Double, Double, Double)
        case close
    }

    static func parse(_ data: String) throws(SVGUnsupported) -> [Segment] {
        var scanner = NumberScanner(bytes: Array(data.utf8))
        var segments: [Segment] = []
        var (x, y) = (0.0, 0.0)
        var (startX, startY) = (0.0, 0.0)
        // The last control point, for the smooth curves (S, T), and which kind it was.
        var lastCubic: (Double, Double)?
        var lastQuadratic: (Double, Double)?
        var command: UInt8?
        while true {
            scanner.skipSeparators()
            guard let byte = scanner.peek else { break }
            if (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") {
                command = byte
                scanner.offset += 1
            } else if command == nil || command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
                throw SVGUnsupported("path data \"\(data.prefix(40))\": a number without a command at byte \(scanner.offset)")
            }
            guard let code = command else { break }
            let relative = code >= UInt8(ascii: "a")
            let (ox, oy) = relative ? (x, y) : (0, 0)
            func number() throws(SVGUnsupported) -> Double {
                guard let value = scanner.number() else {
                    throw SVGUnsupported("path data \"\(data.prefix(40))\": a number expected at byte \(scanner.offset)")
                }
                return value
            }
            var cubic: (Double, Double)?
            var quadratic: (Double, Double)?
            switch code | 0x20 {
            case UInt8(ascii: "m"):
                (x, y) = (ox + (try number()), oy + (try number()))
                (startX, startY) = (x, y)
                segments.append(.move(x, y))
                // Pairs after a move are lines.
                command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
            case UInt8(ascii: "l"):
                (x, y) = (ox + (try number()), oy + (try number()))
                segments.append(.line(x, y))
            case UInt8(ascii: "h"):
                x = ox + (try number())
                segments.append(.line(x, y))
            case UInt8(ascii: "v"):
                y = (relative ? y : 0) + (try number())
                segments.append(.line(x, y))
            case UInt8(ascii: "c"):
                let (x1, y1, x2, y2) = (ox + (try number()), oy + (try number()), ox + (try number()), oy + (try number()))
                (x, y) = (ox + (try number()), oy + (try number()))
                segments.append(.curve(x1, y1, x2, y2, x, y))
                cubic = (x2, y2)
            case UInt8(ascii: "s"):
                let (x1, y1) = lastCubic.map { (2 * x - $0.0, 2 * y - $0.1) } ?? (x, y)
                let (x2, y2) = (ox + (try number()), oy + (try number()))
                (x, y) = (ox + (try number()), oy + (try number()))
                segments.append(.curve(x1, y1, x2, y2, x, y))
                cubic = (x2, y2)
            case UInt8(ascii: "q"):
                let (qx, qy) = (ox + (try number()), oy + (try number()))
                let (ex, ey) = (ox + (try number()), oy + (try number()))
                segments.append(raised(from: (x, y), control: (qx, qy), to: (ex, ey)))
                (x, y) = (ex, ey)
                quadratic = (qx, qy)
            case UInt8(ascii: "t"):
                let (qx, qy) = lastQuadratic.map { (2 * x - $0.0, 2 * y - $0.1) } ?? (x, y)
                let (ex, ey) = (ox + (try number()), oy + (try number()))
                segments.append(raised(from: (x, y), control: (qx, qy), to: (ex, ey)))
                (x, y) = (ex, ey)
                quadratic = (qx, qy)
            case UInt8(ascii: "a"):
                let (rx, ry, rotation) = (try number(), try number(), try number())
                guard let large = scanner.flag(), let sweep = scanner.flag() else {
                    throw SVGUnsupported("path data \"\(data.prefix(40))\": an arc's flag expected at byte \(scanner.offset)")
                }
                let (ex, ey) = (ox + (try number()), oy + (try number()))
                segments += arc(from: (x, y), to: (ex, ey), radii: (rx, ry), rotation: rotation, large: large, sweep: sweep)
                (x, y) = (ex, ey)
            case UInt8(ascii: "z"):
                segments.append(.close)
                (x, y) = (startX, startY)
            default:
                throw SVGUnsupported("path data \"\(data.prefix(40))\": no command \(Character(Unicode.Scalar(code)))")
            }
            lastCubic = cubic
            lastQuadratic = quadratic
        }
        return segments
    }

    private static func raised(from p0: (Double, Double), control q: (Double, Double), to p1: (Double, Double)) -> Segment {
        .curve(p0.0 + 2 / 3 * (q.0 - p0.0), p0.1 + 2 / 3 * (q.1 - p0.1), p1.0 + 2 / 3 * (q.0 - p1.0), p1.1 + 2 / 3 * (q.1 - p1.1), p1.0, p1.1)
    }

    /// An elliptical arc (SVG's endpoint form) as cubic curves of at most a quarter turn each
    /// (SVG 1.1, appendix F.6: the centre found, radii too small for the ends scaled up).
    static func arc(
        from start: (Double, Double), to end: (Double, Double), radii: (Double, Double), rotation: Double, large: Bool, sweep: Bool
    ) -> [Segment] {
        var (rx, ry) = (abs(radii.0), abs(radii.1))
        guard start != end else { return [] }
        guard rx > 0, ry > 0 else { return [.line(end.0, end.1)] }
        let phi = rotation * .pi / 180
        let (cosPhi, sinPhi) = (cos(phi), sin(phi))
        let (dx, dy) = ((start.0 - end.0) / 2, (start.1 - end.1) / 2)
        let x1 = cosPhi * dx + sinPhi * dy
        let y1 = -sinPhi * dx + cosPhi * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            rx *= lambda.squareRoot()
            ry *= lambda.squareRoot()
        }
        let numerator = max(0, rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1)
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var factor = denominator > 0 ? (numerator / denominator).squareRoot() : 0
        if large == sweep { factor = -factor }
        let cx1 = factor * rx * y1 / ry
        let cy1 = -factor * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (start.0 + end.0) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (start.1 + end.1) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep, delta > 0 { delta -= 2 * .pi }
        if sweep, delta < 0 { delta += 2 * .pi }
        let pieces = max(1, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = delta / Double(pieces)
        let k = 4 / 3 * tan(step / 4)
        func point(_ t: Double) -> (Double, Double) {
            let (px, py) = (rx * cos(t), ry * sin(t))
            return (cx + cosPhi * px - sinPhi * py, cy + sinPhi * px + cosPhi * py)
        }
        func derivative(_ t: Double) -> (Double, Double) {
            let (px, py) = (-rx * sin(t), ry * cos(t))
            return (cosPhi * px - sinPhi * py, sinPhi * px + cosPhi * py)
        }
        var segments: [Segment] = []
        var t = theta
        for index in 0..<pieces {
            let next = t + step
            let (p0, p1) = (point(t), index == pieces - 1 ? end : point(next))
            let (d0, d1) = (derivative(t), derivative(next))
            segments.append(.curve(p0.0 + k * d0.0, p0.1 + k * d0.1, p1.0 - k * d1.0, p1.1 - k * d1.1, p1.0, p1.1))
            t = next
        }
        return segments
    }
}

/// Numbers as SVG writes them in path data and lists: signs, decimals, exponents, separated by
/// whitespace or commas or by nothing where a sign or a second point starts the next.
struct NumberScanner {
    let bytes: [UInt8]
    var offset = 0

    var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipSeparators() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ",") { offset += 1 }
    }

    mutating func number() -> Double? {
        skipSeparators()
        let start = offset
        if let byte = peek, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") { offset += 1 }
        var digits = 0
        while let byte = peek, byte >= 0x30, byte <= 0x39 {
            offset += 1
            digits += 1
        }
        if peek == UInt8(ascii: ".") {
            offset += 1
            while let byte = peek, byte >= 0x30, byte <= 0x39 {
                offset += 1
                digits += 1
            }
        }
        guard digits > 0 else {
            offset = start
            return nil
        }
        if let byte = peek, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            let mark = offset
            offset += 1
            if let sign = peek, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { offset += 1 }
            var exponentDigits = 0
            while let byte = peek, byte >= 0x30, byte <= 0x39 {
                offset += 1
                exponentDigits += 1
            }
            if exponentDigits == 0 { offset = mark }
        }
        guard let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// An arc's flag: one `0` or `1`, which may touch what follows.
    mutating func flag() -> Bool? {
        skipSeparators()
        guard let byte = peek, byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") else { return nil }
        offset += 1
        return byte == UInt8(ascii: "1")
    }

    /// All the numbers of a list ("1 2,3"); nil if something else is in it.
    static func list(_ text: String) -> [Double]? {
        var scanner = NumberScanner(bytes: Array(text.utf8))
        var numbers: [Double] = []
        while true {
            scanner.skipSeparators()
            guard scanner.peek != nil else { return numbers }
            guard let number = scanner.number() else { return nil }
            numbers.append(number)
        }
    }
}
