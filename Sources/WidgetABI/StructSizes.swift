import CWidgetABI
import Glibc

/// The size of each growable struct as ABI 1.0 defined it: the end of its last 1.0 field. Later minor
/// versions only append fields, so these never change; a reader accepts any `struct_size` at least
/// this, and sees a later field as zero when `struct_size` does not cover it (`copy`). (Comparing with the current
/// `MemoryLayout.size` instead would make a future host refuse every 1.0 bundle.)
package enum ABISize {
    package static let bundle = MemoryLayout<widget_bundle_t>.offset(of: \.shutdown)! + MemoryLayout<UnsafeRawPointer>.size
    package static let descriptor = MemoryLayout<widget_descriptor_t>.offset(of: \.flags)! + MemoryLayout<UInt32>.size
    package static let result = MemoryLayout<widget_result_t>.offset(of: \.error_message)! + MemoryLayout<UnsafeRawPointer>.size

    /// The size of `widget_request_t` as a minor version of ABI 1 defined it: what a host puts in
    /// the `struct_size` of a request to a bundle of that version, so it never shows the bundle a
    /// field newer than the bundle (the header's WIDGET_REQUEST_SIZE_1_x).
    package static func request(forMinor minor: UInt32) -> Int {
        let layout = MemoryLayout<widget_request_t>.self
        let pointer = MemoryLayout<UnsafeRawPointer>.size
        switch minor {
        case 0, 1: return layout.offset(of: \.configuration)! + pointer
        case 2: return layout.offset(of: \.parameter)! + pointer
        case 3: return layout.offset(of: \.intent)! + pointer
        default: return layout.offset(of: \.shows_container_background)! + MemoryLayout<Bool>.size
        }
    }

    /// A copy of a bundle's struct of `declared` bytes: the fields it has, and zero (NULL) for the
    /// fields of later minor versions it lacks, which lie beyond its end and are never read.
    ///
    /// One non-generic function per struct, on purpose: Swift describes an imported C struct with
    /// metadata that the runtime uniques by name across every image in the process. A Swift bundle
    /// built with an older header registers the struct's older, smaller layout under the same name,
    /// and generic code (`load(as: T.self)`, `UnsafeMutablePointer<T>.initialize`) may then copy
    /// only that many bytes. Concrete code uses the layout this host was compiled with.
    package static func copy(_ pointer: UnsafeRawPointer, declared: Int, as type: widget_bundle_t.Type) -> widget_bundle_t {
        var value = widget_bundle_t()
        let count = min(max(0, declared), MemoryLayout<widget_bundle_t>.size)
        withUnsafeMutablePointer(to: &value) { UnsafeMutableRawPointer($0).copyMemory(from: pointer, byteCount: count) }
        return value
    }

    package static func copy(_ pointer: UnsafeRawPointer, declared: Int, as type: widget_descriptor_t.Type) -> widget_descriptor_t {
        var value = widget_descriptor_t()
        let count = min(max(0, declared), MemoryLayout<widget_descriptor_t>.size)
        withUnsafeMutablePointer(to: &value) { UnsafeMutableRawPointer($0).copyMemory(from: pointer, byteCount: count) }
        return value
    }

    /// Reads `struct_size`, which follows `abi_version` in the bundle and comes first elsewhere.
    package static func declared(_ pointer: UnsafeRawPointer, at offset: Int = 0) -> Int {
        Int(pointer.load(fromByteOffset: offset, as: UInt32.self))
    }
}
