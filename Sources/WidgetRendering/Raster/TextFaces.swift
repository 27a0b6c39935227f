import Glibc

/// The faces text is drawn in, each opened once with FreeType and kept for the rasterizer's life:
/// Inter's files where the drawing names Inter and it is installed (the faces the layout measured,
/// with their advances, kerning and decoration lines), else the installed font fontconfig matches
/// to the drawing's family list; and for a character the face lacks (an emoji, a CJK ideograph, a
/// block element), the installed font fontconfig finds with it.
final class TextFaces {
    /// A face: cairo's font face over FreeType's, and Inter's own metrics when it is Inter.
    struct Face {
        let font: OpaquePointer
        let freeType: OpaquePointer
        let metrics: OpenTypeFont?
        /// The file and index: what caches know it by.
        let key: String
    }

    private let cairo: CairoLibrary
    private let fonts: FontLibrary
    private var library: OpaquePointer?
    private var files: [String: Face?] = [:]
    private var matches: [String: Face?] = [:]
    /// fontconfig's sorted fonts for a family list, weight and slant (an FcFontSet, kept).
    private var sortedFonts: [String: UnsafeMutableRawPointer?] = [:]
    /// Advances measured by cairo, per face and glyph, in ems (faces without metrics of their own).
    private var advances: [String: [UInt32: Double]] = [:]

    init(cairo: CairoLibrary, fonts: FontLibrary) {
        self.cairo = cairo
        self.fonts = fonts
    }

    /// A font file's face (`index` in a collection), opened once; nil when FreeType cannot open it.
    private func face(file: String, index: Int, metrics: OpenTypeFont?) -> Face? {
        let key = "\(file)#\(index)"
        if let known = files[key] { return known }
        var opened: Face?
        if library == nil, fonts.initFreeType(&library) != 0 { library = nil }
        var face: OpaquePointer?
        if let library, fonts.newFace(library, file, index, &face) == 0, let face {
            // Colour glyphs (an emoji font's) as colour; unhinted, as the layout measured.
            let loadFlags: Int32 = 1 << 20 /* FT_LOAD_COLOR */ | 1 << 1 /* FT_LOAD_NO_HINTING */
            if let font = cairo.ftFontFaceCreate(face, loadFlags) { opened = Face(font: font, freeType: face, metrics: metrics, key: key) }
        }
        files[key] = .some(opened)
        return opened
    }

    /// Inter's cut the family list names first ("Inter Display", the renderer's from 20 points, as
    /// the layout measured; else "Inter", the text cut), at the nearest of its weights; nil for
    /// another family, or when Inter is not installed.
    static func interCut(families: [String], weight: Int) -> SystemFont.Face? {
        guard let first = families.first, first == "Inter" || first == "Inter Display", SystemFont.directory != nil else { return nil }
        return SystemFont.Face(points: first == "Inter Display" ? 20 : 0, weight: weight)
    }

    /// The face the drawing's family list names at a weight (CSS's) and slant: Inter's file (see
    /// `interCut`) when the list starts with Inter and it is installed; else fontconfig's best match
    /// to the list.
    func primary(families: [String], weight: Int, italic: Bool) -> Face? {
        if let cut = Self.interCut(families: families, weight: weight), let directory = SystemFont.directory {
            let upright = cut.fileName
            if !italic, let metrics = SystemFont.load(cut, from: directory) {
                return face(file: directory + "/" + upright, index: 0, metrics: metrics)
            }
            // Inter's italics: "Inter-Italic.otf" for the regular weight, "Inter-BoldItalic.otf".
            let name = SystemFont.weightNames[cut.weight]!
            let italicFile = (cut.display ? "InterDisplay-" : "Inter-") + (name == "Regular" ? "" : name) + "Italic.otf"
            if let metrics = SystemFont.loadFile(directory + "/" + italicFile) {
                return face(file: directory + "/" + italicFile, index: 0, metrics: metrics)
            }
        }
        return match(families: families, weight: weight, italic: italic)
    }

