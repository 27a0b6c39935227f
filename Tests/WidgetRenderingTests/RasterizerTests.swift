import Foundation
import Testing
@testable import WidgetRendering
import WidgetWire

/// Pixels from the SVG renderer's drawings (cairo, FreeType and fontconfig, loaded at run time).
@Suite struct RasterizerTests {
    @Test func aMissingLibraryIsNamedWithItsDebianPackage() {
        guard case .failure(let error) = Rasterizer.load([("libcairo.so.2", "libcairo2"), ("libfreetype-absent.so.6", "libfreetype6"), ("libfontconfig.so.1", "libfontconfig1")]) else {
            Issue.record("loaded a library that does not exist")
            return
        }
        #expect(error.description.hasPrefix("cannot draw pixels: libfreetype-absent.so.6 cannot be loaded ("))
        #expect(error.description.hasSuffix("); install the Debian package libfreetype6"))
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

/// Where a tap on a drawing lands: the desktop surface asks, the home screen's browser knows by itself.
struct TapAreaTests {
    @Test func linksAndControlsAreFoundWhereTheyAreDrawn() throws {
        let link = ViewNode("link", attributes: JSONObject([("url", .string("app://one"))]), children: [ViewNode("text", attributes: JSONObject([("text", .string("One"))]))])
        let button = ViewNode(
            "button", attributes: JSONObject([("intent", .object(JSONObject([("type", .string("Heal"))])))]),
            children: [ViewNode("text", attributes: JSONObject([("text", .string("Heal"))]))])
        let view = ViewNode("vstack", children: [link, ViewNode("spacer"), button])
        let renderer = SVGRenderer(appearance: .light)
        let medium = renderer.tapAreas(view, family: .systemMedium)
        #expect(medium.map(\.target) == [.link(1), .control(1)])
        let (first, second) = (medium[0].rect, medium[1].rect)
        #expect(first.y < second.y, "the link above the button")
        #expect(first.width > 0 && first.height > 0 && second.width > 0)
        #expect(first.x >= 16 && first.y >= 16, "inside the content margins")
        // In a small widget the whole widget is one target, as on iOS: the link is no area of its own.
        #expect(renderer.tapAreas(view, family: .systemSmall).map(\.target) == [.control(1)])
    }
}
