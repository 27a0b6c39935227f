import FoundationEssentials
import Glibc
import WidgetSupport

/// Pixels from the drawings the SVG renderer makes, so that a PNG, a desktop surface and the page
/// show one layout in one font: the SVG is rasterized by librsvg onto a cairo image surface, both
/// loaded with `dlopen` when first asked for (docs/DESKTOP.md). Nothing else of the project needs
/// them; without them this says which Debian package to install.
public final class Rasterizer: @unchecked Sendable {
    /// The libraries, each with the Debian package that provides it.
    static let libraries = [("librsvg-2.so.2", "librsvg2-2"), ("libcairo.so.2", "libcairo2")]

    private let lock = Lock()
    private let newHandle: @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer?
    private let renderDocument: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeRawPointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private let unreference: @convention(c) (OpaquePointer?) -> Void
    private let freeError: @convention(c) (OpaquePointer?) -> Void
    private let createSurface: @convention(c) (Int32, Int32, Int32) -> OpaquePointer?
    private let surfaceStatus: @convention(c) (OpaquePointer?) -> Int32
    private let destroySurface: @convention(c) (OpaquePointer?) -> Void
    private let flushSurface: @convention(c) (OpaquePointer?) -> Void
    private let markDirty: @convention(c) (OpaquePointer?) -> Void
    private let surfaceData: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<UInt8>?
    private let surfaceStride: @convention(c) (OpaquePointer?) -> Int32
    private let surfaceWidth: @convention(c) (OpaquePointer?) -> Int32
    private let surfaceHeight: @convention(c) (OpaquePointer?) -> Int32
    private let createContext: @convention(c) (OpaquePointer?) -> OpaquePointer?
    private let destroyContext: @convention(c) (OpaquePointer?) -> Void
    private let writePNG: @convention(c) (OpaquePointer?, WriteFunction, UnsafeMutableRawPointer?) -> Int32
    private let readPNG: @convention(c) (ReadFunction, UnsafeMutableRawPointer?) -> OpaquePointer?

