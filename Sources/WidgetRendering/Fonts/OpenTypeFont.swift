/// What a layout needs of an OpenType font, read from the file itself: its units per em, its
/// vertical metrics (`hhea`), each glyph's advance (`hmtx`), which glyph draws a character (`cmap`,
/// formats 4 and 12), and its kerning (`GPOS` pair adjustments of the `kern` feature, formats 1 and
/// 2, through extension lookups too; else an old `kern` table). Nothing is drawn from it: a browser
/// draws the same font, so what is measured here is what is shown.
struct OpenTypeFont: Sendable {
    let unitsPerEm: Int
    let ascender: Int
    let descender: Int
    let lineGap: Int
    /// Where a line through the text lies (its top, above the baseline) and how thick (`OS/2`);
    /// nil in a font without the table.
    let strikeout: (position: Int, size: Int)?
    /// Where a line under the text lies (its middle, below the baseline is negative) and how thick (`post`).
    let underline: (position: Int, thickness: Int)?
    private let advances: [UInt16]
    /// The basic plane's glyphs by code point (0: none), looked up without hashing; the rest by map.
    private let basic: [UInt16]
    private let glyphs: [UInt32: UInt16]
    private let pairs: [PairAdjustment]

    /// A font's bytes, checked as they are read: a table out of the file's bounds, or a font without
    /// the tables measuring needs, is an error naming what is wrong.
    init(bytes: [UInt8]) throws(FontError) {
        let file = FontBytes(bytes)
        let tables = try Self.tables(file)
        func table(_ tag: String) throws(FontError) -> Int {
            guard let offset = tables[tag] else { throw FontError("the font has no '\(tag)' table") }
            return offset
        }
        let head = try table("head")
        unitsPerEm = Int(try file.u16(head + 18))
        guard unitsPerEm > 0 else { throw FontError("the font's unitsPerEm is 0") }
        let hhea = try table("hhea")
        ascender = Int(try file.i16(hhea + 4))
        descender = Int(try file.i16(hhea + 6))
        lineGap = Int(try file.i16(hhea + 8))
        strikeout = try tables["OS/2"].map { table throws(FontError) in (Int(try file.i16(table + 28)), Int(try file.i16(table + 26))) }
        underline = try tables["post"].map { table throws(FontError) in (Int(try file.i16(table + 8)), Int(try file.i16(table + 10))) }
        let metricsCount = Int(try file.u16(hhea + 34))
        let hmtx = try table("hmtx")
        var advances: [UInt16] = []
        advances.reserveCapacity(metricsCount)
        for index in 0..<metricsCount { advances.append(try file.u16(hmtx + index * 4)) }
        self.advances = advances
        let map = try Self.characterMap(file, at: try table("cmap"))
        var basic = [UInt16](repeating: 0, count: 0x1_0000)
        for (code, glyph) in map where code < 0x1_0000 { basic[Int(code)] = glyph }
        self.basic = basic
        glyphs = map.filter { $0.key >= 0x1_0000 }
        if let gpos = tables["GPOS"] {
            pairs = try Self.kerningLookups(file, gpos: gpos)
        } else {
            pairs = []
        }
    }

    /// The glyph that draws a character, if the font has one.
    func glyph(for scalar: Unicode.Scalar) -> UInt16? {
        if scalar.value < 0x1_0000 {
            let glyph = basic[Int(scalar.value)]
            return glyph == 0 ? nil : glyph
        }
        return glyphs[scalar.value]
    }

    /// A glyph's advance, in font units (glyphs past the metrics share the last advance).
    func advance(_ glyph: UInt16) -> Int {
        guard !advances.isEmpty else { return 0 }
        return Int(advances[min(Int(glyph), advances.count - 1)])
    }

    /// The kerning between two glyphs, in font units: the first pair adjustment that covers them.
    func kerning(_ left: UInt16, _ right: UInt16) -> Int {
        for pair in pairs {
            if let value = pair.adjustment(left, right) { return value }
        }
        return 0
    }

    // MARK: Tables

