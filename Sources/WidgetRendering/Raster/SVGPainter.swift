import FoundationEssentials
import Glibc
import WidgetSupport

/// Draws the SVG renderer's drawings with cairo, without librsvg: the elements, attributes and
/// effects that renderer writes (shapes and paths, colours and gradients, clips, masks, opacity,
/// blend modes, shadows and blurs, transforms, text, PNG pictures). Text is set in the faces the
/// layout measured, glyph by glyph where the layout put them (`TextFaces`: FreeType and cairo,
/// fontconfig for a character the face lacks); text that needs shaping (joining or reordering
/// scripts, combining marks, emoji sequences) is set by Pango, loaded only then. Anything else (a
/// JPEG picture, an element it does not know) is an `SVGUnsupported` naming it, and the rasterizer
/// has librsvg draw that drawing instead.
///
/// Why not librsvg for all: it maps 6.5 MiB of code and brings libxml2, gdk-pixbuf and a second
/// ICU into the desktop client, which keeps drawing all day, and Pango, HarfBuzz and GLib
/// another 2 MiB and their caches (docs/DESKTOP.md).
final class SVGPainter {
    let cairo: CairoLibrary
    var context: CairoLibrary.Context
    let faces: TextFaces
    /// Pango, for text that needs shaping; loaded the first time one does.
    let loadPango: () throws(SVGUnsupported) -> PangoLibrary
    /// Glyphs unhinted and at fractions of a pixel, as the layout measured them.
    let fontOptions: OpaquePointer?
    /// Elements by id: gradients, clip paths, masks and filters.
    var definitions: [String: SVGElement] = [:]
    /// The properties the root gives everything in it.
    var rootStyle = Style()
    /// The image's size in pixels: layers are made as large.
    let width: Int
    let height: Int

    /// Draws `root` (an `<svg>`) onto `context`, whose surface is `width` × `height` pixels, its
    /// viewport stretched to fill them.
    static func draw(
        _ root: SVGElement, cairo: CairoLibrary, faces: TextFaces, pango: @escaping () throws(SVGUnsupported) -> PangoLibrary,
        on context: CairoLibrary.Context, width: Int, height: Int
    ) throws(SVGUnsupported) {
        guard root.name == "svg" else { throw SVGUnsupported("the root element is <\(root.name)>, not <svg>") }
        let options = cairo.fontOptionsCreate()
        defer { cairo.fontOptionsDestroy(options) }
        cairo.fontOptionsSetHintMetrics(options, 1 /* CAIRO_HINT_METRICS_OFF */)
        cairo.fontOptionsSetHintStyle(options, 1 /* CAIRO_HINT_STYLE_NONE */)
        cairo.fontOptionsSetAntialias(options, 2 /* CAIRO_ANTIALIAS_GRAY */)
        let painter = SVGPainter(cairo: cairo, context: context, faces: faces, pango: pango, fontOptions: options, width: width, height: height)
        painter.define(root)
        let viewBox = NumberScanner.list(root["viewBox"] ?? "").flatMap { $0.count == 4 && $0[2] > 0 && $0[3] > 0 ? $0 : nil }
        let size = (try painter.length(root, "width"), try painter.length(root, "height"))
        let box = viewBox ?? [0, 0, size.0 ?? Double(width), size.1 ?? Double(height)]
        guard box[2] > 0, box[3] > 0 else { throw SVGUnsupported("the <svg> has no size") }
        cairo.save(context)
        defer { cairo.restore(context) }
        cairo.setFontOptions(context, options)
        cairo.scale(context, Double(width) / box[2], Double(height) / box[3])
        cairo.translate(context, -box[0], -box[1])
        try painter.rootStyle.take(root)
        for child in root.children { try painter.draw(child, painter.rootStyle) }
    }

