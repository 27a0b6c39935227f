import FoundationEssentials
import Glibc
import WidgetSupport

/// The painter's filter effects, on a layer's pixels: Gaussian blurs and drop shadows.
extension SVGPainter {
    /// The layer with the filter's effect: a Gaussian blur, or a drop shadow under it.
    func filter(_ layer: CairoLibrary.Surface, _ filter: SVGElement) throws(SVGUnsupported) -> CairoLibrary.Surface {
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
            guard let blurred = copy(layer) else { throw SVGUnsupported("cairo could not make a \(width) × \(height) layer") }
            blur(blurred, sigma: sigma)
            return blurred
        case "feDropShadow":
            let (dx, dy) = (try number(effect, "dx") ?? 2, try number(effect, "dy") ?? 2)
            guard case .color(let red, let green, let blue, let alpha) = try PaintValue(effect["flood-color"] ?? "black") else {
                throw SVGUnsupported("flood-color=\"\(effect["flood-color"] ?? "")\"")
            }
            let floodOpacity = (try number(effect, "flood-opacity").map { min(1, max(0, $0)) } ?? 1) * alpha
            guard let shadow = copy(layer) else { throw SVGUnsupported("cairo could not make a \(width) × \(height) layer") }
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
                throw SVGUnsupported("cairo could not make a \(width) × \(height) layer")
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

    func copy(_ surface: CairoLibrary.Surface) -> CairoLibrary.Surface? {
        guard let copy = cairo.imageSurfaceCreate(0, Int32(width), Int32(height)), let drawing = cairo.create(copy) else { return nil }
        cairo.setSourceSurface(drawing, surface, 0, 0)
        cairo.paint(drawing)
        cairo.destroy(drawing)
        cairo.surfaceFlush(copy)
        return copy
    }

    /// The surface's pixels (premultiplied ARGB32 words), rows `stride / 4` words apart, to change.
    func pixels(of surface: CairoLibrary.Surface, _ change: (inout UnsafeMutableBufferPointer<UInt32>, Int) -> Void) {
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
    func blur(_ surface: CairoLibrary.Surface, sigma: Double) {
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
    func boxBlur(_ line: [UInt32], into out: inout [UInt32], count: Int, before: Int, after: Int) {
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
}