    /// The table directory: each table's offset, by tag.
    private static func tables(_ file: FontBytes) throws(FontError) -> [String: Int] {
        let version = try file.u32(0)
        guard version == 0x0001_0000 || version == 0x4F54_544F || version == 0x7472_7565 else {
            throw FontError("not an OpenType or TrueType font (it starts with 0x\(String(version, radix: 16)))")
        }
        let count = Int(try file.u16(4))
        var tables: [String: Int] = [:]
        for index in 0..<count {
            let record = 12 + index * 16
            let tag = String(decoding: try file.slice(record, 4), as: UTF8.self)
            let offset = Int(try file.u32(record + 8))
            let length = Int(try file.u32(record + 12))
            guard offset + length <= file.count else { throw FontError("its '\(tag)' table lies past the end of the file") }
            tables[tag] = offset
        }
        return tables
    }

    /// The Unicode character map: the first Unicode subtable of format 12 (every plane), else of
    /// format 4 (the basic plane).
    private static func characterMap(_ file: FontBytes, at cmap: Int) throws(FontError) -> [UInt32: UInt16] {
        let count = Int(try file.u16(cmap + 2))
        var format4: Int?
        var format12: Int?
        for index in 0..<count {
            let record = cmap + 4 + index * 8
            let (platform, encoding) = (try file.u16(record), try file.u16(record + 2))
            guard platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10)) else { continue }
            let subtable = cmap + Int(try file.u32(record + 4))
            switch try file.u16(subtable) {
            case 12 where format12 == nil: format12 = subtable
            case 4 where format4 == nil: format4 = subtable
            default: break
            }
        }
        var map: [UInt32: UInt16] = [:]
        if let subtable = format12 {
            let groups = Int(try file.u32(subtable + 12))
            for group in 0..<groups {
                let record = subtable + 16 + group * 12
                let (start, end, first) = (try file.u32(record), try file.u32(record + 4), try file.u32(record + 8))
                guard start <= end, end < 0x11_0000, map.count + Int(end - start) < 0x11_0000 else {
                    throw FontError("a character map group runs backwards or past Unicode")
                }
                for code in start...end { map[code] = UInt16(truncatingIfNeeded: first &+ (code - start)) }
            }
            return map
        }
        guard let subtable = format4 else { throw FontError("the font has no Unicode character map of format 4 or 12") }
        let segments = Int(try file.u16(subtable + 6)) / 2
        let ends = subtable + 14
        let starts = ends + segments * 2 + 2
        let deltas = starts + segments * 2
        let rangeOffsets = deltas + segments * 2
        for segment in 0..<segments {
            let (start, end) = (try file.u16(starts + segment * 2), try file.u16(ends + segment * 2))
            let delta = try file.u16(deltas + segment * 2)
            let rangeOffset = Int(try file.u16(rangeOffsets + segment * 2))
            guard start <= end, start != 0xFFFF else { continue }
            for code in start...end {
                var glyph: UInt16
                if rangeOffset == 0 {
                    glyph = code &+ delta
                } else {
                    let at = rangeOffsets + segment * 2 + rangeOffset + Int(code - start) * 2
                    glyph = try file.u16(at)
                    if glyph != 0 { glyph = glyph &+ delta }
                }
                if glyph != 0 { map[UInt32(code)] = glyph }
            }
        }
        return map
    }

    /// The pair adjustments of the `kern` feature, in lookup order.
    private static func kerningLookups(_ file: FontBytes, gpos: Int) throws(FontError) -> [PairAdjustment] {
        let features = gpos + Int(try file.u16(gpos + 6))
        let lookups = gpos + Int(try file.u16(gpos + 8))
        var indices: [Int] = []
        for index in 0..<Int(try file.u16(features)) {
            let record = features + 2 + index * 6
            guard String(decoding: try file.slice(record, 4), as: UTF8.self) == "kern" else { continue }
            let feature = features + Int(try file.u16(record + 4))
            for lookup in 0..<Int(try file.u16(feature + 2)) {
                let number = Int(try file.u16(feature + 4 + lookup * 2))
                if !indices.contains(number) { indices.append(number) }
            }
        }
        var pairs: [PairAdjustment] = []
        let lookupCount = Int(try file.u16(lookups))
        for number in indices.sorted() where number < lookupCount {
            let lookup = lookups + Int(try file.u16(lookups + 2 + number * 2))
            let type = try file.u16(lookup)
            for index in 0..<Int(try file.u16(lookup + 4)) {
                var subtable = lookup + Int(try file.u16(lookup + 6 + index * 2))
                var subtableType = type
                if type == 9 {
                    subtableType = try file.u16(subtable + 2)
                    subtable += Int(try file.u32(subtable + 4))
                }
                guard subtableType == 2 else { continue }
                if let pair = try PairAdjustment(file, at: subtable) { pairs.append(pair) }
            }
        }
        return pairs
    }
}