    private init(
        cairo: CairoLibrary, context: CairoLibrary.Context, faces: TextFaces, pango: @escaping () throws(SVGUnsupported) -> PangoLibrary,
        fontOptions: OpaquePointer?, width: Int, height: Int
    ) {
        self.cairo = cairo
        self.context = context
        self.faces = faces
        self.loadPango = pango
        self.fontOptions = fontOptions
        self.width = width
        self.height = height
    }

    func define(_ element: SVGElement) {
        if let id = element["id"] { definitions[id] = element }
        for child in element.children { define(child) }
    }

    // MARK: - Elements

    func draw(_ element: SVGElement, _ inherited: Style) throws(SVGUnsupported) {
        switch element.name {
        case "defs", "clipPath", "mask", "filter", "linearGradient", "radialGradient", "title", "desc", "metadata":
            return
        case "g", "a", "rect", "circle", "ellipse", "path", "line", "text", "image":
            break
        default:
            throw SVGUnsupported("the element <\(element.name)>")
        }
        var style = inherited
        try style.take(element)
        if style.display == "none" { return }
        try composited(element) { () throws(SVGUnsupported) in
            switch element.name {
            case "g", "a": for child in element.children { try draw(child, style) }
            case "text": try text(element, style)
            case "image": try image(element)
            default: try shape(element, style)
            }
        }
    }

    /// `body` drawn with the element's transform and clip, and, where it has an opacity, a mask,
    /// a filter or a blend mode, drawn apart as a layer that is then composited.
    func composited(_ element: SVGElement, _ body: () throws(SVGUnsupported) -> Void) throws(SVGUnsupported) {
        cairo.save(context)
        defer { cairo.restore(context) }
        if let transform = element["transform"] {
            cairo.transform(context, try Self.matrix(transform))
        }
        if let reference = element["clip-path"], reference != "none" {
            try clip(to: try self.reference(reference, "clip-path"))
        }
        let opacity = try number(element, "opacity").map { min(1, max(0, $0)) } ?? 1
        let mask = try element["mask"].map { value throws(SVGUnsupported) in value == "none" ? nil : try reference(value, "mask") } ?? nil
        let filter = try element["filter"].map { value throws(SVGUnsupported) in value == "none" ? nil : try reference(value, "filter") } ?? nil
        let blend = try Self.blendOperator(element)
        guard opacity < 1 || mask != nil || filter != nil || blend != nil else {
            try body()
            return
        }
        if opacity == 0 { return }
        var layer = try self.layer(body)
        defer { cairo.surfaceDestroy(layer) }
        if let filter {
            let filtered = try self.filter(layer, filter)
            cairo.surfaceDestroy(layer)
            layer = filtered
        }
        var maskLayer: CairoLibrary.Surface?
        if let mask {
            guard opacity == 1 else { throw SVGUnsupported("a mask and an opacity on one element") }
            // The renderer's masks are by alpha, as SwiftUI's are; SVG's default (by luminance) is librsvg's to draw.
            guard mask["mask-type"] == "alpha" else { throw SVGUnsupported("a mask by luminance (mask-type=\"\(mask["mask-type"] ?? "luminance")\")") }
            // Its content inherits from where the mask is defined: in the renderer's drawings, the root.
            var style = rootStyle
            try style.take(mask)
            maskLayer = try self.layer { () throws(SVGUnsupported) in for child in mask.children { try draw(child, style) } }
        }
        defer { if let maskLayer { cairo.surfaceDestroy(maskLayer) } }
        cairo.save(context)
        cairo.identityMatrix(context)
        if let blend { cairo.setOperator(context, blend) }
        cairo.setSourceSurface(context, layer, 0, 0)
        if let maskLayer {
            cairo.maskSurface(context, maskLayer, 0, 0)
        } else {
            cairo.paintWithAlpha(context, opacity)
        }
        cairo.restore(context)
    }

