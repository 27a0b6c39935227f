import FoundationEssentials

/// Writes one message's fields in order. `message` runs the same writing twice: first only
/// counting the bytes, then storing them in a buffer of that size, so the size cannot disagree with
/// the fields.
struct MessageWriter {
    /// Nil while counting.
    private let base: UnsafeMutableRawPointer?
    private(set) var offset = 0

    /// A whole message: its length, its type, and the fields `write` writes.
    static func message(_ tag: WorkerMessage.Tag, _ write: (inout MessageWriter) -> Void) -> [UInt8] {
        var counter = MessageWriter(base: nil)
        write(&counter)
        let total = 4 + 1 + counter.offset
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            var writer = MessageWriter(base: UnsafeMutableRawPointer(buffer.baseAddress!))
            writer.integer(UInt32(1 + counter.offset))
            writer.integer(tag.rawValue)
            write(&writer)
            count = total
        }
    }

    private init(base: UnsafeMutableRawPointer?) { self.base = base }

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        base.map { ($0 + offset).storeBytes(of: value.littleEndian, as: T.self) }
        offset += MemoryLayout<T>.size
    }

    mutating func date(_ date: Date) { integer(date.timeIntervalSince1970.bitPattern) }

    mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        if let base, let source = bytes.baseAddress { (base + offset).copyMemory(from: source, byteCount: bytes.count) }
        offset += bytes.count
    }

    mutating func raw(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw($0) }
    }

    mutating func data(_ data: [UInt8]) {
        integer(UInt32(data.count))
        raw(data)
    }

    /// Its UTF-8, counted; `inout` only to read a native string's bytes in place.
    mutating func string(_ string: inout String) {
        string.withUTF8 { utf8 in
            integer(UInt32(utf8.count))
            raw(UnsafeRawBufferPointer(utf8))
        }
    }
}

/// Reads one message's fields in order, each checked against what is left.
struct MessageReader {
    private let fields: UnsafeRawBufferPointer
    private var offset = 0

    init(_ fields: UnsafeRawBufferPointer) { self.fields = fields }

    var remaining: Int { fields.count - offset }
    var isAtEnd: Bool { offset == fields.count }

    private mutating func take(_ count: Int, _ what: String) throws(ChannelError) -> UnsafeRawBufferPointer {
        guard count <= remaining else { throw .malformed("\(what) is cut short") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: fields[offset..<offset + count])
    }

    mutating func integer<T: FixedWidthInteger>(_ what: String) throws(ChannelError) -> T {
        T(littleEndian: try take(MemoryLayout<T>.size, what).loadUnaligned(as: T.self))
    }

    mutating func date(_ what: String) throws(ChannelError) -> Date {
        let seconds = Double(bitPattern: try integer(what))
        guard seconds.isFinite else { throw .malformed("\(what) is not a finite time") }
        return Date(timeIntervalSince1970: seconds)
    }

    mutating func data(_ what: String) throws(ChannelError) -> [UInt8] {
        let count = Int(try integer(what) as UInt32)
        return Array(try take(count, what))
    }

    mutating func string(_ what: String) throws(ChannelError) -> String {
        let count = Int(try integer(what) as UInt32)
        return String(decoding: try take(count, what), as: UTF8.self)
    }

    mutating func optionalString(_ what: String) throws(ChannelError) -> String? {
        switch try integer(what) as UInt8 {
        case 0: return nil
        case 1: return try string(what)
        case let other: throw .malformed("\(what) has an unknown presence flag \(other)")
        }
    }

    mutating func rest() -> UnsafeRawBufferPointer {
        defer { offset = fields.count }
        return UnsafeRawBufferPointer(rebasing: fields[offset...])
    }
}
