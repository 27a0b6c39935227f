import CWidgetABI
import Glibc

/// The size of each growable struct as ABI 1.0 defined it: the end of its last 1.0 field. Later minor
/// versions only append fields, so these never change; a reader accepts any `struct_size` at least
/// this, and sees a later field as zero when `struct_size` does not cover it (`copy`). (Comparing with the current
/// `MemoryLayout.size` instead would make a future host refuse every 1.0 bundle.)
enum ABISize {
    static let bundle = MemoryLayout<widget_bundle_t>.offset(of: \.shutdown)! + MemoryLayout<UnsafeRawPointer>.size
    static let descriptor = MemoryLayout<widget_descriptor_t>.offset(of: \.flags)! + MemoryLayout<UInt32>.size
    static let result = MemoryLayout<widget_result_t>.offset(of: \.error_message)! + MemoryLayout<UnsafeRawPointer>.size

    /// A copy of a bundle's struct of `declared` bytes: the fields it has, and zero (NULL) for the
    /// fields of later minor versions it lacks, which lie beyond its end and are never read.
    ///
    /// One non-generic function per struct, on purpose: Swift describes an imported C struct with
    /// metadata that the runtime uniques by name across every image in the process. A Swift bundle
    /// built with an older header registers the struct's older, smaller layout under the same name,
    /// and generic code (`load(as: T.self)`, `UnsafeMutablePointer<T>.initialize`) may then copy
    /// only that many bytes. Concrete code uses the layout this host was compiled with.
    static func copy(_ pointer: UnsafeRawPointer, declared: Int, as type: widget_bundle_t.Type) -> widget_bundle_t {
        var value = widget_bundle_t()
        let count = min(max(0, declared), MemoryLayout<widget_bundle_t>.size)
        withUnsafeMutablePointer(to: &value) { UnsafeMutableRawPointer($0).copyMemory(from: pointer, byteCount: count) }
        return value
    }

    static func copy(_ pointer: UnsafeRawPointer, declared: Int, as type: widget_descriptor_t.Type) -> widget_descriptor_t {
        var value = widget_descriptor_t()
        let count = min(max(0, declared), MemoryLayout<widget_descriptor_t>.size)
        withUnsafeMutablePointer(to: &value) { UnsafeMutableRawPointer($0).copyMemory(from: pointer, byteCount: count) }
        return value
    }

    /// Reads `struct_size`, which follows `abi_version` in the bundle and comes first elsewhere.
    static func declared(_ pointer: UnsafeRawPointer, at offset: Int = 0) -> Int {
        Int(pointer.load(fromByteOffset: offset, as: UInt32.self))
    }
}

extension String {
    /// Text a bundle handed the host, made safe to print on one line: invalid UTF-8 repaired, control
    /// characters (a newline could forge another diagnostic) replaced by spaces, and at most 500
    /// characters kept.
    init(bundleText pointer: UnsafePointer<CChar>) {
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
    var hasControlCharacters: Bool {
        unicodeScalars.contains(where: \.isControl)
    }
}

extension Unicode.Scalar {
    /// A control character: C0 (below U+0020), DEL, or C1 (U+0080 to U+009F), the general category
    /// Cc. A terminal acts on them (a line break, an escape, a bell) instead of showing them, and
    /// they have no place in a name or a one-line diagnostic.
    var isControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}