    /// What `body` draws, on a transparent image as large as the whole, with the transform now in
    /// effect (its pixels lie where they would on the image itself).
    func layer(_ body: () throws(SVGUnsupported) -> Void) throws(SVGUnsupported) -> CairoLibrary.Surface {
        guard let surface = cairo.imageSurfaceCreate(0, Int32(width), Int32(height)), cairo.surfaceStatus(surface) == 0 else {
            throw SVGUnsupported("cairo could not make a \(width) × \(height) layer")
        }
        let matrix = cairo.getMatrix(context)
        guard let layerContext = cairo.create(surface) else {
            cairo.surfaceDestroy(surface)
            throw SVGUnsupported("cairo could not draw on a layer")
        }
        cairo.setMatrix(layerContext, matrix)
        cairo.setFontOptions(layerContext, fontOptions)
        let outer = context
        context = layerContext
        defer {
            context = outer
            cairo.destroy(layerContext)
        }
        do {
            try body()
        } catch {
            cairo.surfaceDestroy(surface)
            throw error
        }
        cairo.surfaceFlush(surface)
        return surface
    }

    func shape(_ element: SVGElement, _ style: Style) throws(SVGUnsupported) {
        cairo.newPath(context)
        guard try path(element) else { return }
        var (x1, y1, x2, y2) = (0.0, 0.0, 0.0, 0.0)
        cairo.pathExtents(context, &x1, &y1, &x2, &y2)
        let box = (x: x1, y: y1, width: x2 - x1, height: y2 - y1)
        if element.name != "line", let fill = style.fill {
            cairo.setFillRule(context, style.fillRule == "evenodd" ? 1 : 0)
            if try source(fill, opacity: style.fillOpacity, box: box) { cairo.fillPreserve(context) }
        }
        if let stroke = style.stroke, style.strokeWidth > 0 {
            cairo.setLineWidth(context, style.strokeWidth)
            cairo.setLineCap(context, ["round": 1, "square": 2][style.lineCap] ?? 0)
            cairo.setLineJoin(context, ["round": 1, "bevel": 2][style.lineJoin] ?? 0)
            // SVG's, not cairo's 10.
            cairo.setMiterLimit(context, 4)
            var dashes = style.dashes
            var offset = style.dashOffset
            if let length = try number(element, "pathLength"), length > 0, !dashes.isEmpty {
                // Dashes in a length of the author's: scaled to the path's own.
                let factor = pathLength() / length
                dashes = dashes.map { $0 * factor }
                offset *= factor
            }
            if dashes.contains(where: { $0 > 0 }), dashes.allSatisfy({ $0 >= 0 }) {
                // An odd count repeats, as SVG says.
                let list = dashes.count % 2 == 1 ? dashes + dashes : dashes
                list.withUnsafeBufferPointer { cairo.setDash(context, $0.baseAddress, Int32($0.count), offset) }
            }
            if try source(stroke, opacity: style.strokeOpacity, box: box) { cairo.strokePreserve(context) }
        }
        cairo.newPath(context)
    }

