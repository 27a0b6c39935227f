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
    private let cairo: CairoLibrary
    private var context: CairoLibrary.Context
    private let faces: TextFaces
    /// Pango, for text that needs shaping; loaded the first time one does.
    private let loadPango: () throws(SVGUnsupported) -> PangoLibrary
    /// Glyphs unhinted and at fractions of a pixel, as the layout measured them.
    private let fontOptions: OpaquePointer?
    /// Elements by id: gradients, clip paths, masks and filters.
    private var definitions: [String: SVGElement] = [:]
    /// The properties the root gives everything in it.
    private var rootStyle = Style()
    /// The image's size in pixels: layers are made as large.
    private let width: Int
    private let height: Int

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

    private func define(_ element: SVGElement) {
        if let id = element["id"] { definitions[id] = element }
        for child in element.children { define(child) }
    }

    // MARK: - Elements

    private func draw(_ element: SVGElement, _ inherited: Style) throws(SVGUnsupported) {
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
    private func composited(_ element: SVGElement, _ body: () throws(SVGUnsupported) -> Void) throws(SVGUnsupported) {
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
    private func layer(_ body: () throws(SVGUnsupported) -> Void) throws(SVGUnsupported) -> CairoLibrary.Surface {
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

    private func shape(_ element: SVGElement, _ style: Style) throws(SVGUnsupported) {
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
    private func path(_ element: SVGElement) throws(SVGUnsupported) -> Bool {
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
    private func pathLength() -> Double {
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

    private func clip(to clipPath: SVGElement) throws(SVGUnsupported) {
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
    private func source(_ paint: PaintValue, opacity: Double, box: (x: Double, y: Double, width: Double, height: Double)) throws(SVGUnsupported) -> Bool {
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

    // MARK: - Text

    /// A line of text set: how far it advances, how high it stands and hangs (for a gradient's
    /// bounds), where its lines under and through lie (their tops below the baseline, and their
    /// thickness), and how it is drawn at a baseline's start (as glyphs, or as a path to fill).
    private struct SetLine {
        var advance: Double
        var ascent: Double
        var descent: Double
        var underline: (top: Double, thickness: Double)
        var strikeout: (top: Double, thickness: Double)
        var draw: (_ x: Double, _ y: Double, _ asPath: Bool) -> Void
        var release: () -> Void = {}
    }

    private func text(_ element: SVGElement, _ style: Style) throws(SVGUnsupported) {
        guard element.children.isEmpty else { throw SVGUnsupported("a <text> with elements in it (\(element.children[0].name))") }
        // xml:space="preserve" keeps every space, a line break as one; else runs of spaces are one and the ends trimmed.
        var words = element.text.replacing("\r\n", with: " ").map { $0 == "\n" || $0 == "\t" || $0 == "\r" ? " " : $0 }.reduce(into: "") { $0.append($1) }
        if element["xml:space"] != "preserve" {
            words = words.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        guard !words.isEmpty, style.fontSize > 0 else { return }
        // A list of positions (one for each character) is not written by the renderer: the first is the line's.
        guard var x = NumberScanner.list(element["x"] ?? "0")?.first, let y = NumberScanner.list(element["y"] ?? "0")?.first else {
            throw SVGUnsupported("a <text> at x=\"\(element["x"] ?? "")\" y=\"\(element["y"] ?? "")\"")
        }
        let line: SetLine
        if let set = glyphs(words, style) { line = set } else { line = try shaped(words, style) }
        defer { line.release() }
        // Held to a length given, the text is anchored by that length.
        let length = try number(element, "textLength").flatMap { $0 > 0 && element["lengthAdjust"] == "spacingAndGlyphs" ? $0 : nil }
        switch style.anchor {
        case "middle": x -= (length ?? line.advance) / 2
        case "end": x -= length ?? line.advance
        default: break
        }
        cairo.save(context)
        defer { cairo.restore(context) }
        if let length, line.advance > 0 {
            // Held to the width given: the glyphs stretched or squeezed along the line.
            cairo.translate(context, x, 0)
            cairo.scale(context, length / line.advance, 1)
            cairo.translate(context, -x, 0)
        }
        guard let fill = style.fill else { return }
        let box = (x: x, y: y - line.ascent, width: line.advance, height: line.ascent + line.descent)
        cairo.newPath(context)
        let solid: Bool
        if case .color = fill { solid = true } else { solid = false }
        if solid {
            if try source(fill, opacity: style.fillOpacity, box: box) { line.draw(x, y, false) }
            cairo.newPath(context)
        } else {
            line.draw(x, y, true)
        }
        // Lines under and through the text where the font says, as browsers and librsvg draw them.
        for (decoration, place) in [("underline", line.underline), ("line-through", line.strikeout)] where style.decoration.contains(decoration) {
            cairo.rectangle(context, x, y + place.top, line.advance, max(place.thickness, 0.5))
        }
        if try source(fill, opacity: style.fillOpacity, box: box) { cairo.fill(context) }
        cairo.newPath(context)
    }

    /// The lines under and through text in Inter, from its tables, when it is installed and named.
    private func interDecorations(_ style: Style) -> (underline: (Double, Double), strikeout: (Double, Double))? {
        guard let cut = TextFaces.interCut(families: style.families, weight: style.fontWeight), let directory = SystemFont.directory,
            let inter = SystemFont.load(cut, from: directory), let strikeout = inter.strikeout, let underline = inter.underline
        else { return nil }
        let em = style.fontSize / Double(inter.unitsPerEm)
        return ((-Double(underline.position) * em - Double(underline.thickness) * em / 2, Double(underline.thickness) * em),
            (-Double(strikeout.position) * em, Double(strikeout.size) * em))
    }

    /// Scalars that need shaping to be set right: marks that combine, scripts whose letters join or
    /// reorder (Hebrew and Arabic to Khmer), joiners and direction marks, variation selectors,
    /// emoji sequences (flags, skin tones, tags).
    static func needsShaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x08FF, 0x0900...0x0DFF, 0x0E00...0x0FFF, 0x1000...0x109F, 0x1100...0x11FF,
            0x1700...0x18AF, 0x1A00...0x1BFF, 0x1DC0...0x1DFF, 0x200C...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x20D0...0x20FF,
            0xA800...0xABFF, 0xD7B0...0xD7FF, 0xFB1D...0xFDFF, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xFE70...0xFEFF, 0x10A00...0x11FFF,
            0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF, 0xE0000...0xE01EF:
            true
        default:
            false
        }
    }

    /// The text set glyph by glyph: each character in the face the drawing names (its advance and
    /// kerning as the layout measured them), or in an installed face that has it, and the letter
    /// spacing after each. Nil for text that needs shaping, or when no face can be had.
    private func glyphs(_ words: String, _ style: Style) -> SetLine? {
        guard !words.unicodeScalars.contains(where: Self.needsShaping) else { return nil }
        let families = style.families
        guard let primary = faces.primary(families: families, weight: style.fontWeight, italic: style.italic) else { return nil }
        var runs: [(face: TextFaces.Face, glyphs: [GlyphRecord])] = []
        func place(_ glyph: UInt32, in face: TextFaces.Face, at x: Double) {
            if runs.last?.face.key != face.key { runs.append((face, [])) }
            runs[runs.count - 1].glyphs.append(GlyphRecord(index: UInt(glyph), x: x, y: 0))
        }
        var x = 0.0
        var previous: UInt32?
        for character in words {
            let scalars = character.unicodeScalars
            let own = scalars.map { faces.glyph($0, in: primary) }
            if !own.contains(0) {
                for glyph in own {
                    if let previous, let metrics = primary.metrics {
                        x += Double(metrics.kerning(UInt16(truncatingIfNeeded: previous), UInt16(truncatingIfNeeded: glyph))) * style.fontSize / Double(metrics.unitsPerEm)
                    }
                    place(glyph, in: primary, at: x)
                    x += faces.advance(glyph, in: primary, context: context) * style.fontSize
                    previous = glyph
                }
            } else {
                // A character the face lacks: one scalar (more would need shaping), in a face that has it.
                guard scalars.count == 1, let scalar = scalars.first else { return nil }
                let face = faces.fallback(for: scalar, families: families, weight: style.fontWeight, italic: style.italic) ?? primary
                let glyph = faces.glyph(scalar, in: face)
                place(glyph, in: face, at: x)
                x += faces.advance(glyph, in: face, context: context) * style.fontSize
                previous = nil
            }
            x += style.letterSpacing
        }
        let decorations = interDecorations(style)
            ?? ((0.075 * style.fontSize, 0.06 * style.fontSize), (-0.3 * style.fontSize, 0.06 * style.fontSize))
        let size = style.fontSize
        let (cairo, context) = (self.cairo, self.context)
        return SetLine(
            advance: x, ascent: size * Double(primary.metrics?.ascender ?? 800) / Double(primary.metrics?.unitsPerEm ?? 1000),
            descent: -size * Double(primary.metrics?.descender ?? -200) / Double(primary.metrics?.unitsPerEm ?? 1000),
            underline: decorations.underline, strikeout: decorations.strikeout,
            draw: { startX, baseline, asPath in
                for run in runs {
                    cairo.setFontFace(context, run.face.font)
                    cairo.setFontSize(context, size)
                    let placed = run.glyphs.map { GlyphRecord(index: $0.index, x: startX + $0.x, y: baseline) }
                    placed.withUnsafeBytes { bytes in
                        if asPath {
                            cairo.glyphPath(context, bytes.baseAddress, Int32(placed.count))
                        } else {
                            cairo.showGlyphs(context, bytes.baseAddress, Int32(placed.count))
                        }
                    }
                }
            })
    }

    /// The text set by Pango, which shapes it (HarfBuzz): what `glyphs` cannot set.
    private func shaped(_ words: String, _ style: Style) throws(SVGUnsupported) -> SetLine {
        let pango = try loadPango()
        guard let pangoContext = pango.createContext(context) else { throw SVGUnsupported("Pango could not make a context") }
        pango.setFontOptions(pangoContext, fontOptions)
        pango.setRoundGlyphPositions?(pangoContext, 0)
        guard let layout = pango.layoutNew(pangoContext) else {
            pango.objectUnref(pangoContext)
            throw SVGUnsupported("Pango could not make a layout")
        }
        let font = pango.fontDescriptionNew()
        style.fontFamily.withCString { pango.fontDescriptionSetFamily(font, $0) }
        pango.fontDescriptionSetWeight(font, Int32(style.fontWeight))
        pango.fontDescriptionSetStyle(font, style.italic ? 2 /* PANGO_STYLE_ITALIC */ : 0)
        pango.fontDescriptionSetAbsoluteSize(font, style.fontSize * 1024)
        pango.layoutSetFontDescription(layout, font)
        let attributes = pango.attrListNew()
        if style.letterSpacing != 0 { pango.attrListInsert(attributes, pango.attrLetterSpacingNew(Int32((style.letterSpacing * 1024).rounded()))) }
        pango.layoutSetAttributes(layout, attributes)
        pango.attrListUnref(attributes)
        words.withCString { pango.layoutSetText(layout, $0, -1) }
        let logical = pango.layoutLogicalExtents(layout)
        let baseline = Double(pango.layoutGetBaseline(layout)) / 1024
        var decorations = interDecorations(style)
        if decorations == nil, let metrics = pango.contextGetMetrics(pangoContext, font, nil) {
            // Pango's positions are of the lines' tops, above the baseline.
            func line(_ position: Int32, _ thickness: Int32) -> (Double, Double) { (-Double(position) / 1024, Double(thickness) / 1024) }
            decorations = (
                line(pango.metricsUnderlinePosition(metrics), pango.metricsUnderlineThickness(metrics)),
                line(pango.metricsStrikethroughPosition(metrics), pango.metricsStrikethroughThickness(metrics))
            )
            pango.metricsUnref(metrics)
        }
        pango.fontDescriptionFree(font)
        let (cairo, context) = (self.cairo, self.context)
        return SetLine(
            advance: Double(logical.width) / 1024, ascent: baseline, descent: Double(logical.height) / 1024 - baseline,
            underline: decorations?.underline ?? (0, 0), strikeout: decorations?.strikeout ?? (0, 0),
            draw: { x, y, asPath in
                // At the transform now in effect (a text held to its length is scaled).
                pango.updateContext(context, pangoContext)
                pango.layoutContextChanged(layout)
                cairo.moveTo(context, x, y - baseline)
                if asPath { pango.layoutPath(context, layout) } else { pango.showLayout(context, layout) }
            },
            release: {
                pango.objectUnref(layout)
                pango.objectUnref(pangoContext)
            })
    }

    // MARK: - Pictures

    private func image(_ element: SVGElement) throws(SVGUnsupported) {
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

    // MARK: - Filters

    /// The layer with the filter's effect: a Gaussian blur, or a drop shadow under it.
    private func filter(_ layer: CairoLibrary.Surface, _ filter: SVGElement) throws(SVGUnsupported) -> CairoLibrary.Surface {
        guard filter.name == "filter", filter.children.count == 1, let effect = filter.children.first else {
            throw SVGUnsupported("a filter of other than one effect")
        }
        let matrix = cairo.getMatrix(context)
        // Lengths in user units, blurred on pixels: the transform's scale.
        let scale = abs(matrix.xx * matrix.yy - matrix.xy * matrix.yx).squareRoot()
        guard let deviation = NumberScanner.list(effect["stdDeviation"] ?? "0")?.first else {
            throw SVGUnsupported("stdDeviation=\"\(effect["stdDeviation"] ?? "")\"")
        }
        let sigma = max(0, deviation) * scale
        switch effect.name {
        case "feGaussianBlur":
            guard let blurred = copy(layer) else { throw SVGUnsupported("cairo could not make a layer") }
            blur(blurred, sigma: sigma)
            return blurred
        case "feDropShadow":
            let (dx, dy) = (try number(effect, "dx") ?? 2, try number(effect, "dy") ?? 2)
            guard case .color(let red, let green, let blue, let alpha) = try PaintValue(effect["flood-color"] ?? "black") else {
                throw SVGUnsupported("flood-color=\"\(effect["flood-color"] ?? "")\"")
            }
            let floodOpacity = (try number(effect, "flood-opacity").map { min(1, max(0, $0)) } ?? 1) * alpha
            guard let shadow = copy(layer) else { throw SVGUnsupported("cairo could not make a layer") }
            defer { cairo.surfaceDestroy(shadow) }
            // The layer's alpha in the flood colour, premultiplied.
            pixels(of: shadow) { pixels, _ in
                for index in pixels.indices {
                    let a = Double(pixels[index] >> 24) * floodOpacity
                    pixels[index] = UInt32(a.rounded()) << 24 | UInt32((a * red).rounded()) << 16 | UInt32((a * green).rounded()) << 8 | UInt32((a * blue).rounded())
                }
            }
            blur(shadow, sigma: sigma)
            guard let result = cairo.imageSurfaceCreate(0, Int32(width), Int32(height)), let drawing = cairo.create(result) else {
                throw SVGUnsupported("cairo could not make a layer")
            }
            defer { cairo.destroy(drawing) }
            cairo.setSourceSurface(drawing, shadow, matrix.xx * dx + matrix.xy * dy, matrix.yx * dx + matrix.yy * dy)
            cairo.paint(drawing)
            cairo.setSourceSurface(drawing, layer, 0, 0)
            cairo.paint(drawing)
            cairo.surfaceFlush(result)
            return result
        default:
            throw SVGUnsupported("the filter effect <\(effect.name)>")
        }
    }

    private func copy(_ surface: CairoLibrary.Surface) -> CairoLibrary.Surface? {
        guard let copy = cairo.imageSurfaceCreate(0, Int32(width), Int32(height)), let drawing = cairo.create(copy) else { return nil }
        cairo.setSourceSurface(drawing, surface, 0, 0)
        cairo.paint(drawing)
        cairo.destroy(drawing)
        cairo.surfaceFlush(copy)
        return copy
    }

    /// The surface's pixels (premultiplied ARGB32 words), rows `stride / 4` words apart, to change.
    private func pixels(of surface: CairoLibrary.Surface, _ change: (inout UnsafeMutableBufferPointer<UInt32>, Int) -> Void) {
        cairo.surfaceFlush(surface)
        guard let data = cairo.imageSurfaceData(surface) else { return }
        let stride = Int(cairo.imageSurfaceStride(surface)) / 4
        var buffer = UnsafeMutableBufferPointer(start: UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self), count: stride * height)
        change(&buffer, stride)
        cairo.surfaceMarkDirty(surface)
    }

    /// A Gaussian blur of standard deviation `sigma` pixels, as three box blurs each way (the
    /// approximation SVG's filter specification gives: of an odd size d, three centred boxes; of an
    /// even one, a box leaning left, one leaning right, and a centred one of d + 1).
    private func blur(_ surface: CairoLibrary.Surface, sigma: Double) {
        guard sigma >= 0.5 else { return }
        let size = max(1, Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down)))
        let passes: [(before: Int, after: Int)] =
            size % 2 == 1
            ? Array(repeating: (size / 2, size / 2), count: 3)
            : [(size / 2, size / 2 - 1), (size / 2 - 1, size / 2), (size / 2, size / 2)]
        let (width, height) = (self.width, self.height)
        pixels(of: surface) { pixels, stride in
            var line = [UInt32](repeating: 0, count: max(width, height))
            var out = line
            func boxes(count: Int, at: (Int) -> Int) {
                for index in 0..<count { line[index] = pixels[at(index)] }
                for pass in passes {
                    boxBlur(line, into: &out, count: count, before: pass.before, after: pass.after)
                    swap(&line, &out)
                }
                for index in 0..<count { pixels[at(index)] = line[index] }
            }
            for row in 0..<height { boxes(count: width) { row * stride + $0 } }
            for column in 0..<width { boxes(count: height) { $0 * stride + column } }
        }
    }

    /// Each pixel the mean of the box from `before` pixels before it to `after` after it (outside
    /// the line is transparent).
    private func boxBlur(_ line: [UInt32], into out: inout [UInt32], count: Int, before: Int, after: Int) {
        let size = before + after + 1
        var sums = (0, 0, 0, 0)
        func add(_ value: UInt32, _ sign: Int) {
            sums.0 += sign * Int(value >> 24)
            sums.1 += sign * Int(value >> 16 & 0xff)
            sums.2 += sign * Int(value >> 8 & 0xff)
            sums.3 += sign * Int(value & 0xff)
        }
        for index in 0..<min(after, count) { add(line[index], 1) }
        for index in 0..<count {
            if index + after < count { add(line[index + after], 1) }
            if index - before - 1 >= 0 { add(line[index - before - 1], -1) }
            func mean(_ sum: Int) -> UInt32 { UInt32(min(255, max(0, (sum + size / 2) / size))) }
            out[index] = mean(sums.0) << 24 | mean(sums.1) << 16 | mean(sums.2) << 8 | mean(sums.3)
        }
    }

    // MARK: - Values

    /// The id a `url(#id)` names; nil for another value.
    static func referencedID(_ value: String) -> String? {
        value.hasPrefix("url(#") && value.hasSuffix(")") ? String(value.dropFirst(5).dropLast()) : nil
    }

    private func reference(_ value: String, _ attribute: String) throws(SVGUnsupported) -> SVGElement {
        guard let id = Self.referencedID(value) else { throw SVGUnsupported("\(attribute)=\"\(value)\"") }
        guard let element = definitions[id] else { throw SVGUnsupported("\(attribute) names #\(id), which is not defined") }
        return element
    }

    private func number(_ element: SVGElement, _ attribute: String) throws(SVGUnsupported) -> Double? {
        guard let text = element[attribute] else { return nil }
        guard let list = NumberScanner.list(text), list.count == 1 else { throw SVGUnsupported("\(attribute)=\"\(text)\" on <\(element.name)>") }
        return list[0]
    }

    /// A length in user units (a unit of `px` allowed).
    private func length(_ element: SVGElement, _ attribute: String) throws(SVGUnsupported) -> Double? {
        try Self.length(element, attribute)
    }

    static func length(_ element: SVGElement, _ attribute: String) throws(SVGUnsupported) -> Double? {
        guard let text = element[attribute] else { return nil }
        let bare = text.hasSuffix("px") ? String(text.dropLast(2)) : text
        guard let list = NumberScanner.list(bare), list.count == 1 else { throw SVGUnsupported("\(attribute)=\"\(text)\" on <\(element.name)>") }
        return list[0]
    }

    /// A number or a percentage (as a fraction).
    private func fraction(_ element: SVGElement, _ attribute: String) throws(SVGUnsupported) -> Double? {
        guard let text = element[attribute] else { return nil }
        if text.hasSuffix("%"), let list = NumberScanner.list(String(text.dropLast())), list.count == 1 { return list[0] / 100 }
        return try number(element, attribute)
    }

    /// A transform list: matrix, translate, scale, rotate (about a point), skewX, skewY.
    static func matrix(_ text: String) throws(SVGUnsupported) -> CairoLibrary.Matrix {
        var result = CairoLibrary.Matrix()
        func then(_ m: CairoLibrary.Matrix) {
            // result × m: m applies first, as the list reads left to right from the outside in.
            result = CairoLibrary.Matrix(
                xx: result.xx * m.xx + result.xy * m.yx, yx: result.yx * m.xx + result.yy * m.yx,
                xy: result.xx * m.xy + result.xy * m.yy, yy: result.yx * m.xy + result.yy * m.yy,
                x0: result.xx * m.x0 + result.xy * m.y0 + result.x0, y0: result.yx * m.x0 + result.yy * m.y0 + result.y0)
        }
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }
            guard !rest.isEmpty else { return result }
            guard let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")"), open < close else {
                throw SVGUnsupported("transform=\"\(text)\"")
            }
            let name = rest[..<open].trimmingSpaces
            guard let values = NumberScanner.list(String(rest[rest.index(after: open)..<close])) else { throw SVGUnsupported("transform=\"\(text)\"") }
            rest = rest[rest.index(after: close)...]
            switch (name, values.count) {
            case ("matrix", 6): then(CairoLibrary.Matrix(xx: values[0], yx: values[1], xy: values[2], yy: values[3], x0: values[4], y0: values[5]))
            case ("translate", 1), ("translate", 2): then(CairoLibrary.Matrix(x0: values[0], y0: values.count == 2 ? values[1] : 0))
            case ("scale", 1), ("scale", 2): then(CairoLibrary.Matrix(xx: values[0], yy: values.count == 2 ? values[1] : values[0]))
            case ("rotate", 1), ("rotate", 3):
                let angle = values[0] * .pi / 180
                let (cx, cy) = values.count == 3 ? (values[1], values[2]) : (0, 0)
                then(CairoLibrary.Matrix(x0: cx, y0: cy))
                then(CairoLibrary.Matrix(xx: cos(angle), yx: sin(angle), xy: -sin(angle), yy: cos(angle)))
                then(CairoLibrary.Matrix(x0: -cx, y0: -cy))
            case ("skewX", 1): then(CairoLibrary.Matrix(xy: tan(values[0] * .pi / 180)))
            case ("skewY", 1): then(CairoLibrary.Matrix(yx: tan(values[0] * .pi / 180)))
            default: throw SVGUnsupported("transform=\"\(text)\"")
            }
        }
    }

    /// The cairo operator of a group's `mix-blend-mode` (in its style), nil for normal.
    static func blendOperator(_ element: SVGElement) throws(SVGUnsupported) -> Int32? {
        guard let style = element["style"] else { return nil }
        var mode: String?
        for declaration in style.split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingSpaces }
            guard parts.count == 2 else { continue }
            guard parts[0] == "mix-blend-mode" else { throw SVGUnsupported("the style \"\(parts[0])\"") }
            mode = parts[1]
        }
        guard let mode, mode != "normal" else { return nil }
        let operators: [String: Int32] = [
            "multiply": 14, "screen": 15, "overlay": 16, "darken": 17, "lighten": 18, "color-dodge": 19, "color-burn": 20,
            "hard-light": 21, "soft-light": 22, "difference": 23, "exclusion": 24, "hue": 25, "saturation": 26, "color": 27, "luminosity": 28,
            "plus-lighter": 12,
        ]
        guard let value = operators[mode] else { throw SVGUnsupported("mix-blend-mode: \(mode)") }
        return value
    }
}

