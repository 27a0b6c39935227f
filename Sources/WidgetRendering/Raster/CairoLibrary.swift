import Glibc

/// A function of a library loaded with `dlopen`, as the type it is called as; the error names it,
/// and what may be wrong (`hint`).
func lookUp<T>(_ handle: UnsafeMutableRawPointer, _ name: String, in hint: String) throws(RasterError) -> T {
    guard let address = dlsym(handle, name) else {
        throw RasterError("cannot draw pixels: \(name) is missing from the library loaded (\(hint))")
    }
    return unsafeBitCast(address, to: T.self)
}

/// cairo's functions the painter and the rasterizer call, looked up in the library loaded with
/// `dlopen` (no header is needed to build).
struct CairoLibrary {
    typealias Context = OpaquePointer
    typealias Surface = OpaquePointer
    typealias Pattern = OpaquePointer

    /// cairo_matrix_t: (x, y) goes to (xx x + xy y + x0, yx x + yy y + y0).
    struct Matrix {
        var xx = 1.0, yx = 0.0, xy = 0.0, yy = 1.0, x0 = 0.0, y0 = 0.0
    }


    typealias WriteFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, UInt32) -> Int32
    typealias ReadFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, UInt32) -> Int32

    // Surfaces.
    let imageSurfaceCreate: @convention(c) (Int32, Int32, Int32) -> Surface?
    let surfaceStatus: @convention(c) (Surface?) -> Int32
    let surfaceDestroy: @convention(c) (Surface?) -> Void
    let surfaceFlush: @convention(c) (Surface?) -> Void
    let surfaceMarkDirty: @convention(c) (Surface?) -> Void
    let imageSurfaceData: @convention(c) (Surface?) -> UnsafeMutablePointer<UInt8>?
    let imageSurfaceStride: @convention(c) (Surface?) -> Int32
    let imageSurfaceWidth: @convention(c) (Surface?) -> Int32
    let imageSurfaceHeight: @convention(c) (Surface?) -> Int32
    let writePNG: @convention(c) (Surface?, WriteFunction, UnsafeMutableRawPointer?) -> Int32
    let readPNG: @convention(c) (ReadFunction, UnsafeMutableRawPointer?) -> Surface?
    // Contexts and their state.
    let create: @convention(c) (Surface?) -> Context?
    let destroy: @convention(c) (Context?) -> Void
    let save: @convention(c) (Context?) -> Void
    let restore: @convention(c) (Context?) -> Void
    private let getMatrixC: @convention(c) (Context?, UnsafeMutablePointer<Double>?) -> Void
    private let setMatrixC: @convention(c) (Context?, UnsafePointer<Double>?) -> Void
    private let transformC: @convention(c) (Context?, UnsafePointer<Double>?) -> Void
    let identityMatrix: @convention(c) (Context?) -> Void
    let translate: @convention(c) (Context?, Double, Double) -> Void
    let scale: @convention(c) (Context?, Double, Double) -> Void
    // Paths.
    let newPath: @convention(c) (Context?) -> Void
    let moveTo: @convention(c) (Context?, Double, Double) -> Void
    let lineTo: @convention(c) (Context?, Double, Double) -> Void
    let curveTo: @convention(c) (Context?, Double, Double, Double, Double, Double, Double) -> Void
    let closePath: @convention(c) (Context?) -> Void
    let rectangle: @convention(c) (Context?, Double, Double, Double, Double) -> Void
    let pathExtents: @convention(c) (Context?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Void
    let copyPathFlat: @convention(c) (Context?) -> UnsafeMutableRawPointer?
    let pathDestroy: @convention(c) (UnsafeMutableRawPointer?) -> Void
    // Painting.
    let setSourceRGBA: @convention(c) (Context?, Double, Double, Double, Double) -> Void
    let setSource: @convention(c) (Context?, Pattern?) -> Void
    let getSource: @convention(c) (Context?) -> Pattern?
    let patternSetExtend: @convention(c) (Pattern?, Int32) -> Void
    let setSourceSurface: @convention(c) (Context?, Surface?, Double, Double) -> Void
    let fillPreserve: @convention(c) (Context?) -> Void
    let strokePreserve: @convention(c) (Context?) -> Void
    let fill: @convention(c) (Context?) -> Void
    let clip: @convention(c) (Context?) -> Void
    let paint: @convention(c) (Context?) -> Void
    let paintWithAlpha: @convention(c) (Context?, Double) -> Void
    let maskSurface: @convention(c) (Context?, Surface?, Double, Double) -> Void
    let setLineWidth: @convention(c) (Context?, Double) -> Void
    let setLineCap: @convention(c) (Context?, Int32) -> Void
    let setLineJoin: @convention(c) (Context?, Int32) -> Void
    let setMiterLimit: @convention(c) (Context?, Double) -> Void
    let setDash: @convention(c) (Context?, UnsafePointer<Double>?, Int32, Double) -> Void
    let setFillRule: @convention(c) (Context?, Int32) -> Void
    let setOperator: @convention(c) (Context?, Int32) -> Void
    // Gradients.
    let patternCreateLinear: @convention(c) (Double, Double, Double, Double) -> Pattern?
    let patternCreateRadial: @convention(c) (Double, Double, Double, Double, Double, Double) -> Pattern?
    let patternAddColorStop: @convention(c) (Pattern?, Double, Double, Double, Double, Double) -> Void
    private let patternSetMatrixC: @convention(c) (Pattern?, UnsafePointer<Double>?) -> Void
    let patternDestroy: @convention(c) (Pattern?) -> Void
    // Text: font options, and glyphs of FreeType faces (cairo's FreeType backend).
    let fontOptionsCreate: @convention(c) () -> OpaquePointer?
    let fontOptionsDestroy: @convention(c) (OpaquePointer?) -> Void
    let fontOptionsSetHintMetrics: @convention(c) (OpaquePointer?, Int32) -> Void
    let fontOptionsSetHintStyle: @convention(c) (OpaquePointer?, Int32) -> Void
    let fontOptionsSetAntialias: @convention(c) (OpaquePointer?, Int32) -> Void
    let ftFontFaceCreate: @convention(c) (OpaquePointer?, Int32) -> OpaquePointer?
    let setFontFace: @convention(c) (Context?, OpaquePointer?) -> Void
    let setFontSize: @convention(c) (Context?, Double) -> Void
    let setFontOptions: @convention(c) (Context?, OpaquePointer?) -> Void
    /// cairo_glyph_t arrays: { unsigned long index; double x, y; }, 24 bytes each.
    let showGlyphs: @convention(c) (Context?, UnsafeRawPointer?, Int32) -> Void
    let glyphPath: @convention(c) (Context?, UnsafeRawPointer?, Int32) -> Void
    /// cairo_text_extents_t: six doubles, the fifth the advance across.
    let glyphExtents: @convention(c) (Context?, UnsafeRawPointer?, Int32, UnsafeMutablePointer<Double>?) -> Void

    /// The functions, from cairo's library; an error names the one missing.
    init(cairo: UnsafeMutableRawPointer) throws(RasterError) {
        func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String) throws(RasterError) -> T {
            try lookUp(handle, name, in: "an older libcairo2 than Debian 12's, or one built without FreeType?")
        }
        imageSurfaceCreate = try symbol(cairo, "cairo_image_surface_create")
        surfaceStatus = try symbol(cairo, "cairo_surface_status")
        surfaceDestroy = try symbol(cairo, "cairo_surface_destroy")
        surfaceFlush = try symbol(cairo, "cairo_surface_flush")
        surfaceMarkDirty = try symbol(cairo, "cairo_surface_mark_dirty")
        imageSurfaceData = try symbol(cairo, "cairo_image_surface_get_data")
        imageSurfaceStride = try symbol(cairo, "cairo_image_surface_get_stride")
        imageSurfaceWidth = try symbol(cairo, "cairo_image_surface_get_width")
        imageSurfaceHeight = try symbol(cairo, "cairo_image_surface_get_height")
        writePNG = try symbol(cairo, "cairo_surface_write_to_png_stream")
        readPNG = try symbol(cairo, "cairo_image_surface_create_from_png_stream")
        create = try symbol(cairo, "cairo_create")
        destroy = try symbol(cairo, "cairo_destroy")
        save = try symbol(cairo, "cairo_save")
        restore = try symbol(cairo, "cairo_restore")
        getMatrixC = try symbol(cairo, "cairo_get_matrix")
        setMatrixC = try symbol(cairo, "cairo_set_matrix")
        transformC = try symbol(cairo, "cairo_transform")
        identityMatrix = try symbol(cairo, "cairo_identity_matrix")
        translate = try symbol(cairo, "cairo_translate")
        scale = try symbol(cairo, "cairo_scale")
        newPath = try symbol(cairo, "cairo_new_path")
        moveTo = try symbol(cairo, "cairo_move_to")
        lineTo = try symbol(cairo, "cairo_line_to")
        curveTo = try symbol(cairo, "cairo_curve_to")
        closePath = try symbol(cairo, "cairo_close_path")
        rectangle = try symbol(cairo, "cairo_rectangle")
        pathExtents = try symbol(cairo, "cairo_path_extents")
        copyPathFlat = try symbol(cairo, "cairo_copy_path_flat")
        pathDestroy = try symbol(cairo, "cairo_path_destroy")
        setSourceRGBA = try symbol(cairo, "cairo_set_source_rgba")
        setSource = try symbol(cairo, "cairo_set_source")
        getSource = try symbol(cairo, "cairo_get_source")
        patternSetExtend = try symbol(cairo, "cairo_pattern_set_extend")
        setSourceSurface = try symbol(cairo, "cairo_set_source_surface")
        fillPreserve = try symbol(cairo, "cairo_fill_preserve")
        strokePreserve = try symbol(cairo, "cairo_stroke_preserve")
        fill = try symbol(cairo, "cairo_fill")
        clip = try symbol(cairo, "cairo_clip")
        paint = try symbol(cairo, "cairo_paint")
        paintWithAlpha = try symbol(cairo, "cairo_paint_with_alpha")
        maskSurface = try symbol(cairo, "cairo_mask_surface")
        setLineWidth = try symbol(cairo, "cairo_set_line_width")
        setLineCap = try symbol(cairo, "cairo_set_line_cap")
        setLineJoin = try symbol(cairo, "cairo_set_line_join")
        setMiterLimit = try symbol(cairo, "cairo_set_miter_limit")
        setDash = try symbol(cairo, "cairo_set_dash")
        setFillRule = try symbol(cairo, "cairo_set_fill_rule")
        setOperator = try symbol(cairo, "cairo_set_operator")
        patternCreateLinear = try symbol(cairo, "cairo_pattern_create_linear")
        patternCreateRadial = try symbol(cairo, "cairo_pattern_create_radial")
        patternAddColorStop = try symbol(cairo, "cairo_pattern_add_color_stop_rgba")
        patternSetMatrixC = try symbol(cairo, "cairo_pattern_set_matrix")
        patternDestroy = try symbol(cairo, "cairo_pattern_destroy")
        fontOptionsCreate = try symbol(cairo, "cairo_font_options_create")
        fontOptionsDestroy = try symbol(cairo, "cairo_font_options_destroy")
        fontOptionsSetHintMetrics = try symbol(cairo, "cairo_font_options_set_hint_metrics")
        fontOptionsSetHintStyle = try symbol(cairo, "cairo_font_options_set_hint_style")
        fontOptionsSetAntialias = try symbol(cairo, "cairo_font_options_set_antialias")
        ftFontFaceCreate = try symbol(cairo, "cairo_ft_font_face_create_for_ft_face")
        setFontFace = try symbol(cairo, "cairo_set_font_face")
        setFontSize = try symbol(cairo, "cairo_set_font_size")
        setFontOptions = try symbol(cairo, "cairo_set_font_options")
        showGlyphs = try symbol(cairo, "cairo_show_glyphs")
        glyphPath = try symbol(cairo, "cairo_glyph_path")
        glyphExtents = try symbol(cairo, "cairo_glyph_extents")
    }

    // The matrix's functions: cairo_matrix_t is six doubles.

    func getMatrix(_ context: Context?) -> Matrix {
        var values = [Double](repeating: 0, count: 6)
        getMatrixC(context, &values)
        return Matrix(xx: values[0], yx: values[1], xy: values[2], yy: values[3], x0: values[4], y0: values[5])
    }

    func setMatrix(_ context: Context?, _ matrix: Matrix) {
        setMatrixC(context, matrix.values)
    }

    func transform(_ context: Context?, _ matrix: Matrix) {
        transformC(context, matrix.values)
    }

    func patternSetMatrix(_ pattern: Pattern?, _ matrix: Matrix) {
        patternSetMatrixC(pattern, matrix.values)
    }

}