    /// The element's outline as the current path; false when it has none to draw (a rectangle of
    /// no width).
    func path(_ element: SVGElement) throws(SVGUnsupported) -> Bool {
        switch element.name {
        case "rect":
            let (x, y) = (try length(element, "x") ?? 0, try length(element, "y") ?? 0)
            let (width, height) = (try length(element, "width") ?? 0, try length(element, "height") ?? 0)
            guard width > 0, height > 0 else { return false }
            var rx = try length(element, "rx")
            var ry = try length(element, "ry")
            if rx == nil { rx = ry }
            if ry == nil { ry = rx }
            let (cornerX, cornerY) = (min(max(0, rx ?? 0), width / 2), min(max(0, ry ?? 0), height / 2))
            guard cornerX > 0, cornerY > 0 else {
                cairo.rectangle(context, x, y, width, height)
                return true
            }
            // The corners as quarter ellipses.
            let k = Self.kappa
            let (kx, ky) = (cornerX * k, cornerY * k)
            cairo.moveTo(context, x + cornerX, y)
            cairo.lineTo(context, x + width - cornerX, y)
            cairo.curveTo(context, x + width - cornerX + kx, y, x + width, y + cornerY - ky, x + width, y + cornerY)
            cairo.lineTo(context, x + width, y + height - cornerY)
            cairo.curveTo(context, x + width, y + height - cornerY + ky, x + width - cornerX + kx, y + height, x + width - cornerX, y + height)
            cairo.lineTo(context, x + cornerX, y + height)
            cairo.curveTo(context, x + cornerX - kx, y + height, x, y + height - cornerY + ky, x, y + height - cornerY)
            cairo.lineTo(context, x, y + cornerY)
            cairo.curveTo(context, x, y + cornerY - ky, x + cornerX - kx, y, x + cornerX, y)
            cairo.closePath(context)
            return true
        case "circle", "ellipse":
            let (cx, cy) = (try length(element, "cx") ?? 0, try length(element, "cy") ?? 0)
            let radius = element.name == "circle" ? try length(element, "r") ?? 0 : nil
            let (ellipseX, ellipseY) = (try length(element, "rx") ?? 0, try length(element, "ry") ?? 0)
            let (rx, ry) = (radius ?? ellipseX, radius ?? ellipseY)
            guard rx > 0, ry > 0 else { return false }
            let k = Self.kappa
            cairo.moveTo(context, cx + rx, cy)
            cairo.curveTo(context, cx + rx, cy + ry * k, cx + rx * k, cy + ry, cx, cy + ry)
            cairo.curveTo(context, cx - rx * k, cy + ry, cx - rx, cy + ry * k, cx - rx, cy)
            cairo.curveTo(context, cx - rx, cy - ry * k, cx - rx * k, cy - ry, cx, cy - ry)
            cairo.curveTo(context, cx + rx * k, cy - ry, cx + rx, cy - ry * k, cx + rx, cy)
            cairo.closePath(context)
            return true
        case "line":
            cairo.moveTo(context, try length(element, "x1") ?? 0, try length(element, "y1") ?? 0)
            cairo.lineTo(context, try length(element, "x2") ?? 0, try length(element, "y2") ?? 0)
            return true
        case "path":
            let segments = try SVGPath.parse(element["d"] ?? "")
            guard !segments.isEmpty else { return false }
            for segment in segments {
                switch segment {
                case .move(let x, let y): cairo.moveTo(context, x, y)
                case .line(let x, let y): cairo.lineTo(context, x, y)
                case .curve(let x1, let y1, let x2, let y2, let x, let y): cairo.curveTo(context, x1, y1, x2, y2, x, y)
                case .close: cairo.closePath(context)
                }
            }
            return true
        default:
            throw SVGUnsupported("<\(element.name)> as a clip path's shape")
        }
    }

    /// A quarter ellipse's control points lie this far along its tangents (of its radius).
    static let kappa = 0.5522847498

    /// The current path's length in user units, curves flattened (cairo_path_t's points).
    func pathLength() -> Double {
        guard let path = cairo.copyPathFlat(context) else { return 0 }
        defer { cairo.pathDestroy(path) }
        // cairo_path_t { cairo_status_t status; cairo_path_data_t *data; int num_data; }; each datum
        // is 16 bytes: a header (type, length) or a point (x, y).
        guard let data = path.load(fromByteOffset: 8, as: UnsafeRawPointer?.self) else { return 0 }
        let count = Int(path.load(fromByteOffset: 16, as: Int32.self))
        var total = 0.0
        var (x, y, startX, startY) = (0.0, 0.0, 0.0, 0.0)
        var index = 0
        while index < count {
            let type = data.load(fromByteOffset: index * 16, as: Int32.self)
            let length = max(1, Int(data.load(fromByteOffset: index * 16 + 4, as: Int32.self)))
            func point() -> (Double, Double) {
                (data.load(fromByteOffset: (index + 1) * 16, as: Double.self), data.load(fromByteOffset: (index + 1) * 16 + 8, as: Double.self))
            }
            switch type {
            case 0:
                (x, y) = point()
                (startX, startY) = (x, y)
            case 1:
                let (nx, ny) = point()
                total += hypot(nx - x, ny - y)
                (x, y) = (nx, ny)
            case 3:
                total += hypot(startX - x, startY - y)
                (x, y) = (startX, startY)
            default: break
            }
            index += length
        }
        return total
    }