    typealias WriteFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, UInt32) -> Int32
    typealias ReadFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, UInt32) -> Int32

    /// The rasterizer, its libraries loaded the first time; or why it cannot be had.
    public static func shared() throws(RasterError) -> Rasterizer {
        switch loaded {
        case .success(let rasterizer): return rasterizer
        case .failure(let error): throw error
        }
    }

    private static let loaded = load(libraries)

    /// The rasterizer over `libraries` (librsvg's, then cairo's, each with its package).
    static func load(_ libraries: [(String, String)]) -> Result<Rasterizer, RasterError> {
        var handles: [UnsafeMutableRawPointer] = []
        for (library, package) in libraries {
            guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
                let reason = dlerror().map { String(cString: $0) } ?? "not found"
                return .failure(RasterError("cannot draw pixels: \(library) cannot be loaded (\(reason)); install the Debian package \(package)"))
            }
            handles.append(handle)
        }
        do throws(RasterError) {
            return .success(try Rasterizer(rsvg: handles[0], cairo: handles[1]))
        } catch {
            return .failure(error)
        }
    }

    private init(rsvg: UnsafeMutableRawPointer, cairo: UnsafeMutableRawPointer) throws(RasterError) {
        func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, as type: T.Type) throws(RasterError) -> T {
            guard let address = dlsym(handle, name) else {
                throw RasterError("cannot draw pixels: \(name) is missing from the library loaded (an older librsvg2-2 or libcairo2 than Debian 12's?)")
            }
            return unsafeBitCast(address, to: type)
        }
        newHandle = try symbol(rsvg, "rsvg_handle_new_from_data", as: type(of: newHandle))
        renderDocument = try symbol(rsvg, "rsvg_handle_render_document", as: type(of: renderDocument))
        // GLib's, which librsvg brings.
        unreference = try symbol(rsvg, "g_object_unref", as: type(of: unreference))
        freeError = try symbol(rsvg, "g_error_free", as: type(of: freeError))
        createSurface = try symbol(cairo, "cairo_image_surface_create", as: type(of: createSurface))
        surfaceStatus = try symbol(cairo, "cairo_surface_status", as: type(of: surfaceStatus))
        destroySurface = try symbol(cairo, "cairo_surface_destroy", as: type(of: destroySurface))
        flushSurface = try symbol(cairo, "cairo_surface_flush", as: type(of: flushSurface))
        markDirty = try symbol(cairo, "cairo_surface_mark_dirty", as: type(of: markDirty))
        surfaceData = try symbol(cairo, "cairo_image_surface_get_data", as: type(of: surfaceData))
        surfaceStride = try symbol(cairo, "cairo_image_surface_get_stride", as: type(of: surfaceStride))
        surfaceWidth = try symbol(cairo, "cairo_image_surface_get_width", as: type(of: surfaceWidth))
        surfaceHeight = try symbol(cairo, "cairo_image_surface_get_height", as: type(of: surfaceHeight))
        createContext = try symbol(cairo, "cairo_create", as: type(of: createContext))
        destroyContext = try symbol(cairo, "cairo_destroy", as: type(of: destroyContext))
        writePNG = try symbol(cairo, "cairo_surface_write_to_png_stream", as: type(of: writePNG))
        readPNG = try symbol(cairo, "cairo_image_surface_create_from_png_stream", as: type(of: readPNG))
    }

    /// `svg` drawn into an image of `width` × `height` pixels, its viewport stretched to fill it
    /// (an SVG of a family's size in points, at a scale of 2, is twice its size in pixels).
    /// Transparent wherever the drawing does not paint.
    public func image(svg: String, width: Int, height: Int) throws(RasterError) -> RasterImage {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
            throw RasterError("cannot draw pixels: \(width) × \(height) is no image size (1 to 16384 a side)")
        }
        lock.lock()
        defer { lock.unlock() }
        do {
            var failure: OpaquePointer?
            let bytes = Array(svg.utf8)
            guard let handle = bytes.withUnsafeBufferPointer({ newHandle($0.baseAddress, $0.count, &failure) }) else {
                throw RasterError("cannot draw pixels: the drawing is not an SVG librsvg reads (\(message(of: failure)))")
            }
            defer { unreference(handle) }
            let surface = createSurface(0 /* CAIRO_FORMAT_ARGB32 */, Int32(width), Int32(height))
            defer { destroySurface(surface) }
            guard surfaceStatus(surface) == 0, let context = createContext(surface) else {
                throw RasterError("cannot draw pixels: cairo could not make a \(width) × \(height) image")
            }
            defer { destroyContext(context) }
            var viewport = (0.0, 0.0, Double(width), Double(height))
            let drawn = withUnsafeBytes(of: &viewport) { renderDocument(handle, context, $0.baseAddress, &failure) }
            guard drawn != 0 else { throw RasterError("cannot draw pixels: librsvg could not draw the SVG (\(message(of: failure)))") }
            flushSurface(surface)
            return copy(surface)
        }
    }

    /// The image as a PNG file's bytes.
    public func png(_ image: RasterImage) throws(RasterError) -> [UInt8] {
        guard image.isWhole else {
            throw RasterError("cannot write a PNG: the image's \(image.pixels.count) bytes are not \(image.height) rows of \(image.stride) for \(image.width) pixels")
        }
        lock.lock()
        defer { lock.unlock() }
        do {
            let surface = createSurface(0, Int32(image.width), Int32(image.height))
            defer { destroySurface(surface) }
            guard surfaceStatus(surface) == 0, let data = surfaceData(surface) else {
                throw RasterError("cannot write a PNG: cairo could not make a \(image.width) × \(image.height) image")
            }
            flushSurface(surface)
            let stride = Int(surfaceStride(surface))
            image.pixels.withUnsafeBytes { source in
                for row in 0..<image.height {
                    (data + row * stride).update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * image.stride, count: image.width * 4)
                }
            }
            markDirty(surface)
            let sink = PNGSink()
            let status = withExtendedLifetime(sink) {
                writePNG(surface, { closure, bytes, length in
                    guard let closure, let bytes else { return 11 /* CAIRO_STATUS_WRITE_ERROR */ }
                    Unmanaged<PNGSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
                    return 0
                }, Unmanaged.passUnretained(sink).toOpaque())
            }
            guard status == 0 else { throw RasterError("cannot write a PNG: cairo's status \(status)") }
            return sink.bytes
        }
    }

    /// A PNG file's pixels (to compare a drawing with another).
    public func image(png: [UInt8]) throws(RasterError) -> RasterImage {
        lock.lock()
        defer { lock.unlock() }
        do {
            let source = PNGSource(png)
            let surface = withExtendedLifetime(source) { readPNG({ closure, bytes, length in
                guard let closure, let bytes else { return 10 /* CAIRO_STATUS_READ_ERROR */ }
                let source = Unmanaged<PNGSource>.fromOpaque(closure).takeUnretainedValue()
                let count = Int(length)
                guard source.offset + count <= source.bytes.count else { return 10 }
                source.bytes.withUnsafeBufferPointer { (bytes + 0).update(from: $0.baseAddress! + source.offset, count: count) }
                source.offset += count
                return 0
            }, Unmanaged.passUnretained(source).toOpaque()) }
            defer { destroySurface(surface) }
            guard surfaceStatus(surface) == 0 else { throw RasterError("cannot read the PNG: it is not one cairo reads") }
            return copy(surface)
        }
    }

    /// The surface's pixels as ARGB32 (cairo's format: premultiplied, in native byte order).
    private func copy(_ surface: OpaquePointer?) -> RasterImage {
        let width = Int(surfaceWidth(surface))
        let height = Int(surfaceHeight(surface))
        let stride = Int(surfaceStride(surface))
        guard let data = surfaceData(surface) else { return RasterImage(width: width, height: height, stride: width * 4, pixels: []) }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * 4 * height) { buffer, count in
            for row in 0..<height { (buffer.baseAddress! + row * width * 4).update(from: data + row * stride, count: width * 4) }
            count = width * 4 * height
        }
        return RasterImage(width: width, height: height, stride: width * 4, pixels: pixels)
    }

    /// A GError's message, and the error freed.
    private func message(of error: OpaquePointer?) -> String {
        guard let error else { return "no reason given" }
        defer { freeError(error) }
        // struct GError { GQuark domain; gint code; gchar *message; }
        let text = UnsafeRawPointer(error).load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self)
        return text.map { String(cString: $0) } ?? "no reason given"
    }

    private final class PNGSink {
        var bytes: [UInt8] = []
    }

    private final class PNGSource {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }
}