/// One `PairPos` subtable: the horizontal advance adjustment of a first glyph followed by a second,
/// by glyph pairs (format 1) or by classes of glyphs (format 2).
private struct PairAdjustment: Sendable {
    let coverage: Coverage
    let values: Values

    enum Values: Sendable {
        /// For each covered first glyph: its second glyphs, sorted, with the adjustment.
        case pairs([[(second: UInt16, value: Int16)]])
        /// The classes of first and second glyphs, and the adjustment of each pair of classes.
        case classes(first: ClassDefinition, second: ClassDefinition, secondCount: Int, matrix: [Int16])
    }

    init?(_ file: FontBytes, at subtable: Int) throws(FontError) {
        let format = try file.u16(subtable)
        coverage = try Coverage(file, at: subtable + Int(try file.u16(subtable + 2)))
        let (first, second) = (try file.u16(subtable + 4), try file.u16(subtable + 6))
        // The first glyph's advance is what kerning changes; other adjustments are not read.
        let size1 = first.nonzeroBitCount * 2
        let size2 = second.nonzeroBitCount * 2
        let advanceAt: Int? = first & 0x4 == 0 ? nil : (first & 0x1 == 0 ? 0 : 2) + (first & 0x2 == 0 ? 0 : 2)
        switch format {
        case 1:
            var sets: [[(second: UInt16, value: Int16)]] = []
            for index in 0..<Int(try file.u16(subtable + 8)) {
                let set = subtable + Int(try file.u16(subtable + 10 + index * 2))
                var list: [(second: UInt16, value: Int16)] = []
                for record in 0..<Int(try file.u16(set)) {
                    let at = set + 2 + record * (2 + size1 + size2)
                    let value = try advanceAt.map { offset throws(FontError) in try file.i16(at + 2 + offset) } ?? 0
                    list.append((try file.u16(at), value))
                }
                sets.append(list)
            }
            values = .pairs(sets)
        case 2:
            let firstClasses = try ClassDefinition(file, at: subtable + Int(try file.u16(subtable + 8)))
            let secondClasses = try ClassDefinition(file, at: subtable + Int(try file.u16(subtable + 10)))
            let (count1, count2) = (Int(try file.u16(subtable + 12)), Int(try file.u16(subtable + 14)))
            var matrix: [Int16] = []
            matrix.reserveCapacity(count1 * count2)
            for class1 in 0..<count1 {
                for class2 in 0..<count2 {
                    let at = subtable + 16 + (class1 * count2 + class2) * (size1 + size2)
                    matrix.append(try advanceAt.map { offset throws(FontError) in try file.i16(at + offset) } ?? 0)
                }
            }
            values = .classes(first: firstClasses, second: secondClasses, secondCount: count2, matrix: matrix)
        default:
            return nil
        }
    }

    /// The adjustment of `left` followed by `right`, if this subtable covers the pair.
    func adjustment(_ left: UInt16, _ right: UInt16) -> Int? {
        guard let index = coverage.index(of: left) else { return nil }
        switch values {
        case .pairs(let sets):
            guard index < sets.count else { return nil }
            let list = sets[index]
            var (low, high) = (0, list.count - 1)
            while low <= high {
                let middle = (low + high) / 2
                if list[middle].second == right { return Int(list[middle].value) }
                if list[middle].second < right { low = middle + 1 } else { high = middle - 1 }
            }
            return nil
        case .classes(let first, let second, let count, let matrix):
            let at = first.classOf(left) * count + second.classOf(right)
            return at < matrix.count ? Int(matrix[at]) : nil
        }
    }
}

