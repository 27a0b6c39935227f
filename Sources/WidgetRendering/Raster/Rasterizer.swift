import FoundationEssentials
import Glibc
import WidgetSupport

/// Pixels from the drawings the SVG renderer makes, so that a PNG, a desktop surface and the page
/// show one layout in one font: the SVG is drawn by `SVGPainter` with cairo, its text in FreeType's
/// faces (fontconfig finding those with what Inter lacks), all loaded with `dlopen` when first asked
/// for (docs/DESKTOP.md). Text that needs shaping is set by Pango, and a drawing with what the
/// painter does not draw (a JPEG picture) is drawn by librsvg, each loaded only then. Nothing else
/// of the project needs them; without them this says which Debian package to install.
public final class Rasterizer: @unchecked Sendable {
    /// The libraries, each with the Debian package that provides it: cairo, FreeType, fontconfig.
    static let libraries = [("libcairo.so.2", "libcairo2"), ("libfreetype.so.6", "libfreetype6"), ("libfontconfig.so.1", "libfontconfig1")]
    /// What sets text that needs shaping.
    static let shaping = ("libpangocairo-1.0.so.0", "libpangocairo-1.0-0")
    /// What draws the drawings the painter cannot.
    static let fallback = ("librsvg-2.so.2", "librsvg2-2")

    /// Who draws an SVG: the painter, librsvg, or the painter and librsvg where it cannot.
    enum Engine {
        case painter, librsvg, either
    }

    private let lock = Lock()
    /// Taken around every use of librsvg (see `image(svg:width:height:engine:)`).
    private static let librsvgTurn = Lock()
    private let cairo: CairoLibrary
    private let faces: TextFaces
    private let shapingLibrary: (String, String)
    private let fallbackLibrary: (String, String)
    /// Pango's functions, once a text needed them (or why they cannot be had).
    private var pango: Result<PangoLibrary, RasterError>?
    /// librsvg's functions, once a drawing needed them (or why they cannot be had).
    private var librsvg: Result<Librsvg, RasterError>?

    private struct Librsvg {
        let newHandle: @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer?
        let renderDocument: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeRawPointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
        let unreference: @convention(c) (OpaquePointer?) -> Void
        let freeError: @convention(c) (OpaquePointer?) -> Void
    }

    /// The rasterizer, its libraries loaded the first time; or why it cannot be had.
    public static func shared() throws(RasterError) -> Rasterizer {
        switch loaded {
        case .success(let rasterizer): return rasterizer
        case .failure(let error): throw error
        }
    }

    private static let loaded = load(libraries)

    /// The rasterizer over `libraries` (cairo's, FreeType's and fontconfig's, each with its
    /// package), with `shaping` for text that needs it and `fallback` for what the painter does
    /// not draw.
    static func load(_ libraries: [(String, String)], shaping: (String, String) = shaping, fallback: (String, String) = fallback) -> Result<Rasterizer, RasterError> {
        var handles: [UnsafeMutableRawPointer] = []
        for (library, package) in libraries {
            switch open(library, package) {
            case .success(let handle): handles.append(handle)
            case .failure(let error): return .failure(error)
            }
        }
        do throws(RasterError) {
            let cairo = try CairoLibrary(cairo: handles[0])
            let faces = TextFaces(cairo: cairo, fonts: try FontLibrary(freeType: handles[1], fontconfig: handles[2]))
            return .success(Rasterizer(cairo: cairo, faces: faces, shaping: shaping, fallback: fallback))
        } catch {
            return .failure(error)
        }
    }

