import CWidgetABI
import Glibc

/// The size of each growable struct as each minor version defined it: the end of its last field in
/// that version (the header's `WIDGET_*_SIZE_1_x`, which Swift cannot import). Later minor versions
/// only append fields, so these never change; a reader accepts any `struct_size` at least the 1.0
/// size, and reads a later field only when `struct_size` covers it (`copy` leaves the others zero).
/// (Comparing with the current `MemoryLayout.size` instead would make a future host refuse every 1.0
/// bundle.)
package enum ABISize {
    private static let pointer = MemoryLayout<UnsafeRawPointer>.size

    package static let bundle = bundle(forMinor: 0)
    package static let descriptor = descriptor(forMinor: 0)
    package static let result = MemoryLayout<widget_result_t>.offset(of: \.error_message)! + pointer

    /// `widget_host_t` of ABI 1.`minor` (WIDGET_HOST_SIZE_1_x): a bundle reads `bundle_path` only
    /// when the host's `struct_size` is at least the 1.6 size.
    package static func host(forMinor minor: UInt32) -> Int {
        let layout = MemoryLayout<widget_host_t>.self
        return minor < 6 ? layout.offset(of: \.log)! + pointer : layout.offset(of: \.bundle_path)! + pointer
    }

    /// `widget_bundle_t` of ABI 1.`minor` (WIDGET_BUNDLE_SIZE_1_x).
    package static func bundle(forMinor minor: UInt32) -> Int {
        let layout = MemoryLayout<widget_bundle_t>.self
        switch minor {
        case 0: return layout.offset(of: \.shutdown)! + pointer
        case 1, 2: return layout.offset(of: \.memory_limit)! + MemoryLayout<UInt64>.size
        case 3, 4: return layout.offset(of: \.url_schemes)! + pointer
        case 5: return layout.offset(of: \.homepage)! + pointer
        default: return layout.offset(of: \.app_groups)! + pointer
        }
    }

    /// `widget_descriptor_t` of ABI 1.`minor` (WIDGET_DESCRIPTOR_SIZE_1_x).
    package static func descriptor(forMinor minor: UInt32) -> Int {
        let layout = MemoryLayout<widget_descriptor_t>.self
        return minor < 2 ? layout.offset(of: \.flags)! + MemoryLayout<UInt32>.size : layout.offset(of: \.configuration_schema)! + pointer
    }

    /// `widget_request_t` of ABI 1.`minor` (WIDGET_REQUEST_SIZE_1_x): what a host puts in the
    /// `struct_size` of a request to a bundle of that version, so it never shows the bundle a field
    /// newer than the bundle.
    package static func request(forMinor minor: UInt32) -> Int {
        let layout = MemoryLayout<widget_request_t>.self
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

    /// Reads a struct's `struct_size`, its first field.
    package static func declared(_ pointer: UnsafeRawPointer) -> Int {
        Int(pointer.load(as: UInt32.self))
    }

    /// Reads a bundle's `struct_size`, which follows its `abi_version`.
    package static func declared(bundle pointer: UnsafeRawPointer) -> Int {
        Int(pointer.load(fromByteOffset: MemoryLayout<widget_bundle_t>.offset(of: \.struct_size)!, as: UInt32.self))
    }
}