extension CairoLibrary.Matrix {
    var values: [Double] { [xx, yx, xy, yy, x0, y0] }
}

/// FreeType's and fontconfig's functions: the faces text is drawn in, and the installed font that
/// has a character the face lacks. Both come with cairo (it links them).
struct FontLibrary {
    let initFreeType: @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    let newFace: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    let charIndex: @convention(c) (OpaquePointer?, UInt) -> UInt32
    let patternCreate: @convention(c) () -> OpaquePointer?
    let patternDestroy: @convention(c) (OpaquePointer?) -> Void
    let patternAddString: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let patternAddInteger: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32
    let patternGetString: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32
    let patternGetInteger: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Int32>?) -> Int32
    let configSubstitute: @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32
    let defaultSubstitute: @convention(c) (OpaquePointer?) -> Void
    let fontMatch: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<Int32>?) -> OpaquePointer?
    /// FcFontSet { int nfont; int sfont; FcPattern **fonts; }, best match first.
    let fontSort: @convention(c) (OpaquePointer?, OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<Int32>?) -> UnsafeMutableRawPointer?
    let patternGetCharSet: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    let charSetHasChar: @convention(c) (OpaquePointer?, UInt32) -> Int32
    /// fontconfig 2.12 and later: CSS's weights as fontconfig's.
    let weightFromOpenType: (@convention(c) (Int32) -> Int32)?

    init(freeType: UnsafeMutableRawPointer, fontconfig: UnsafeMutableRawPointer) throws(RasterError) {
        func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String) throws(RasterError) -> T {
            try lookUp(handle, name, in: "an older libfreetype6 or libfontconfig1 than Debian 12's?")
        }
        initFreeType = try symbol(freeType, "FT_Init_FreeType")
        newFace = try symbol(freeType, "FT_New_Face")
        charIndex = try symbol(freeType, "FT_Get_Char_Index")
        patternCreate = try symbol(fontconfig, "FcPatternCreate")
        patternDestroy = try symbol(fontconfig, "FcPatternDestroy")
        patternAddString = try symbol(fontconfig, "FcPatternAddString")
        patternAddInteger = try symbol(fontconfig, "FcPatternAddInteger")
        patternGetString = try symbol(fontconfig, "FcPatternGetString")
        patternGetInteger = try symbol(fontconfig, "FcPatternGetInteger")
        configSubstitute = try symbol(fontconfig, "FcConfigSubstitute")
        defaultSubstitute = try symbol(fontconfig, "FcDefaultSubstitute")
        fontMatch = try symbol(fontconfig, "FcFontMatch")
        fontSort = try symbol(fontconfig, "FcFontSort")
        patternGetCharSet = try symbol(fontconfig, "FcPatternGetCharSet")
        charSetHasChar = try symbol(fontconfig, "FcCharSetHasChar")
        weightFromOpenType = dlsym(fontconfig, "FcWeightFromOpenType").map { unsafeBitCast($0, to: (@convention(c) (Int32) -> Int32).self) }
    }
}