/// An image: `height` rows of `stride` bytes, each pixel 4 bytes of premultiplied ARGB32 in this
/// machine's byte order (cairo's, and Wayland's ARGB8888).
public struct RasterImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, stride: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }

    /// Whether its pixels are all there: `height` rows of `stride` bytes, each holding `width` pixels.
    public var isWhole: Bool {
        width > 0 && height > 0 && stride >= width * 4 && pixels.count >= (height - 1) * stride + width * 4
    }

    /// The colour at a pixel, its alpha taken out: (red, green, blue, alpha), each 0...255; nothing
    /// (all 0) outside the image.
    public func color(x: Int, y: Int) -> (red: Int, green: Int, blue: Int, alpha: Int) {
        guard x >= 0, y >= 0, x < width, y < height, y * stride + x * 4 + 4 <= pixels.count else { return (0, 0, 0, 0) }
        let offset = y * stride + x * 4
        let value = pixels.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        let alpha = Int(value >> 24 & 0xff)
        func channel(_ shift: UInt32) -> Int {
            let premultiplied = Int(value >> shift & 0xff)
            return alpha == 0 ? 0 : min(255, (premultiplied * 255 + alpha / 2) / alpha)
        }
        return (channel(16), channel(8), channel(0), alpha)
    }
}

/// Why pixels could not be had: what is missing, and which package gives it.
public struct RasterError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
