import Foundation
import Testing
@testable import WidgetRendering

/// Pixels from the SVG renderer's drawings (librsvg and cairo, loaded at run time).
@Suite struct RasterizerTests {
    @Test func aMissingLibraryIsNamedWithItsDebianPackage() {
        guard case .failure(let error) = Rasterizer.load([("librsvg-2-absent.so.2", "librsvg2-2"), ("libcairo.so.2", "libcairo2")]) else {
            Issue.record("loaded a library that does not exist")
            return
        }
        #expect(error.description.hasPrefix("cannot draw pixels: librsvg-2-absent.so.2 cannot be loaded ("))
        #expect(error.description.hasSuffix("); install the Debian package librsvg2-2"))
    }

    @Test func anSVGIsDrawnToTheSizeAskedAndBackThroughAPNG() throws {
        let rasterizer = try Rasterizer.shared()
        // A red square in the left half of a 20 × 10 viewport, nothing in the right half.
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\" viewBox=\"0 0 20 10\"><rect width=\"10\" height=\"10\" fill=\"#ff0000\"/></svg>"
        let image = try rasterizer.image(svg: svg, width: 40, height: 20)
        #expect(image.width == 40 && image.height == 20)
        #expect(image.color(x: 5, y: 10) == (255, 0, 0, 255))
        #expect(image.color(x: 30, y: 10).alpha == 0, "transparent where nothing is drawn")
        let png = try rasterizer.png(image)
        #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try rasterizer.image(png: png) == image)
        #expect(throws: RasterError.self) { try rasterizer.image(svg: "<svg", width: 10, height: 10) }
        #expect(throws: RasterError.self) { try rasterizer.image(png: [1, 2, 3]) }
        #expect(throws: RasterError.self) { try rasterizer.image(svg: svg, width: 0, height: 10) }
        #expect(throws: RasterError.self) { try rasterizer.png(RasterImage(width: 40, height: 20, stride: 160, pixels: [0, 0, 0, 0])) }
        #expect(image.color(x: 40, y: 0) == (0, 0, 0, 0), "outside the image")
    }
}