/// Pango's functions (from `libpangocairo-1.0.so.0`, which brings Pango, GLib and HarfBuzz), for
/// text that needs shaping: scripts whose letters join or reorder, combining marks, emoji
/// sequences. Loaded only when such a text is drawn.
struct PangoLibrary {
    /// PangoRectangle, in Pango units (1/1024 of a point).
    struct Rectangle {
        var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
    }

    let createContext: @convention(c) (CairoLibrary.Context?) -> OpaquePointer?
    let updateContext: @convention(c) (CairoLibrary.Context?, OpaquePointer?) -> Void
    let setFontOptions: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void
    /// Pango 1.44 and later: glyphs placed at fractions of a pixel, as the layout measured them.
    let setRoundGlyphPositions: (@convention(c) (OpaquePointer?, Int32) -> Void)?
    let layoutNew: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let layoutSetText: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Void
    let layoutSetFontDescription: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void
    let layoutSetAttributes: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void
    let layoutGetBaseline: @convention(c) (OpaquePointer?) -> Int32
    let layoutContextChanged: @convention(c) (OpaquePointer?) -> Void
    private let layoutGetExtentsC: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
    let fontDescriptionNew: @convention(c) () -> OpaquePointer?
    let fontDescriptionSetFamily: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void
    let fontDescriptionSetWeight: @convention(c) (OpaquePointer?, Int32) -> Void
    let fontDescriptionSetStyle: @convention(c) (OpaquePointer?, Int32) -> Void
    let fontDescriptionSetAbsoluteSize: @convention(c) (OpaquePointer?, Double) -> Void
    let fontDescriptionFree: @convention(c) (OpaquePointer?) -> Void
    let attrListNew: @convention(c) () -> OpaquePointer?
    let attrListInsert: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void
    let attrListUnref: @convention(c) (OpaquePointer?) -> Void
    let attrLetterSpacingNew: @convention(c) (Int32) -> OpaquePointer?
    let contextGetMetrics: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> OpaquePointer?
    let metricsUnderlinePosition: @convention(c) (OpaquePointer?) -> Int32
    let metricsUnderlineThickness: @convention(c) (OpaquePointer?) -> Int32
    let metricsStrikethroughPosition: @convention(c) (OpaquePointer?) -> Int32
    let metricsStrikethroughThickness: @convention(c) (OpaquePointer?) -> Int32
    let metricsUnref: @convention(c) (OpaquePointer?) -> Void
    let showLayout: @convention(c) (CairoLibrary.Context?, OpaquePointer?) -> Void
    let layoutPath: @convention(c) (CairoLibrary.Context?, OpaquePointer?) -> Void
    let objectUnref: @convention(c) (OpaquePointer?) -> Void


