import FoundationEssentials
import WidgetWire

/// Draws a widget as an SVG image a browser opens: its shape and background, its text, dividers,
/// redaction bars for a placeholder; links and its widget URL are clickable.
public struct SVGRenderer: Sendable {
    public var appearance: Appearance
    /// The rendering mode to draw in; nil for each family's own (vibrant for accessory families).
    public var renderingMode: RenderingEnvironment.RenderingMode?
    /// Whether text is measured in the font when it is installed (a benchmark compares without).
    public var measuresWithFont = true

    public init(appearance: Appearance, renderingMode: RenderingEnvironment.RenderingMode? = nil) {
        self.appearance = appearance
        self.renderingMode = renderingMode
    }

    /// The environment a family's views are built and drawn for.
    public func environment(for family: WidgetFamily) -> RenderingEnvironment {
        .standard(for: family, colorScheme: appearance, mode: renderingMode)
    }

    /// `idPrefix` starts the ids of the image's gradients: images put in one page (the gallery) need
    /// ids of their own.
    /// The content is laid out within the family's content margins unless the widget disables them,
    /// and drawn only inside the widget's outline (a circle for `accessoryCircular`).
    /// `interactive`: for a page that ticks and taps on its own (the home screen): live texts carry
    /// their parts (`data-live`), links their number (`data-link`, from 1 in `TapTargets.links`),
    /// the widget's URL `data-widget`, intent controls their number (`data-button`).
    public func render(
        _ view: ViewNode, family: WidgetFamily, now: Date = Date(), dates: DateText = DateText(), idPrefix: String = "",
        contentMarginsDisabled: Bool = false, interactive: Bool = false
    ) -> String {
        let size = family.displaySize
        let layout = self.layout(family: family, now: now, dates: dates, contentMarginsDisabled: contentMarginsDisabled, interactive: interactive)
        let elements = layout.place(view, in: size)
        let targets = TapTargets(view)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(format(size.width))" height="\(format(size.height))" \
            viewBox="0 0 \(format(size.width)) \(format(size.height))" font-family="Inter, -apple-system, 'SF Pro Text', system-ui, 'Helvetica Neue', sans-serif">

            """
        // The widget: a tap anywhere opens its widgetURL; links (not in small widgets) open theirs.
        let linksApply = family != .systemSmall
        var canvas = Canvas(family: family, size: size, idPrefix: idPrefix, interactive: interactive)
        canvas.measuredInFont = measuresWithFont && SystemFont.directory != nil
        svg += targets.widgetURL.map { "<a href=\"\(XMLText.escape($0))\"\(interactive ? " data-widget=\"1\"" : "")>" } ?? "<g>"
        svg += background(family, size, fill: layout.containerBackground(of: view), &canvas)
        // Nothing is drawn outside the widget's outline, as on iOS.
        let clip = outline(family, size, fill: "")
        if !clip.isEmpty { svg += "<clipPath id=\"\(idPrefix)outline\">\(clip.dropLast())</clipPath><g clip-path=\"url(#\(idPrefix)outline)\">\n" }
        for element in elements where !(linksApply && element.link != nil) { svg += draw(element, &canvas) }
        if !clip.isEmpty { svg += "</g>\n" }
        svg += targets.widgetURL == nil ? "</g>\n" : "</a>\n"
        if linksApply {
            var index = 0
            let linked = elements.filter { $0.link != nil }
            if !clip.isEmpty, !linked.isEmpty { svg += "<g clip-path=\"url(#\(idPrefix)outline)\">\n" }
            while index < linked.count {
                let url = linked[index].link!
                let number = interactive ? targets.links.firstIndex(of: url).map { " data-link=\"\($0 + 1)\"" } ?? "" : ""
                svg += "<a href=\"\(XMLText.escape(url))\"\(number)>"
                while index < linked.count, linked[index].link == url {
                    svg += draw(linked[index], &canvas)
                    index += 1
                }
                svg += "</a>\n"
            }
            if !clip.isEmpty, !linked.isEmpty { svg += "</g>\n" }
        }
        return svg + "</svg>\n"
    }

    /// The layout a drawing of `family` is made with.
    func layout(family: WidgetFamily, now: Date, dates: DateText, contentMarginsDisabled: Bool, interactive: Bool) -> Layout {
        var layout = Layout(
            metrics: PointMetrics(measuresWithFont: measuresWithFont), now: now, dates: dates, environment: environment(for: family),
            contentMargin: contentMarginsDisabled ? 0 : family.contentMargin)
        layout.marksLiveParts = interactive
        return layout
    }

    /// What drawing one widget keeps: its outline, for container-relative shapes, and the gradients
    /// defined so far, each with an id of its own.
    struct Canvas {
        let family: WidgetFamily
        let size: (width: Double, height: Double)
        let idPrefix: String
        /// Drawn for the home screen: live texts and controls are marked.
        var interactive = false
        /// Text was measured in the font the image names (Inter installed): drawn at its own width.
        var measuredInFont = false
        var gradients = 0
        var clips = 0
        var effects = 0
        /// The masks being defined, innermost last.
        var masks: [String] = []

        /// The corner radius of the widget's outline; nil for a circle.
        var cornerRadius: Double? {
            switch family {
            case .accessoryCircular: nil
            case .accessoryRectangular: 10
            case .accessoryInline: 0
            default: 22
            }
        }
    }

    /// A paint as SVG attributes for `property` (`fill` or `stroke`), with the definition a gradient
    /// needs written first; a translucent colour with its opacity. A radial gradient's radii are
    /// points from its centre in `rect`.
    func paint(_ paint: Paint, as property: String = "fill", in rect: LayoutRect? = nil, _ canvas: inout Canvas) -> (definition: String, attributes: String) {
        func stops(_ stops: [GradientStop], offset: (Double) -> Double = { $0 }) -> String {
            func isClear(_ stop: GradientStop) -> Bool {
                let (name, opacity) = SystemColors.split(stop.color)
                return name == "clear" || opacity == 0
            }
            func element(_ location: Double, _ name: Substring, _ opacity: Double) -> String {
                "<stop offset=\"\(format(offset(location), places: 3))\" stop-color=\"\(hex(SystemColors.opaque(name, appearance)))\""
                    + (opacity < 1 ? " stop-opacity=\"\(format(opacity, places: 3))\"" : "") + "/>"
            }
            return stops.enumerated().map { index, stop in
                guard isClear(stop) else {
                    let (name, opacity) = SystemColors.split(stop.color)
                    return element(stop.location, name, opacity)
                }
                // Clear is no colour: the colour beside it fades out (or in), as SwiftUI's gradients
                // do, not towards the background's colour (which drew a grey or white band). Between
                // two colours, each fades on its own side.
                let before = stops[..<index].last { !isClear($0) }.map { SystemColors.split($0.color).name }
                let after = stops[(index + 1)...].first { !isClear($0) }.map { SystemColors.split($0.color).name }
                let sides = [before, after].compactMap { $0 }
                return (sides.isEmpty ? ["clear"] : sides).map { element(stop.location, $0, 0) }.joined()
            }.joined()
        }
        switch paint {
        case .color(let color):
            let (name, opacity) = SystemColors.split(color)
            if let level = SystemColorTable.labelLevels[String(name)] {
                // A label colour is translucent, as UIKit's are: over a coloured background it takes its hue.
                let base = appearance == .light ? SystemColorTable.labelBase.light : SystemColorTable.labelBase.dark
                let alpha = (appearance == .light ? level.light : level.dark) * opacity
                return ("", "\(property)=\"\(hex(base))\" \(property)-opacity=\"\(format(alpha, places: 3))\"")
            }
            let value = hex(SystemColors.opaque(name, appearance))
            return ("", "\(property)=\"\(value)\"" + (opacity < 1 ? " \(property)-opacity=\"\(format(opacity, places: 3))\"" : ""))
        case .linearGradient(let gradient):
            canvas.gradients += 1
            let id = "\(canvas.idPrefix)gradient\(canvas.gradients)"
            var definition = "<defs><linearGradient id=\"\(id)\" x1=\"\(format(gradient.startX, places: 3))\" y1=\"\(format(gradient.startY, places: 3))\" "
            definition += "x2=\"\(format(gradient.endX, places: 3))\" y2=\"\(format(gradient.endY, places: 3))\">"
            return (definition + stops(gradient.stops) + "</linearGradient></defs>\n", "\(property)=\"url(#\(id))\"")
        case .radialGradient(let gradient):
            canvas.gradients += 1
            let id = "\(canvas.idPrefix)gradient\(canvas.gradients)"
            let box = rect ?? LayoutRect(x: 0, y: 0, width: canvas.size.width, height: canvas.size.height)
            let end = max(gradient.endRadius, 0.001)
            let start = min(gradient.startRadius, end)
            var definition = "<defs><radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" "
            definition += "cx=\"\(format(box.x + gradient.centerX * box.width))\" cy=\"\(format(box.y + gradient.centerY * box.height))\" r=\"\(format(end))\">"
            // SVG's stops run from the centre; the gradient's from its start radius.
            definition += stops(gradient.stops) { (start + $0 * (end - start)) / end }
            return (definition + "</radialGradient></defs>\n", "\(property)=\"url(#\(id))\"")
        }
    }

    func background(_ family: WidgetFamily, _ size: (width: Double, height: Double), fill paint: Paint?, _ canvas: inout Canvas) -> String {
        let system = "fill=\"\(hex(SystemColors.background(appearance)))\""
        guard let paint else { return outline(family, size, fill: system) }
        let (definition, fill) = self.paint(paint, in: LayoutRect(x: 0, y: 0, width: size.width, height: size.height), &canvas)
        // A translucent container background lies on the system background, as a widget's does on
        // iOS, not on whatever page the drawing is shown on.
        let under = paint.isTranslucent && !family.isAccessory ? outline(family, size, fill: system) : ""
        return definition + under + outline(family, size, fill: fill)
    }

    /// The widget's outline, filled (`fill` is its attributes).
    func outline(_ family: WidgetFamily, _ size: (width: Double, height: Double), fill: String) -> String {
        switch family {
        case .accessoryInline: return ""
        case .accessoryCircular:
            return "<circle cx=\"\(format(size.width / 2))\" cy=\"\(format(size.height / 2))\" r=\"\(format(size.width / 2))\" \(fill)/>\n"
        case .accessoryRectangular:
            return "<path d=\"\(continuousCorners(LayoutRect(x: 0, y: 0, width: size.width, height: size.height), radius: 10))\" \(fill)/>\n"
        default:
            return "<path d=\"\(continuousCorners(LayoutRect(x: 0, y: 0, width: size.width, height: size.height), radius: 22))\" \(fill)/>\n"
        }
    }

    /// A rounded rectangle's outline with iOS's continuous corners (the curve a squircle has: it
    /// leaves each side 1.53 radii from the corner and bends gradually, where an arc bends at once),
    /// as Bézier curves; the radius shrinks where the sides are too short for it.
    func continuousCorners(_ rect: LayoutRect, radius: Double) -> String {
        let r = max(0, min(radius, min(rect.width, rect.height) / 2 / 1.528665))
        let (x0, y0, x1, y1) = (rect.x, rect.y, rect.x + rect.width, rect.y + rect.height)
        func p(_ x: Double, _ y: Double) -> String { "\(format(x)) \(format(y))" }
        // One corner's three curves, in a frame where the corner is at (cx, cy) and the curve runs
        // from along `u` (the side before) to along `v` (the side after).
        func corner(_ cx: Double, _ cy: Double, _ u: (Double, Double), _ v: (Double, Double)) -> String {
            func at(_ a: Double, _ b: Double) -> String { p(cx + u.0 * a * r + v.0 * b * r, cy + u.1 * a * r + v.1 * b * r) }
            return " L\(at(1.528665, 0))"
                + " C\(at(1.088493, 0)) \(at(0.868407, 0)) \(at(0.631494, 0.074911))"
                + " C\(at(0.372824, 0.169059)) \(at(0.169059, 0.372824)) \(at(0.074911, 0.631494))"
                + " C\(at(0, 0.868407)) \(at(0, 1.088493)) \(at(0, 1.528665))"
        }
        return "M\(p(x0 + 1.528665 * r, y0))"
            + corner(x1, y0, (-1, 0), (0, 1)) + corner(x1, y1, (0, -1), (-1, 0))
            + corner(x0, y1, (1, 0), (0, -1)) + corner(x0, y0, (0, 1), (1, 0)) + " Z"
    }

    /// A shape in `rect` as an SVG element with `attributes` (its paint).
    func shape(_ shape: ShapeKind, _ rect: LayoutRect, _ attributes: String, _ canvas: Canvas) -> String {
        let box = "x=\"\(format(rect.x))\" y=\"\(format(rect.y))\" width=\"\(format(rect.width))\" height=\"\(format(rect.height))\""
        let radius: Double?
        switch shape {
        case .rectangle: radius = 0
        case .roundedRectangle(let cornerRadius, let circular):
            guard circular || cornerRadius <= 0 else {
                return "<path d=\"\(continuousCorners(rect, radius: cornerRadius))\" \(attributes)/>\n"
            }
            radius = min(cornerRadius, min(rect.width, rect.height) / 2)
        case .capsule: radius = min(rect.width, rect.height) / 2
        case .circle, .ellipse: radius = nil
        case .path(let path):
            let data = path.svgData(x: rect.x, y: rect.y, width: rect.width, height: rect.height) { format($0) }
            return "<path d=\"\(data)\" \(attributes)/>\n"
        case .containerRelative:
            // Concentric with the widget's corners: their radius less the distance in from the
            // nearest edge. In a circular widget, the circle itself.
            let inset = min(rect.x, rect.y, canvas.size.width - rect.x - rect.width, canvas.size.height - rect.y - rect.height)
            radius = canvas.cornerRadius.map { max(0, $0 - max(0, inset)) }
            if let radius, radius > 0 { return "<path d=\"\(continuousCorners(rect, radius: radius))\" \(attributes)/>\n" }
        }
        guard let radius else {
            let round = shape != .ellipse
            return "<ellipse cx=\"\(format(rect.x + rect.width / 2))\" cy=\"\(format(rect.y + rect.height / 2))\" "
                + "rx=\"\(format(round ? min(rect.width, rect.height) / 2 : rect.width / 2))\" "
                + "ry=\"\(format(round ? min(rect.width, rect.height) / 2 : rect.height / 2))\" \(attributes)/>\n"
        }
        return "<rect \(box)" + (radius > 0 ? " rx=\"\(format(radius))\"" : "") + " \(attributes)/>\n"
    }

    func draw(_ element: PlacedElement, _ canvas: inout Canvas) -> String {
        let rect = element.rect
        switch element.content {
        case .text(let text, let style):
            if style.redacted {
                let height = (style.points * 0.8).rounded()
                return "<rect x=\"\(format(rect.x))\" y=\"\(format(rect.y + (rect.height - height) / 2))\" width=\"\(format(rect.width))\" "
                    + "height=\"\(format(height))\" rx=\"4\" fill=\"\(hex(SystemColors.rgb("redacted", appearance)))\"/>\n"
            }
            if let symbol = style.symbol, SymbolShapes.has(symbol) {
                // A symbol as its shape, in the text's colour, its drawing's bounds centred in its place:
                // 1.1 times its size, less where its place is smaller.
                let box = SymbolShapes.bounds(symbol) ?? (x: 0, y: 0, width: 100, height: 100)
                let size = SymbolShapes.drawnSide(symbol, points: style.points, room: (rect.width, rect.height))
                let origin = (
                    x: rect.x + rect.width / 2 - (box.x + box.width / 2) / 100 * size, y: rect.y + rect.height / 2 - (box.y + box.height / 2) / 100 * size
                )
                let (definition, fill) = paint(style.gradient.map(Paint.linearGradient) ?? .color(style.color ?? "primary"), in: rect, &canvas)
                let (strokeDefinition, stroke) = paint(style.gradient.map(Paint.linearGradient) ?? .color(style.color ?? "primary"), as: "stroke", in: rect, &canvas)
                let secondary = style.secondaryColor.map { color in
                    (fill: paint(.color(color), &canvas).1, stroke: paint(.color(color), as: "stroke", in: rect, &canvas).1)
                }
                if let shape = SymbolShapes.svg(
                    symbol, x: origin.x, y: origin.y, size: size, weight: style.weight,
                    fill: fill, stroke: stroke,
                    background: hex(SystemColors.background(appearance)), mode: style.symbolMode, secondary: secondary)
                {
                    return definition + strokeDefinition + shape
                }
            }
            // iOS sets a line's glyphs at its top, its ascent (SF Pro's 0.96 em) above the baseline, and
            // leaves the leading below (WidgetExamples' headline: its baseline 16.3 points below the
            // content's top on iOS; centred in its 22-point line it fell at 17.0). A line squeezed
            // shorter than its font is centred.
            let ascent = style.points * 0.96
            let baseline = rect.height >= style.points * 1.2 ? rect.y + ascent : rect.y + (rect.height - style.points * 1.2) / 2 + style.points * 0.95
            let (definition, fill) = paint(style.gradient.map(Paint.linearGradient) ?? .color(style.color ?? "primary"), in: rect, &canvas)
            var decoration: [String] = []
            if style.underline { decoration.append("underline") }
            if style.strikethrough { decoration.append("line-through") }
            // Measured in the font the image names, a text is drawn at its own width, as the layout
            // placed it. Measured by averages (the font not installed here), the browser's stand-in
            // would run past the widget's edge or its "…": the text is held to the width measured.
            // A live text changes its width each second; its size is the browser's own.
            let fitted = !canvas.measuredInFont && style.live == nil && text.count > 1
                ? " textLength=\"\(format(rect.width))\" lengthAdjust=\"spacingAndGlyphs\"" : ""
            let live = canvas.interactive ? style.live.map { " data-live=\"\(XMLText.escape($0.jsonText))\"" } ?? "" : ""
            // Display sizes in the font's display cut, as SF Pro switches to its own at 20 points.
            let family = style.points >= 20 ? " font-family=\"'Inter Display', Inter, -apple-system, system-ui, sans-serif\"" : ""
            return definition + "<text x=\"\(format(rect.x))\" y=\"\(format(baseline))\" font-size=\"\(format(style.points))\"\(family)"
                + (style.faceWeight != 400 ? " font-weight=\"\(style.faceWeight)\"" : "") + (style.italic ? " font-style=\"italic\"" : "")
                + (style.letterSpacing != 0 ? " letter-spacing=\"\(format(style.letterSpacing, places: 2))\"" : "")
                + (decoration.isEmpty ? "" : " text-decoration=\"\(decoration.joined(separator: " "))\"") + " \(fill)\(fitted)\(live)"
                + " xml:space=\"preserve\">\(XMLText.escape(text))</text>\n"
        case .bar(let fraction, let tint, let live, let marker):
            if marker {
                // An accessory linear gauge: a 4-point track, a dot at the value ringed in the background.
                let track = "<rect x=\"\(format(rect.x))\" y=\"\(format(rect.y + rect.height / 2 - 2))\" width=\"\(format(rect.width))\" height=\"4\" rx=\"2\" "
                    + "fill=\"\(hex(SystemColors.opaque("gray", appearance)))\" fill-opacity=\"0.35\"/>\n"
                guard let fraction else { return track }
                let (_, fill) = paint(.color(tint), &canvas)
                let radius = rect.height / 2
                let centre = rect.x + radius + (rect.width - 2 * radius) * fraction
                return track
                    + "<circle cx=\"\(format(centre))\" cy=\"\(format(rect.y + radius))\" r=\"\(format(radius))\" \(fill) stroke=\"\(hex(SystemColors.background(appearance)))\" stroke-width=\"1.5\"/>\n"
            }
            // A capsule (its ends round), on iOS's tertiary system fill: #767680 at 12% in light, 24% in
            // dark ((239, 239, 240) on white, as WidgetExamples' gauge shows on iOS).
            let radius = format(rect.height / 2)
            let track = "<rect x=\"\(format(rect.x))\" y=\"\(format(rect.y))\" width=\"\(format(rect.width))\" height=\"\(format(rect.height))\" rx=\"\(radius)\" "
                + "fill=\"#767680\" fill-opacity=\"\(appearance == .light ? "0.12" : "0.24")\"/>\n"
            guard let fraction else { return track }
            let (_, fill) = paint(.color(tint), &canvas)
            // A timer's progress moves in the page on its own: its interval, and the whole width.
            let moving = canvas.interactive ? live.map { " data-live-bar=\"\(XMLText.escape($0.jsonText))\" data-width=\"\(format(rect.width))\"" } ?? "" : ""
            return track
                + "<rect x=\"\(format(rect.x))\" y=\"\(format(rect.y))\" width=\"\(format(rect.width * fraction))\" height=\"\(format(rect.height))\" rx=\"\(radius)\" \(fill)\(moving)/>\n"
        case .fill(let paint, let shape):
            let (definition, fill) = self.paint(paint, in: rect, &canvas)
            return definition + self.shape(shape, rect, fill, canvas)
        case .stroke(let stroke, let shape):
            // Centred on the outline, or inside it (`strokeBorder`, a ring): then the outline is
            // inset by half the line.
            let half = stroke.inside ? stroke.lineWidth / 2 : 0
            let path = LayoutRect(x: rect.x + half, y: rect.y + half, width: max(0, rect.width - 2 * half), height: max(0, rect.height - 2 * half))
            let (definition, attributes) = paint(stroke.paint, as: "stroke", in: rect, &canvas)
            var drawn = "fill=\"none\" \(attributes) stroke-width=\"\(format(stroke.lineWidth))\""
            if !stroke.dash.isEmpty, stroke.trim == 0...1, stroke.dash.contains(where: { $0 > 0 }) {
                drawn += " stroke-dasharray=\"\(stroke.dash.map { format($0) }.joined(separator: " "))\""
            }
            if stroke.trim != 0...1 {
                // The kept part as a dash of a path a hundred long; turned to where the path starts.
                let (from, to) = (stroke.trim.lowerBound * 100, stroke.trim.upperBound * 100)
                drawn += " pathLength=\"100\" stroke-dasharray=\"\(format(to - from, places: 3)) 100\" stroke-dashoffset=\"\(format(-from, places: 3))\""
                drawn += " stroke-linecap=\"round\""
            }
            if stroke.rotation != 0 {
                drawn += " transform=\"rotate(\(format(stroke.rotation, places: 3)) \(format(rect.x + rect.width / 2)) \(format(rect.y + rect.height / 2)))\""
            }
            return definition + self.shape(shape, path, drawn, canvas)
        case .picture(let picture):
            guard let url = picture.dataURL else { return "" }
            return "<image x=\"\(format(rect.x))\" y=\"\(format(rect.y))\" width=\"\(format(rect.width))\" height=\"\(format(rect.height))\" "
                + "preserveAspectRatio=\"none\" href=\"\(XMLText.escape(url))\"/>\n"
        case .clip(let shape):
            canvas.clips += 1
            let id = "\(canvas.idPrefix)clip\(canvas.clips)"
            return "<clipPath id=\"\(id)\">" + self.shape(shape, rect, "", canvas).dropLast() + "</clipPath><g clip-path=\"url(#\(id))\">\n"
        case .unclip:
            return "</g>\n"
        case .control(let number):
            // The whole control answers a tap, not only its painted parts.
            guard canvas.interactive else { return "<g>" }
            return "<g data-button=\"\(number)\" cursor=\"pointer\"><rect x=\"\(format(rect.x))\" y=\"\(format(rect.y))\" "
                + "width=\"\(format(rect.width))\" height=\"\(format(rect.height))\" fill=\"none\" pointer-events=\"all\"/>\n"
        case .endControl, .endEffect:
            return "</g>\n"
        case .maskBegin:
            // SwiftUI masks by the mask's alpha.
            canvas.effects += 1
            let id = "\(canvas.idPrefix)effect\(canvas.effects)"
            canvas.masks.append(id)
            return "<mask id=\"\(id)\" mask-type=\"alpha\">\n"
        case .maskEnd:
            let id = canvas.masks.popLast() ?? ""
            return "</mask><g mask=\"url(#\(id))\">\n"
        case .effect(let effect):
            func anchor(_ x: Double, _ y: Double) -> String { "\(format(rect.x + x * rect.width)) \(format(rect.y + y * rect.height))" }
            switch effect {
            case .rotation(let degrees, let anchorX, let anchorY):
                return "<g transform=\"rotate(\(format(degrees, places: 3)) \(anchor(anchorX, anchorY)))\">\n"
            case .scale(let x, let y, let anchorX, let anchorY):
                let (cx, cy) = (rect.x + anchorX * rect.width, rect.y + anchorY * rect.height)
                return "<g transform=\"translate(\(format(cx)) \(format(cy))) scale(\(format(x, places: 3)) \(format(y, places: 3))) translate(\(format(-cx)) \(format(-cy)))\">\n"
            case .shadow(let color, let radius, let x, let y):
                canvas.effects += 1
                let id = "\(canvas.idPrefix)effect\(canvas.effects)"
                let (name, opacity) = SystemColors.split(color)
                return "<filter id=\"\(id)\" x=\"-50%\" y=\"-50%\" width=\"200%\" height=\"200%\"><feDropShadow dx=\"\(format(x))\" dy=\"\(format(y))\" "
                    + "stdDeviation=\"\(format(radius / 2, places: 3))\" flood-color=\"\(hex(SystemColors.opaque(name, appearance)))\" "
                    + "flood-opacity=\"\(format(opacity, places: 3))\"/></filter><g filter=\"url(#\(id))\">\n"
            case .blend(let mode):
                // A CSS property, not an SVG attribute: its style for an image or a page of its own,
                // and a class the home screen's style sets (its policy allows no inline style).
                return "<g class=\"blend-\(mode)\" style=\"mix-blend-mode: \(mode)\">\n"
            case .blur(let radius):
                canvas.effects += 1
                let id = "\(canvas.idPrefix)effect\(canvas.effects)"
                return "<filter id=\"\(id)\" x=\"-50%\" y=\"-50%\" width=\"200%\" height=\"200%\"><feGaussianBlur stdDeviation=\"\(format(radius / 2, places: 3))\"/></filter>"
                    + "<g filter=\"url(#\(id))\">\n"
            }
        case .rule(let horizontal):
            let stroke = hex(SystemColors.rgb("separator", appearance))
            return horizontal
                ? "<line x1=\"\(format(rect.x))\" y1=\"\(format(rect.y + 0.5))\" x2=\"\(format(rect.x + rect.width))\" y2=\"\(format(rect.y + 0.5))\" stroke=\"\(stroke)\"/>\n"
                : "<line x1=\"\(format(rect.x + 0.5))\" y1=\"\(format(rect.y))\" x2=\"\(format(rect.x + 0.5))\" y2=\"\(format(rect.y + rect.height))\" stroke=\"\(stroke)\"/>\n"
        }
    }

    func hex(_ rgb: (Int, Int, Int)) -> String { SystemColors.hex(rgb) }

    func format(_ value: Double, places: Int = 1) -> String {
        let scale = places == 1 ? 10.0 : 1000.0
        let rounded = (value * scale).rounded() / scale
        return rounded == rounded.rounded() && abs(rounded) < 1e12 ? String(Int(rounded)) : String(rounded)
    }
}

public enum XMLText {
    /// Text for XML: `&`, `<`, `>`, quotes escaped, and characters XML forbids dropped.
    public static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&apos;"
        default:
            let value = scalar.value
            if value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                || value >= 0x10000
            {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
    }
}

extension PlacedElement {
    var link: String? {
        if case .text(_, let style) = content { return style.link }
        return nil
    }
}