extension SVGPainter {
    /// A fill or a stroke: a colour (straight RGBA, 0 to 1) or a gradient named by id.
    enum PaintValue: Equatable {
        case color(Double, Double, Double, Double)
        case reference(String)

        /// `none` is nil; `#rgb`, `#rrggbb`, a few names, `url(#id)`.
        init?(_ text: String) throws(SVGUnsupported) {
            let value = text.trimmingSpaces
            switch value {
            case "none": return nil
            case "black": self = .color(0, 0, 0, 1)
            case "white": self = .color(1, 1, 1, 1)
            case "transparent": self = .color(0, 0, 0, 0)
            default:
                if let id = SVGPainter.referencedID(value) {
                    self = .reference(id)
                    return
                }
                let digits = Array(value.utf8.dropFirst())
                guard value.hasPrefix("#"), digits.count == 6 || digits.count == 3, let number = UInt32(value.dropFirst(), radix: 16) else {
                    throw SVGUnsupported("the colour \"\(value)\"")
                }
                if digits.count == 3 {
                    let (r, g, b) = (number >> 8 & 0xf, number >> 4 & 0xf, number & 0xf)
                    self = .color(Double(r * 17) / 255, Double(g * 17) / 255, Double(b * 17) / 255, 1)
                } else {
                    self = .color(Double(number >> 16 & 0xff) / 255, Double(number >> 8 & 0xff) / 255, Double(number & 0xff) / 255, 1)
                }
            }
        }
    }