    init(pango: UnsafeMutableRawPointer) throws(RasterError) {
        func symbol<T>(_ name: String) throws(RasterError) -> T { try lookUp(pango, name, in: "an older libpangocairo-1.0-0 than Debian 12's?") }
        createContext = try symbol("pango_cairo_create_context")
        updateContext = try symbol("pango_cairo_update_context")
        setFontOptions = try symbol("pango_cairo_context_set_font_options")
        setRoundGlyphPositions = dlsym(pango, "pango_context_set_round_glyph_positions").map { unsafeBitCast($0, to: (@convention(c) (OpaquePointer?, Int32) -> Void).self) }
        layoutNew = try symbol("pango_layout_new")
        layoutSetText = try symbol("pango_layout_set_text")
        layoutSetFontDescription = try symbol("pango_layout_set_font_description")
        layoutSetAttributes = try symbol("pango_layout_set_attributes")
        layoutGetBaseline = try symbol("pango_layout_get_baseline")
        layoutContextChanged = try symbol("pango_layout_context_changed")
        layoutGetExtentsC = try symbol("pango_layout_get_extents")
        fontDescriptionNew = try symbol("pango_font_description_new")
        fontDescriptionSetFamily = try symbol("pango_font_description_set_family")
        fontDescriptionSetWeight = try symbol("pango_font_description_set_weight")
        fontDescriptionSetStyle = try symbol("pango_font_description_set_style")
        fontDescriptionSetAbsoluteSize = try symbol("pango_font_description_set_absolute_size")
        fontDescriptionFree = try symbol("pango_font_description_free")
        attrListNew = try symbol("pango_attr_list_new")
        attrListInsert = try symbol("pango_attr_list_insert")
        attrListUnref = try symbol("pango_attr_list_unref")
        attrLetterSpacingNew = try symbol("pango_attr_letter_spacing_new")
        contextGetMetrics = try symbol("pango_context_get_metrics")
        metricsUnderlinePosition = try symbol("pango_font_metrics_get_underline_position")
        metricsUnderlineThickness = try symbol("pango_font_metrics_get_underline_thickness")
        metricsStrikethroughPosition = try symbol("pango_font_metrics_get_strikethrough_position")
        metricsStrikethroughThickness = try symbol("pango_font_metrics_get_strikethrough_thickness")
        metricsUnref = try symbol("pango_font_metrics_unref")
        showLayout = try symbol("pango_cairo_show_layout")
        layoutPath = try symbol("pango_cairo_layout_path")
        // GObject's, which Pango brings.
        objectUnref = try symbol("g_object_unref")
    }

    /// The layout's logical extents.
    func layoutLogicalExtents(_ layout: OpaquePointer?) -> Rectangle {
        var values: [Int32] = [0, 0, 0, 0]
        layoutGetExtentsC(layout, nil, &values)
        return Rectangle(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}