    func clip(to clipPath: SVGElement) throws(SVGUnsupported) {
        guard clipPath.name == "clipPath" else { throw SVGUnsupported("clip-path names a <\(clipPath.name)>") }
        guard clipPath["clipPathUnits"] ?? "userSpaceOnUse" == "userSpaceOnUse" else { throw SVGUnsupported("clipPathUnits=\"\(clipPath["clipPathUnits"]!)\"") }
        cairo.newPath(context)
        for child in clipPath.children {
            cairo.save(context)
            if let transform = child["transform"] {
                cairo.transform(context, try Self.matrix(transform))
            }
            _ = try path(child)
            cairo.restore(context)
        }
        cairo.setFillRule(context, clipPath.children.first?["clip-rule"] == "evenodd" ? 1 : 0)
        cairo.clip(context)
    }

    // MARK: - Paint

    /// Sets the paint as cairo's source: a colour, or a gradient over `box` (the bounds of what it
    /// fills, in user units). False when nothing is to be painted.
    func source(_ paint: PaintValue, opacity: Double, box: (x: Double, y: Double, width: Double, height: Double)) throws(SVGUnsupported) -> Bool {
        switch paint {
        case .color(let red, let green, let blue, let alpha):
            guard alpha * opacity > 0 else { return false }
            cairo.setSourceRGBA(context, red, green, blue, alpha * opacity)
            return true
        case .reference(let id):
            guard let gradient = definitions[id] else { throw SVGUnsupported("a paint names #\(id), which is not defined") }
            let pattern: CairoLibrary.Pattern?
            let userSpace = gradient["gradientUnits"] == "userSpaceOnUse"
            switch gradient.name {
            case "linearGradient":
                // In user space, the renderer gives every coordinate as a number (SVG's defaults and
                // percentages are of the viewport there: librsvg's to draw).
                if userSpace, ["x1", "y1", "x2", "y2"].contains(where: { gradient[$0] == nil || gradient[$0]!.hasSuffix("%") }) {
                    throw SVGUnsupported("a linear gradient in user space without its four coordinates as numbers")
                }
                pattern = cairo.patternCreateLinear(
                    try fraction(gradient, "x1") ?? 0, try fraction(gradient, "y1") ?? 0, try fraction(gradient, "x2") ?? (userSpace ? 0 : 1),
                    try fraction(gradient, "y2") ?? 0)
            case "radialGradient":
                let (cx, cy) = (try fraction(gradient, "cx") ?? 0.5, try fraction(gradient, "cy") ?? 0.5)
                let r = try fraction(gradient, "r") ?? 0.5
                let (fx, fy) = (try fraction(gradient, "fx") ?? cx, try fraction(gradient, "fy") ?? cy)
                pattern = cairo.patternCreateRadial(fx, fy, 0, cx, cy, r)
            default:
                throw SVGUnsupported("a paint names a <\(gradient.name)>")
            }
            guard let pattern else { throw SVGUnsupported("cairo could not make a gradient") }
            defer { cairo.patternDestroy(pattern) }
            if gradient["gradientTransform"] != nil { throw SVGUnsupported("gradientTransform") }
            if !userSpace {
                // In the bounds' units: nothing is painted with them where the bounds are flat.
                guard box.width > 0, box.height > 0 else { return false }
                cairo.patternSetMatrix(pattern, CairoLibrary.Matrix(xx: 1 / box.width, yx: 0, xy: 0, yy: 1 / box.height, x0: -box.x / box.width, y0: -box.y / box.height))
            }
            var last = 0.0
            for stop in gradient.children where stop.name == "stop" {
                var style = Style()
                try style.take(stop)
                let offset = max(last, min(1, max(0, try fraction(stop, "offset") ?? 0)))
                last = offset
                guard case .color(let red, let green, let blue, let alpha) = try PaintValue(stop["stop-color"] ?? "black") else {
                    throw SVGUnsupported("a gradient stop's colour \"\(stop["stop-color"] ?? "")\"")
                }
                let stopOpacity = try number(stop, "stop-opacity").map { min(1, max(0, $0)) } ?? 1
                cairo.patternAddColorStop(pattern, offset, red, green, blue, alpha * stopOpacity * opacity)
            }
            cairo.setSource(context, pattern)
            return true
        }
    }