    private static func open(_ library: String, _ package: String) -> Result<UnsafeMutableRawPointer, RasterError> {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(RasterError("cannot draw pixels: \(library) cannot be loaded (\(reason)); install the Debian package \(package)"))
        }
        return .success(handle)
    }

    private init(cairo: CairoLibrary, faces: TextFaces, shaping: (String, String), fallback: (String, String)) {
        self.cairo = cairo
        self.faces = faces
        self.shapingLibrary = shaping
        self.fallbackLibrary = fallback
    }

    /// Pango, loaded the first time a text needs shaping. Called with the lock held.
    private func loadPango() throws(SVGUnsupported) -> PangoLibrary {
        if pango == nil {
            switch Self.open(shapingLibrary.0, shapingLibrary.1) {
            case .failure(let error): pango = .failure(error)
            case .success(let handle):
                do throws(RasterError) { pango = .success(try PangoLibrary(pango: handle)) } catch { pango = .failure(error) }
            }
        }
        switch pango! {
        case .success(let library): return library
        case .failure(let error):
            throw SVGUnsupported("text that needs shaping, which Pango sets (\(error.description.trimmingPrefix("cannot draw pixels: ")))")
        }
    }

    /// librsvg, loaded the first time a drawing needs it. Called with the lock held.
    private func loadLibrsvg() -> Result<Librsvg, RasterError> {
        if let librsvg { return librsvg }
        let result: Result<Librsvg, RasterError>
        switch Self.open(fallbackLibrary.0, fallbackLibrary.1) {
        case .failure(let error): result = .failure(error)
        case .success(let handle):
            func symbol<T>(_ name: String) throws(RasterError) -> T { try lookUp(handle, name, in: "an older librsvg2-2 than Debian 12's?") }
            do throws(RasterError) {
                result = .success(
                    Librsvg(
                        newHandle: try symbol("rsvg_handle_new_from_data"), renderDocument: try symbol("rsvg_handle_render_document"),
                        // GLib's, which librsvg brings.
                        unreference: try symbol("g_object_unref"), freeError: try symbol("g_error_free")))
            } catch {
                result = .failure(error)
            }
        }
        librsvg = result
        return result
    }

    /// `svg` drawn into an image of `width` × `height` pixels, its viewport stretched to fill it
    /// (an SVG of a family's size in points, at a scale of 2, is twice its size in pixels).
    /// Transparent wherever the drawing does not paint.
    public func image(svg: String, width: Int, height: Int) throws(RasterError) -> RasterImage {
        try image(svg: svg, width: width, height: height, engine: .either)
    }

    func image(svg: String, width: Int, height: Int, engine: Engine) throws(RasterError) -> RasterImage {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
            throw RasterError("cannot draw pixels: \(width) × \(height) is no image size (1 to 16384 a side)")
        }
        lock.lock()
        defer { lock.unlock() }
        var unsupported: SVGUnsupported?
        if engine != .librsvg {
            do {
                return try drawn(width: width, height: height) { context throws(SVGUnsupported) in
                    try SVGPainter.draw(
                        try SVGElement.parse(svg), cairo: cairo, faces: faces, pango: { () throws(SVGUnsupported) in try self.loadPango() }, on: context,
                        width: width, height: height)
                }
            } catch let error as SVGUnsupported {
                guard engine == .either else { throw RasterError("cannot draw pixels: the painter does not draw \(error)") }
                unsupported = error
            } catch let error as RasterError {
                throw error
            } catch {
                throw RasterError("cannot draw pixels: \(error)")
            }
        }
        let librsvg: Librsvg
        switch loadLibrsvg() {
        case .success(let loaded): librsvg = loaded
        case .failure(let error):
            throw RasterError(unsupported.map { "\(error.description) (librsvg draws what this drawing has: \($0))" } ?? error.description)
        }
        // One drawing at a time in librsvg in the whole process, whichever rasterizer asks: two
        // rasterizers drawing at once (the tests make a second one) once left both threads waiting
        // for ever inside librsvg.
        Self.librsvgTurn.lock()
        defer { Self.librsvgTurn.unlock() }
        var failure: OpaquePointer?
        let bytes = Array(svg.utf8)
        guard let handle = bytes.withUnsafeBufferPointer({ librsvg.newHandle($0.baseAddress, $0.count, &failure) }) else {
            throw RasterError("cannot draw pixels: the drawing is not an SVG librsvg reads (\(message(of: failure, librsvg)))")
        }
        defer { librsvg.unreference(handle) }
        do {
            return try drawn(width: width, height: height) { context throws(RasterError) in
                var viewport = (0.0, 0.0, Double(width), Double(height))
                let done = withUnsafeBytes(of: &viewport) { librsvg.renderDocument(handle, context, $0.baseAddress, &failure) }
                guard done != 0 else { throw RasterError("cannot draw pixels: librsvg could not draw the SVG (\(message(of: failure, librsvg)))") }
            }
        } catch let error as RasterError {
            throw error
        } catch {
            throw RasterError("cannot draw pixels: \(error)")
        }
    }

    /// What `draw` draws on a transparent image of `width` × `height` pixels.
    private func drawn(width: Int, height: Int, _ draw: (CairoLibrary.Context) throws -> Void) throws -> RasterImage {
        let surface = cairo.imageSurfaceCreate(0 /* CAIRO_FORMAT_ARGB32 */, Int32(width), Int32(height))
        defer { cairo.surfaceDestroy(surface) }
        guard cairo.surfaceStatus(surface) == 0, let context = cairo.create(surface) else {
            throw RasterError("cannot draw pixels: cairo could not make a \(width) × \(height) image")
        }
        defer { cairo.destroy(context) }
        try draw(context)
        cairo.surfaceFlush(surface)
        return copy(surface)
    }

    /// The image as a PNG file's bytes.
    public func png(_ image: RasterImage) throws(RasterError) -> [UInt8] {
        guard image.isWhole else {
            throw RasterError("cannot write a PNG: the image's \(image.pixels.count) bytes are not \(image.height) rows of \(image.stride) for \(image.width) pixels")
        }
        lock.lock()
        defer { lock.unlock() }
        do {
            let surface = cairo.imageSurfaceCreate(0, Int32(image.width), Int32(image.height))
            defer { cairo.surfaceDestroy(surface) }
            guard cairo.surfaceStatus(surface) == 0, let data = cairo.imageSurfaceData(surface) else {
                throw RasterError("cannot write a PNG: cairo could not make a \(image.width) × \(image.height) image")
            }
            cairo.surfaceFlush(surface)
            let stride = Int(cairo.imageSurfaceStride(surface))
            image.pixels.withUnsafeBytes { source in
                for row in 0..<image.height {
                    (data + row * stride).update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * image.stride, count: image.width * 4)
                }
            }
            cairo.surfaceMarkDirty(surface)
            let sink = PNGSink()
            let status = withExtendedLifetime(sink) {
                cairo.writePNG(surface, { closure, bytes, length in
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
            let source = SVGPainter.PNGSource(png)
            let surface = withExtendedLifetime(source) { cairo.readPNG(SVGPainter.PNGSource.read, Unmanaged.passUnretained(source).toOpaque()) }
            defer { cairo.surfaceDestroy(surface) }
            guard cairo.surfaceStatus(surface) == 0 else { throw RasterError("cannot read the PNG: it is not one cairo reads") }
            return copy(surface)
        }
    }

    /// The surface's pixels as ARGB32 (cairo's format: premultiplied, in native byte order).
    private func copy(_ surface: OpaquePointer?) -> RasterImage {
        let width = Int(cairo.imageSurfaceWidth(surface))
        let height = Int(cairo.imageSurfaceHeight(surface))
        let stride = Int(cairo.imageSurfaceStride(surface))
        guard let data = cairo.imageSurfaceData(surface) else { return RasterImage(width: width, height: height, stride: width * 4, pixels: []) }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * 4 * height) { buffer, count in
            for row in 0..<height { (buffer.baseAddress! + row * width * 4).update(from: data + row * stride, count: width * 4) }
            count = width * 4 * height
        }
        return RasterImage(width: width, height: height, stride: width * 4, pixels: pixels)
    }

    /// A GError's message, and the error freed.
    private func message(of error: OpaquePointer?, _ librsvg: Librsvg) -> String {
        guard let error else { return "no reason given" }
        defer { librsvg.freeError(error) }
        // struct GError { GQuark domain; gint code; gchar *message; }
        let text = UnsafeRawPointer(error).load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self)
        return text.map { String(cString: $0) } ?? "no reason given"
    }

    private final class PNGSink {
        var bytes: [UInt8] = []
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