    /// An installed face that has `scalar`, as near the family list, weight and slant as
    /// fontconfig finds (the first of its sorted fonts whose characters include it); nil when
    /// none has it. The sort is asked once for a list, weight and slant, and kept.
    func fallback(for scalar: Unicode.Scalar, families: [String], weight: Int, italic: Bool) -> Face? {
        let style = "\(families.joined(separator: ","))|\(weight)|\(italic)"
        let key = "\(style)|\(scalar.value)"
        if let known = matches[key] { return known }
        let sorted: UnsafeMutableRawPointer?
        if let kept = sortedFonts[style] {
            sorted = kept
        } else {
            sorted = pattern(families: families, weight: weight, italic: italic).flatMap { pattern in
                defer { fonts.patternDestroy(pattern) }
                var result: Int32 = 0
                return fonts.fontSort(nil, pattern, 1, nil, &result)
            }
            sortedFonts[style] = .some(sorted)
        }
        var found: Face?
        if let sorted {
            // FcFontSet { int nfont; int sfont; FcPattern **fonts; }
            let count = Int(sorted.load(as: Int32.self))
            let patterns = sorted.load(fromByteOffset: 8, as: UnsafeMutablePointer<OpaquePointer?>?.self)
            for index in 0..<count {
                guard let candidate = patterns?[index] else { continue }
                var characters: OpaquePointer?
                if fonts.patternGetCharSet(candidate, "charset", 0, &characters) == 0, fonts.charSetHasChar(characters, scalar.value) != 0 {
                    found = open(candidate)
                    break
                }
            }
        }
        if let face = found, fonts.charIndex(face.freeType, UInt(scalar.value)) == 0 { found = nil }
        matches[key] = .some(found)
        return found
    }

    /// fontconfig's pattern of a family list, a weight (CSS's) and a slant, with its defaults.
    private func pattern(families: [String], weight: Int, italic: Bool) -> OpaquePointer? {
        guard let pattern = fonts.patternCreate() else { return nil }
        for family in families { _ = fonts.patternAddString(pattern, "family", family) }
        _ = fonts.patternAddInteger(pattern, "weight", fonts.weightFromOpenType?(Int32(weight)) ?? (weight >= 600 ? 200 : 80))
        _ = fonts.patternAddInteger(pattern, "slant", italic ? 100 : 0)
        _ = fonts.configSubstitute(nil, pattern, 0 /* FcMatchPattern */)
        fonts.defaultSubstitute(pattern)
        return pattern
    }

    /// The face of a font fontconfig gave (its file and index).
    private func open(_ font: OpaquePointer) -> Face? {
        var file: UnsafePointer<CChar>?
        var index: Int32 = 0
        guard fonts.patternGetString(font, "file", 0, &file) == 0, let file else { return nil }
        _ = fonts.patternGetInteger(font, "index", 0, &index)
        return face(file: String(cString: file), index: Int(index), metrics: nil)
    }

    /// fontconfig's best match to a family list at a weight and slant.
    private func match(families: [String], weight: Int, italic: Bool) -> Face? {
        let key = "\(families.joined(separator: ","))|\(weight)|\(italic)"
        if let known = matches[key] { return known }
        var found: Face?
        if let pattern = pattern(families: families, weight: weight, italic: italic) {
            defer { fonts.patternDestroy(pattern) }
            var result: Int32 = 0
            if let matched = fonts.fontMatch(nil, pattern, &result) {
                defer { fonts.patternDestroy(matched) }
                found = open(matched)
            }
        }
        matches[key] = .some(found)
        return found
    }

    /// The glyph that draws `scalar` in the face (0: none).
    func glyph(_ scalar: Unicode.Scalar, in face: Face) -> UInt32 {
        if let metrics = face.metrics { return metrics.glyph(for: scalar).map(UInt32.init) ?? 0 }
        return fonts.charIndex(face.freeType, UInt(scalar.value))
    }

    /// A glyph's advance in ems: the face's own table for Inter, else as cairo measures it.
    func advance(_ glyph: UInt32, in face: Face, context: CairoLibrary.Context) -> Double {
        if let metrics = face.metrics { return Double(metrics.advance(UInt16(truncatingIfNeeded: glyph))) / Double(metrics.unitsPerEm) }
        if let known = advances[face.key]?[glyph] { return known }
        cairo.save(context)
        cairo.identityMatrix(context)
        cairo.setFontFace(context, face.font)
        cairo.setFontSize(context, 1000)
        var record = GlyphRecord(index: UInt(glyph), x: 0, y: 0)
        var extents = [Double](repeating: 0, count: 6)
        withUnsafeBytes(of: &record) { cairo.glyphExtents(context, $0.baseAddress, 1, &extents) }
        cairo.restore(context)
        let advance = extents[4] / 1000
        advances[face.key, default: [:]][glyph] = advance
        return advance
    }
}

/// cairo_glyph_t.
struct GlyphRecord {
    var index: UInt
    var x: Double
    var y: Double
}