    // MARK: - Pictures

    func image(_ element: SVGElement) throws(SVGUnsupported) {
        guard let reference = element["href"] ?? element["xlink:href"] else { return }
        guard reference.hasPrefix("data:image/png;base64,") else {
            throw SVGUnsupported("a picture that is not a PNG (\(reference.prefix(24))…)")
        }
        guard let data = Data(base64Encoded: String(reference.dropFirst("data:image/png;base64,".count)), options: .ignoreUnknownCharacters) else {
            throw SVGUnsupported("a PNG picture whose base64 does not decode")
        }
        let (x, y) = (try length(element, "x") ?? 0, try length(element, "y") ?? 0)
        let (width, height) = (try length(element, "width") ?? 0, try length(element, "height") ?? 0)
        guard width > 0, height > 0 else { return }
        let source = PNGSource(Array(data))
        let picture = withExtendedLifetime(source) { cairo.readPNG(PNGSource.read, Unmanaged.passUnretained(source).toOpaque()) }
        defer { cairo.surfaceDestroy(picture) }
        guard cairo.surfaceStatus(picture) == 0 else { throw SVGUnsupported("a PNG picture cairo cannot read") }
        let (pictureWidth, pictureHeight) = (Double(cairo.imageSurfaceWidth(picture)), Double(cairo.imageSurfaceHeight(picture)))
        guard pictureWidth > 0, pictureHeight > 0 else { return }
        var (scaleX, scaleY) = (width / pictureWidth, height / pictureHeight)
        var (left, top) = (x, y)
        let aspect = element["preserveAspectRatio"] ?? "xMidYMid meet"
        if aspect != "none" {
            guard aspect == "xMidYMid meet" || aspect == "xMidYMid" else { throw SVGUnsupported("preserveAspectRatio=\"\(aspect)\"") }
            let scale = min(scaleX, scaleY)
            (scaleX, scaleY) = (scale, scale)
            left += (width - pictureWidth * scale) / 2
            top += (height - pictureHeight * scale) / 2
        }
        cairo.save(context)
        defer { cairo.restore(context) }
        cairo.translate(context, left, top)
        cairo.scale(context, scaleX, scaleY)
        cairo.setSourceSurface(context, picture, 0, 0)
        // Its edge pixels held to the edge when stretched, not faded into nothing beyond, as librsvg and browsers draw.
        cairo.patternSetExtend(cairo.getSource(context), 3 /* CAIRO_EXTEND_PAD */)
        cairo.newPath(context)
        cairo.rectangle(context, 0, 0, pictureWidth, pictureHeight)
        cairo.fill(context)
    }

}

extension SVGPainter {
    final class PNGSource {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        static let read: CairoLibrary.ReadFunction = { closure, bytes, length in
            guard let closure, let bytes else { return 10 /* CAIRO_STATUS_READ_ERROR */ }
            let source = Unmanaged<PNGSource>.fromOpaque(closure).takeUnretainedValue()
            let count = Int(length)
            guard source.offset + count <= source.bytes.count else { return 10 }
            source.bytes.withUnsafeBufferPointer { (bytes + 0).update(from: $0.baseAddress! + source.offset, count: count) }
            source.offset += count
            return 0
        }
    }
}