    /// The properties an element passes to what it holds.
    struct Style {
        var fill: PaintValue? = .color(0, 0, 0, 1)
        var fillOpacity = 1.0
        var fillRule = "nonzero"
        var stroke: PaintValue?
        var strokeOpacity = 1.0
        var strokeWidth = 1.0
        var lineCap = "butt"
        var lineJoin = "miter"
        var dashes: [Double] = []
        var dashOffset = 0.0
        var fontFamily = "sans-serif"
        var fontSize = 16.0
        var fontWeight = 400
        var italic = false
        var letterSpacing = 0.0
        var anchor = "start"
        var decoration: [String] = []
        var display = "inline"

        /// The family list's names.
        var families: [String] { fontFamily.split(separator: ",").map(String.init) }

        /// The element's own presentation attributes taken over those inherited.
        mutating func take(_ element: SVGElement) throws(SVGUnsupported) {
            func number(_ name: String) throws(SVGUnsupported) -> Double? { try SVGPainter.length(element, name) }
            if let value = element["fill"] { fill = try PaintValue(value) }
            if let value = try number("fill-opacity") { fillOpacity = min(1, max(0, value)) }
            if let value = element["fill-rule"] { fillRule = value }
            if let value = element["stroke"] { stroke = try PaintValue(value) }
            if let value = try number("stroke-opacity") { strokeOpacity = min(1, max(0, value)) }
            if let value = try number("stroke-width") { strokeWidth = value }
            if let value = element["stroke-linecap"] { lineCap = value }
            if let value = element["stroke-linejoin"] { lineJoin = value }
            if let value = element["stroke-dasharray"] {
                guard value == "none" || NumberScanner.list(value) != nil else { throw SVGUnsupported("stroke-dasharray=\"\(value)\"") }
                dashes = value == "none" ? [] : NumberScanner.list(value)!
            }
            if let value = try number("stroke-dashoffset") { dashOffset = value }
            if let value = element["font-family"] {
                // Pango's list: names without their quotes, separated by commas.
                fontFamily = value.split(separator: ",").map { $0.trimmingSpaces.trimmingAny(of: "'\"") }
                    .joined(separator: ",")
            }
            if let value = try number("font-size") { fontSize = value }
            if let value = element["font-weight"] {
                switch value {
                case "normal": fontWeight = 400
                case "bold": fontWeight = 700
                default:
                    guard let weight = Int(value), (1...1000).contains(weight) else { throw SVGUnsupported("font-weight=\"\(value)\"") }
                    fontWeight = weight
                }
            }
            if let value = element["font-style"] { italic = value == "italic" || value == "oblique" }
            if let value = element["letter-spacing"] { letterSpacing = value == "normal" ? 0 : try number("letter-spacing") ?? 0 }
            if let value = element["text-anchor"] { anchor = value }
            if let value = element["text-decoration"] { decoration = value.split(separator: " ").map(String.init) }
            if let value = element["display"] { display = value }
        }
    }

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
