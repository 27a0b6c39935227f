import Foundation
import Testing
@testable import WidgetRendering
import WidgetTestSupport
import WidgetWire

/// The painter draws the SVG renderer's drawings with cairo and Pango as librsvg draws them, so the
/// desktop needs no librsvg; what it does not draw goes to librsvg, or is named.
@Suite struct SVGPainterTests {
    /// Views with what the renderer writes: text in weights, sizes, italics, spacing and
    /// decoration, symbols, gradients (linear, radial, on text), shapes, strokes with dashes,
    /// clips, masks, blurs, blend modes, opacity, rotation and scale. Shadows and a dash in the
    /// path's own length (which librsvg 2.54 leaves out), pictures and anchored text are tested on
    /// their own below.
    static let views: [(name: String, json: String, family: WidgetFamily)] = [
        ("status", statusJSON, .systemMedium),
        ("text styles", #"""
            {"view":"vstack","alignment":"leading","spacing":2,"children":[
             {"view":"text","text":"Large Title","modifiers":[{"font":"largeTitle"},{"fontWeight":"heavy"}]},
             {"view":"text","text":"Italic caption, underlined","modifiers":[{"font":"caption"},{"italic":true},{"underline":true}]},
             {"view":"text","text":"Struck and spaced","modifiers":[{"strikethrough":true},{"tracking":2}]},
             {"view":"text","text":"Gradient words","modifiers":[{"font":"title2"},{"foregroundStyle":{"linearGradient":{"stops":[{"color":"red","location":0},{"color":"blue","location":1}],"startPoint":[0,0],"endPoint":[1,0]}}}]},
             {"view":"text","text":"Secondary, light","modifiers":[{"foregroundStyle":"secondary"},{"fontWeight":"light"}]}]}
            """#, .systemMedium),
        ("symbols", #"""
            {"view":"hstack","spacing":6,"children":[
             {"view":"image","systemName":"heart.fill","modifiers":[{"foregroundColor":"red"}]},
             {"view":"image","systemName":"star.circle.fill","modifiers":[{"foregroundColor":"orange"},{"font":"title"}]},
             {"view":"image","systemName":"bell.slash","modifiers":[{"symbolRenderingMode":"hierarchical"}]},
             {"view":"image","systemName":"checkmark","modifiers":[{"fontWeight":"bold"}]},
             {"view":"image","systemName":"cloud.sun.fill","modifiers":[{"font":"largeTitle"}]}]}
            """#, .systemSmall),
        ("shapes", #"""
            {"view":"zstack","children":[
             {"view":"shape","shape":"circle","fill":{"radialGradient":{"stops":[{"color":"yellow","location":0},{"color":"clear","location":1}],"center":[0.5,0.5],"startRadius":0,"endRadius":60}}},
             {"view":"shape","shape":"roundedRectangle","cornerRadius":12,"stroke":{"paint":"blue","lineWidth":3,"dash":[6,3]},"modifiers":[{"frame":{"width":100,"height":60}}]},
             {"view":"shape","shape":"circle","stroke":{"paint":"green","lineWidth":8},"modifiers":[{"frame":{"width":80,"height":80}}]},
             {"view":"shape","shape":"capsule","fill":"purple/0.5","modifiers":[{"frame":{"width":60,"height":20}},{"rotationEffect":{"degrees":30}}]},
             {"view":"shape","shape":"path","path":[["M",0,0],["L",40,0],["Q",50,20,40,40],["C",30,50,10,50,0,40],["Z"]],"fill":"teal","modifiers":[{"frame":{"width":50,"height":50}},{"offset":{"x":40,"y":40}}]}]}
            """#, .systemSmall),
        ("effects", #"""
            {"view":"hstack","spacing":16,"children":[
             {"view":"vstack","spacing":10,"children":[
              {"view":"text","text":"Blurred","modifiers":[{"blur":{"radius":3}}]},
              {"view":"text","text":"Scaled","modifiers":[{"scaleEffect":{"x":1.5,"y":1.5}}]}]},
             {"view":"shape","shape":"circle","fill":"indigo","modifiers":[{"frame":{"width":70,"height":70}},{"blur":{"radius":8}}]}]}
            """#, .systemMedium),
        ("layers", #"""
            {"view":"hstack","spacing":16,"children":[
             {"view":"vstack","spacing":8,"children":[
              {"view":"shape","shape":"rectangle","fill":"orange","modifiers":[{"frame":{"width":80,"height":24}},{"blendMode":"multiply"},{"opacity":0.7}]},
              {"view":"mask","children":[
               {"view":"shape","shape":"rectangle","fill":{"linearGradient":{"stops":[{"color":"blue","location":0},{"color":"green","location":1}],"startPoint":[0,0],"endPoint":[1,1]}},"modifiers":[{"frame":{"width":90,"height":30}}]},
               {"view":"text","text":"MASK","modifiers":[{"font":"title"},{"fontWeight":"black"}]}]}]},
             {"view":"shape","shape":"rectangle","fill":"red","modifiers":[{"frame":{"width":90,"height":90}},{"clipShape":{"shape":"circle"}}]}]}
            """#, .systemMedium),
        ("gauge", #"""
            {"view":"vstack","spacing":8,"children":[
             {"view":"gauge","value":0.6,"label":{"view":"text","text":"Battery"}},
             {"view":"progressView","value":0.3,"total":1},
             {"view":"divider"},
             {"view":"text","text":"Dark and light","modifiers":[{"foregroundColor":"primary"}]}]}
            """#, .systemSmall),
        ("rectangular", #"{"view":"vstack","alignment":"leading","children":[{"view":"text","text":"Next","modifiers":[{"font":"headline"}]},{"view":"text","text":"Meeting at 10:00"}]}"#, .accessoryRectangular),
    ]

    static let statusJSON = #"""
        {"view":"vstack","alignment":"leading","spacing":4,"children":[
         {"view":"text","text":"Game Status","modifiers":[{"font":"headline"},{"foregroundColor":"orange"}]},
         {"view":"text","text":"The party rests at the inn before the long climb to the tower"},
         {"view":"divider"},
         {"view":"hstack","children":[{"view":"text","text":"★ Unipony"},{"view":"spacer"},{"view":"text","text":"♥ 45","modifiers":[{"foregroundColor":"red"}]}]}]}
        """#

    /// How far two images are apart: the mean over pixels of the largest channel difference, and
    /// the share of pixels more than a quarter of the range apart. A pixel is compared with the
    /// closest of the other image's within a pixel of it, both ways, so that text set a fraction
    /// of a pixel apart (Pango's baseline and letter spacing as librsvg asks for them) is alike,
    /// and a missing, misplaced or miscoloured shape is not.
    static func difference(_ a: RasterImage, _ b: RasterImage) -> (mean: Double, far: Double) {
        precondition(a.width == b.width && a.height == b.height)
        func oneWay(_ a: RasterImage, _ b: RasterImage) -> (total: Int, far: Int) {
            a.pixels.withUnsafeBytes { first in
                b.pixels.withUnsafeBytes { second in
                    func pixel(_ bytes: UnsafeRawBufferPointer, _ image: RasterImage, _ x: Int, _ y: Int) -> UInt32 {
                        bytes.loadUnaligned(fromByteOffset: y * image.stride + x * 4, as: UInt32.self)
                    }
                    // The largest of the four channels' differences. Written out: this test code is
                    // built unoptimized, where an array of shifts and the generic `abs` made these
                    // comparisons a few percent of the whole test run's CPU.
                    func apart(_ p: UInt32, _ q: UInt32) -> Int {
                        func channel(_ shift: UInt32) -> Int {
                            let difference = Int(p >> shift & 0xff) - Int(q >> shift & 0xff)
                            return difference < 0 ? -difference : difference
                        }
                        return max(max(channel(0), channel(8)), max(channel(16), channel(24)))
                    }
                    var (total, far) = (0, 0)
                    for y in 0..<a.height {
                        for x in 0..<a.width {
                            let own = pixel(first, a, x, y)
                            var closest = apart(own, pixel(second, b, x, y))
                            if closest > 8 {
                                for dy in -1...1 where y + dy >= 0 && y + dy < a.height {
                                    for dx in -1...1 where x + dx >= 0 && x + dx < a.width { closest = min(closest, apart(own, pixel(second, b, x + dx, y + dy))) }
                                }
                            }
                            total += closest
                            if closest > 64 { far += 1 }
                        }
                    }
                    return (total, far)
                }
            }
        }
        let (forth, back) = (oneWay(a, b), oneWay(b, a))
        let count = Double(a.width * a.height)
        return (Double(max(forth.total, back.total)) / count, Double(max(forth.far, back.far)) / count)
    }

    @Test(.needsInter("the comparison of drawn text with librsvg's is"), arguments: [Appearance.light, .dark])
    func thePainterDrawsWhatLibrsvgDraws(_ appearance: Appearance) async throws {
        // Drawn on a thread of its own: the rasterizer draws one picture at a time, and the other
        // appearance's case, waiting for it on one of the cooperative pool's two threads, held up
        // every other test for the seconds these drawings take in a debug build.
        let compared = try await blocking { Result { try Self.compareWithLibrsvg(appearance) } }.get()
        #expect(compared.count == Self.views.count)
        for (name, mean, far) in compared {
            #expect(mean < 2, "\(name), \(appearance): a mean difference of \(mean) from librsvg's")
            #expect(far < 0.01, "\(name), \(appearance): \(far * 100)% of pixels far from librsvg's")
        }
    }

    /// Each view drawn by the painter and by librsvg: its name, the mean difference of their pixels
    /// and the share of pixels far apart.
    static func compareWithLibrsvg(_ appearance: Appearance) throws -> [(name: String, mean: Double, far: Double)] {
        let rasterizer = try Rasterizer.shared()
        return try views.map { (name, json, family) in
            let svg = SVGRenderer(appearance: appearance).render(view(json), family: family, now: Date(timeIntervalSince1970: 1_700_000_000))
            let size = family.displaySize
            let (width, height) = (Int(size.width * 2), Int(size.height * 2))
            let painted = try rasterizer.image(svg: svg, width: width, height: height, engine: .painter)
            let reference = try rasterizer.image(svg: svg, width: width, height: height, engine: .librsvg)
            if ProcessInfo.processInfo.environment["WIDGETS_PAINTER_PNGS"] != nil {
                try Data(rasterizer.png(painted)).write(to: URL(fileURLWithPath: "/tmp/painter-\(name)-\(appearance).png"))
                try Data(rasterizer.png(reference)).write(to: URL(fileURLWithPath: "/tmp/librsvg-\(name)-\(appearance).png"))
            }
            let (mean, far) = difference(painted, reference)
            return (name, mean, far)
        }
    }
}

extension SVGPainterTests {
    /// The views above make every construct the painter draws (else the comparison covers less
    /// than it says).
    @Test func theViewsCoverWhatTheRendererWrites() {
        let all = Self.views.map { SVGRenderer(appearance: .light).render(view($0.json), family: $0.family) }.joined()
        for construct in [
            "<mask", "<feGaussianBlur", "mix-blend-mode: multiply", "<radialGradient", "<linearGradient", "stroke-dasharray=\"6 3\"",
            "<clipPath", "font-style=\"italic\"", "letter-spacing=", "text-decoration=\"underline\"", "text-decoration=\"line-through\"",
            "rotate(", "scale(", " opacity=\"", "<ellipse", "<path", "<rect", "<line", "fill-rule=\"evenodd\"", "stroke-linecap=\"round\"",
            "font-weight=\"700\"", "font-weight=\"300\"", "'Inter Display'",
        ] {
            #expect(all.contains(construct), "no view makes \(construct)")
        }
    }
}

extension SVGPainterTests {
    static func svg(_ body: String, width: Int = 100, height: Int = 100) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\(body)</svg>"
    }

    /// A dash in a length of the author's (`pathLength`, what a trimmed shape and a circular gauge
    /// are drawn with) is scaled to the path's own length, as browsers draw it. (librsvg 2.54
    /// ignores it.)
    @Test func aDashInThePathsOwnLengthIsScaledToTheOutline() throws {
        let rasterizer = try Rasterizer.shared()
        // Half of a circle from its rightmost point, clockwise: its lower half.
        let half = Self.svg(##"<circle cx="50" cy="50" r="40" fill="none" stroke="#000000" stroke-width="8" pathLength="100" stroke-dasharray="50 100"/>"##)
        let image = try rasterizer.image(svg: half, width: 100, height: 100, engine: .painter)
        #expect(image.color(x: 50, y: 90).alpha == 255, "the bottom, a quarter of the way round")
        #expect(image.color(x: 10, y: 52).alpha > 0, "the leftmost point, half of the way round")
        #expect(image.color(x: 50, y: 10).alpha == 0, "not the top")
        #expect(image.color(x: 10, y: 40).alpha == 0, "not past half")
    }

    /// A drop shadow: the shape's outline in the flood colour, blurred and moved under it; the shape
    /// itself as it is. (librsvg 2.54 draws nothing of a group with one.)
    @Test func aDropShadowLiesUnderTheShapeMovedAndBlurred() throws {
        let rasterizer = try Rasterizer.shared()
        let svg = Self.svg(
            ##"<filter id="s" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="0" dy="6" stdDeviation="2" flood-color="#000000" flood-opacity="0.5"/></filter>"##
                + ##"<g filter="url(#s)"><rect x="20" y="20" width="40" height="20" fill="#ff0000"/></g>"##)
        let image = try rasterizer.image(svg: svg, width: 100, height: 100, engine: .painter)
        #expect(image.color(x: 40, y: 30) == (255, 0, 0, 255), "the shape on top")
        let below = image.color(x: 40, y: 44)
        #expect(below.red == 0 && below.alpha > 60 && below.alpha < 140, "the shadow below, half opaque: \(below)")
        #expect(image.color(x: 40, y: 17).alpha < below.alpha / 4, "less above: it is moved down")
        #expect(image.color(x: 40, y: 56).alpha == 0, "blurred only so far")
        let edge = image.color(x: 40, y: 49).alpha
        #expect(edge > 0 && edge < below.alpha, "its edge blurred: \(edge)")
        // A blur stays where its shape is: as much on each side, of an even box size (4 pixels for a
        // deviation of 2) as of an odd one (5 for 2.5).
        for deviation in ["2", "2.5"] {
            let blurred = try rasterizer.image(
                svg: Self.svg(
                    ##"<filter id="b"><feGaussianBlur stdDeviation="\##(deviation)"/></filter><g filter="url(#b)"><rect x="40" y="40" width="20" height="20" fill="#000000"/></g>"##),
                width: 100, height: 100, engine: .painter)
            for offset in [1, 3, 5] {
                #expect(blurred.color(x: 40 - offset, y: 50).alpha == blurred.color(x: 59 + offset, y: 50).alpha, "deviation \(deviation), \(offset) out, across")
                #expect(blurred.color(x: 50, y: 40 - offset).alpha == blurred.color(x: 50, y: 59 + offset).alpha, "deviation \(deviation), \(offset) out, down")
            }
            #expect(blurred.color(x: 38, y: 50).alpha > 0 && blurred.color(x: 50, y: 50).alpha == 255)
        }
    }

    /// Text anchored in its middle or at its end, and text without `xml:space` (its spaces
    /// collapsed), as the desktop's "as of" note is written: drawn where librsvg draws it.
    @Test func anchoredTextIsPlacedAsLibrsvgPlacesIt() throws {
        let rasterizer = try Rasterizer.shared()
        let svg = Self.svg(
            ##"<text x="100" y="20" text-anchor="middle" font-size="11" font-family="Inter" fill="#ff0000">  as of   10:42 </text>"##
                + ##"<text x="190" y="50" text-anchor="end" font-size="15" font-family="Inter" font-weight="600" fill="#0000ff">Ends here</text>"##, width: 200, height: 60)
        let painted = try rasterizer.image(svg: svg, width: 400, height: 120, engine: .painter)
        let reference = try rasterizer.image(svg: svg, width: 400, height: 120, engine: .librsvg)
        let (mean, far) = Self.difference(painted, reference)
        #expect(mean < 2 && far < 0.01, "mean \(mean), far \(far)")
        // The red text is centred on x = 100 points: as much ink left of it as right.
        var (left, right) = (0, 0)
        for y in 0..<60 {
            for x in 0..<400 where painted.color(x: x, y: y).red > 128 && painted.color(x: x, y: y).alpha > 128 {
                if x < 200 { left += 1 } else { right += 1 }
            }
        }
        #expect(left > 0 && abs(left - right) < (left + right) / 5, "left \(left), right \(right)")
    }

    /// A PNG picture is drawn by the painter, stretched to its place; a picture of another kind is
    /// librsvg's, and without librsvg the error names it, its package, and what needed it.
    @Test func picturesArePaintedAndWhatThePainterCannotDrawIsLibrsvgs() throws {
        let rasterizer = try Rasterizer.shared()
        let red = try rasterizer.png(rasterizer.image(svg: Self.svg(##"<rect width="4" height="4" fill="#ff0000"/>"##, width: 4, height: 4), width: 4, height: 4))
        let picture = Self.svg(##"<image x="10" y="10" width="40" height="20" preserveAspectRatio="none" href="data:image/png;base64,\##(Data(red).base64EncodedString())"/>"##)
        let painted = try rasterizer.image(svg: picture, width: 100, height: 100, engine: .painter)
        #expect(painted.color(x: 48, y: 28) == (255, 0, 0, 255), "stretched to 40 × 20")
        #expect(painted.color(x: 52, y: 15).alpha == 0 && painted.color(x: 20, y: 32).alpha == 0)

        let jpeg = Self.svg(##"<rect width="10" height="10" fill="#00ff00"/><image width="10" height="10" href="data:image/jpeg;base64,/9j/4AAQ"/>"##, width: 10, height: 10)
        #expect {
            try rasterizer.image(svg: jpeg, width: 10, height: 10, engine: .painter)
        } throws: { ($0 as? RasterError)?.description.contains("a picture that is not a PNG (data:image/jpeg") ?? false }
        // Either: librsvg draws it (the broken JPEG left out, the rectangle drawn).
        #expect(try rasterizer.image(svg: jpeg, width: 10, height: 10).color(x: 5, y: 5) == (0, 255, 0, 255))
        guard case .success(let withoutLibrsvg) = Rasterizer.load(Rasterizer.libraries, fallback: ("librsvg-absent.so.2", "librsvg2-2")) else {
            Issue.record("cairo and Pango did not load")
            return
        }
        #expect(try withoutLibrsvg.image(svg: Self.svg(##"<rect width="10" height="10" fill="#00ff00"/>"##, width: 10, height: 10), width: 10, height: 10).color(x: 5, y: 5).green == 255, "librsvg is not needed")
        #expect {
            try withoutLibrsvg.image(svg: jpeg, width: 10, height: 10)
        } throws: { error in
            let text = (error as? RasterError)?.description ?? ""
            return text.hasPrefix("cannot draw pixels: librsvg-absent.so.2 cannot be loaded (") && text.contains("install the Debian package librsvg2-2")
                && text.hasSuffix("(librsvg draws what this drawing has: a picture that is not a PNG (data:image/jpeg;base64,/…))")
        }
    }

    /// Text is set glyph by glyph in the faces the layout measured, without Pango: Inter, and an
    /// installed face for what Inter lacks (★). Text that needs shaping (Hebrew, Arabic, a combining
    /// mark) is Pango's, set as librsvg sets it; without Pango, the error names it and its package.
    @Test(.needsInter("the comparison of text set without Pango is"))
    func textIsSetWithoutPangoButWhatNeedsShaping() throws {
        guard case .success(let withoutPango) = Rasterizer.load(Rasterizer.libraries, shaping: ("libpangocairo-absent.so.0", "libpangocairo-1.0-0")) else {
            Issue.record("cairo, FreeType and fontconfig did not load")
            return
        }
        let (name, json, family) = Self.views[0]
        let status = SVGRenderer(appearance: .light).render(view(json), family: family, now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(name == "status" && status.contains("★"))
        let size = family.displaySize
        let plain = try withoutPango.image(svg: status, width: Int(size.width), height: Int(size.height), engine: .painter)
        let reference = try Rasterizer.shared().image(svg: status, width: Int(size.width), height: Int(size.height), engine: .librsvg)
        let (mean, far) = Self.difference(plain, reference)
        #expect(mean < 2 && far < 0.01, "mean \(mean), far \(far)")
        // What Inter lacks, large: in the face fontconfig finds with it, as Pango finds it.
        let stars = Self.svg(##"<text x="10" y="50" font-size="40" font-family="Inter" fill="#000000">☃♞a☯ ░█</text>"##, width: 200, height: 60)
        let ours = try withoutPango.image(svg: stars, width: 200, height: 60, engine: .painter)
        let pangos = try Rasterizer.shared().image(svg: stars, width: 200, height: 60, engine: .librsvg)
        let starDifference = Self.difference(ours, pangos)
        // librsvg's Pango rounds each advance to a whole pixel (its metrics hinted), the painter
        // keeps the fractions the layout measured: at 40 points a glyph or two drift by a pixel or
        // two. The glyph the face lacks drawn instead (its empty box) is over 70 and 30% apart.
        #expect(starDifference.mean < 5 && starDifference.far < 0.03, "mean \(starDifference.mean), far \(starDifference.far)")

        for words in ["שלום עולם", "مرحبا بالعالم", "Cafe\u{301} e\u{308}"] {
            let svg = Self.svg(##"<text x="10" y="30" font-size="17" font-family="Inter" fill="#000000" xml:space="preserve">\##(words)</text>"##, width: 200, height: 40)
            #expect {
                try withoutPango.image(svg: svg, width: 200, height: 40, engine: .painter)
            } throws: { error in
                (error as? RasterError)?.description
                    == "cannot draw pixels: the painter does not draw text that needs shaping, which Pango sets (libpangocairo-absent.so.0 cannot be loaded (libpangocairo-absent.so.0: cannot open shared object file: No such file or directory); install the Debian package libpangocairo-1.0-0)"
            }
            let shaped = try Rasterizer.shared().image(svg: svg, width: 400, height: 80, engine: .painter)
            let theirs = try Rasterizer.shared().image(svg: svg, width: 400, height: 80, engine: .librsvg)
            let (mean, far) = Self.difference(shaped, theirs)
            #expect(mean < 2 && far < 0.01, "\(words): mean \(mean), far \(far)")
            #expect(shaped.pixels.contains { $0 != 0 }, "\(words) drawn")
        }
    }

    /// Path data in every command SVG has, relative and absolute, numbers run together as SVG
    /// allows; arcs as curves through the right points.
    @Test func pathDataIsReadAsSVGWritesIt() throws {
        #expect(try SVGPath.parse("M10 20 h5 v5 H0 V0 z") == [.move(10, 20), .line(15, 20), .line(15, 25), .line(0, 25), .line(0, 0), .close])
        #expect(try SVGPath.parse("m1,1 2,2 l-1-1.5.5.5") == [.move(1, 1), .line(3, 3), .line(2, 1.5), .line(2.5, 2)])
        #expect(try SVGPath.parse("M0 0 1e1 0") == [.move(0, 0), .line(10, 0)])
        // A quadratic curve raised to a cubic one: control points two thirds of the way to its control.
        #expect(try SVGPath.parse("M0 0 Q30 30 60 0") == [.move(0, 0), .curve(20, 20, 40, 20, 60, 0)])
        // S and T mirror the last control point.
        let smooth = try SVGPath.parse("M0 0 C0 10 10 10 10 0 S20 -10 20 0")
        #expect(smooth.last == .curve(10, -10, 20, -10, 20, 0))
        // An arc from (0, 0) to (20, 0) about (10, 0), sweeping the positive way: over the top, in two quarters.
        let arc = try SVGPath.parse("M0 0 A10 10 0 0 1 20 0")
        #expect(arc.count == 3)
        if case .curve(_, _, _, _, let x, let y) = arc[1] { #expect(abs(x - 10) < 1e-9 && abs(y + 10) < 1e-9, "\(x), \(y)") }
        if case .curve(_, _, _, _, let x, let y) = arc[2] { #expect(x == 20 && y == 0) }
        // Flags run into the numbers after them; radii too small are scaled up to reach.
        let compact = try SVGPath.parse("M0 0a1 1 0 0020 0")
        if case .curve(_, _, _, _, let x, let y) = compact[1] { #expect(abs(x - 10) < 1e-9 && abs(y - 10) < 1e-9, "the other way: under, \(x), \(y)") }
        #expect(throws: SVGUnsupported.self) { try SVGPath.parse("M0 0 X5") }
        #expect(throws: SVGUnsupported.self) { try SVGPath.parse("10 10") }
        #expect(throws: SVGUnsupported.self) { try SVGPath.parse("M0 0 L5") }
    }

    /// XML as the renderer writes it, and an error naming where what is not.
    @Test func theDocumentIsReadWithItsEntitiesAndErrorsSayWhere() throws {
        let root = try SVGElement.parse(##"<?xml version="1.0"?><!-- a drawing --><svg a='1'><text x="1">Tom &amp; Jerry &lt;3 &#x2665;&#9829;</text><g/></svg>"##)
        #expect(root.name == "svg" && root["a"] == "1")
        #expect(root.children.map(\.name) == ["text", "g"])
        #expect(root.children[0].text == "Tom & Jerry <3 ♥♥")
        #expect(throws: SVGUnsupported("the SVG is not XML the painter reads: </g> ends <text> at byte 14")) { try SVGElement.parse("<svg><text></g></svg>") }
        #expect(throws: SVGUnsupported.self) { try SVGElement.parse("<svg><rect x=1/></svg>") }
        #expect(throws: SVGUnsupported.self) { try SVGElement.parse("<svg>&nope;</svg>") }
        #expect(throws: SVGUnsupported.self) { try SVGElement.parse("<svg></svg><svg/>") }
    }

    /// Transforms compose left to right as SVG's list says, and rotate about a point.
    @Test func transformListsComposeAsSVGSays() throws {
        let matrix = try SVGPainter.matrix("translate(10 20) scale(2) rotate(90 5 5)")
        // (0, 0) rotated a quarter about (5, 5) is (10, 0); doubled, (20, 0); moved, (30, 20).
        let (x, y) = (matrix.xx * 0 + matrix.xy * 0 + matrix.x0, matrix.yx * 0 + matrix.yy * 0 + matrix.y0)
        #expect(abs(x - 30) < 1e-9 && abs(y - 20) < 1e-9, "\(x), \(y)")
        #expect(throws: SVGUnsupported.self) { try SVGPainter.matrix("spin(3)") }
    }
}