/// The glyphs a subtable covers, and each one's index among them.
private enum Coverage: Sendable {
    case list([UInt16])
    case ranges([(start: UInt16, end: UInt16, index: Int)])

    init(_ file: FontBytes, at offset: Int) throws(FontError) {
        switch try file.u16(offset) {
        case 1:
            self = .list(try (0..<Int(try file.u16(offset + 2))).map { index throws(FontError) in try file.u16(offset + 4 + index * 2) })
        case 2:
            self = .ranges(
                try (0..<Int(try file.u16(offset + 2))).map { index throws(FontError) in
                    let record = offset + 4 + index * 6
                    return (try file.u16(record), try file.u16(record + 2), Int(try file.u16(record + 4)))
                })
        case let format:
            throw FontError("a coverage table of unknown format \(format)")
        }
    }

    func index(of glyph: UInt16) -> Int? {
        switch self {
        case .list(let glyphs):
            var (low, high) = (0, glyphs.count - 1)
            while low <= high {
                let middle = (low + high) / 2
                if glyphs[middle] == glyph { return middle }
                if glyphs[middle] < glyph { low = middle + 1 } else { high = middle - 1 }
            }
            return nil
        case .ranges(let ranges):
            var (low, high) = (0, ranges.count - 1)
            while low <= high {
                let middle = (low + high) / 2
                let range = ranges[middle]
                if glyph < range.start {
                    high = middle - 1
                } else if glyph > range.end {
                    low = middle + 1
                } else {
                    return range.index + Int(glyph - range.start)
                }
            }
            return nil
        }
    }
}

/// Which class a glyph is of (0 for a glyph not listed).
private struct ClassDefinition: Sendable {
    let ranges: [(start: UInt16, end: UInt16, value: Int)]

    init(_ file: FontBytes, at offset: Int) throws(FontError) {
        switch try file.u16(offset) {
        case 1:
            let start = try file.u16(offset + 2)
            let count = Int(try file.u16(offset + 4))
            var ranges: [(start: UInt16, end: UInt16, value: Int)] = []
            for index in 0..<count {
                let glyph = start &+ UInt16(truncatingIfNeeded: index)
                ranges.append((glyph, glyph, Int(try file.u16(offset + 6 + index * 2))))
            }
            self.ranges = ranges
        case 2:
            self.ranges = try (0..<Int(try file.u16(offset + 2))).map { index throws(FontError) in
                let record = offset + 4 + index * 6
                return (try file.u16(record), try file.u16(record + 2), Int(try file.u16(record + 4)))
            }
        case let format:
            throw FontError("a class definition of unknown format \(format)")
        }
    }

    func classOf(_ glyph: UInt16) -> Int {
        var (low, high) = (0, ranges.count - 1)
        while low <= high {
            let middle = (low + high) / 2
            let range = ranges[middle]
            if glyph < range.start {
                high = middle - 1
            } else if glyph > range.end {
                low = middle + 1
            } else {
                return range.value
            }
        }
        return 0
    }
}

/// Big-endian numbers from a font's bytes, each read checked against its end.
private struct FontBytes {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var count: Int { bytes.count }

    func slice(_ offset: Int, _ length: Int) throws(FontError) -> ArraySlice<UInt8> {
        guard offset >= 0, length >= 0, offset + length <= bytes.count else { throw FontError("a read at byte \(offset) lies past the end of the file") }
        return bytes[offset..<(offset + length)]
    }

    func u16(_ offset: Int) throws(FontError) -> UInt16 {
        let part = try slice(offset, 2)
        return UInt16(part[offset]) << 8 | UInt16(part[offset + 1])
    }

    func i16(_ offset: Int) throws(FontError) -> Int16 { Int16(bitPattern: try u16(offset)) }

    func u32(_ offset: Int) throws(FontError) -> UInt32 {
        let part = try slice(offset, 4)
        return UInt32(part[offset]) << 24 | UInt32(part[offset + 1]) << 16 | UInt32(part[offset + 2]) << 8 | UInt32(part[offset + 3])
    }
}

/// A font that cannot be read, and why.
struct FontError: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}
