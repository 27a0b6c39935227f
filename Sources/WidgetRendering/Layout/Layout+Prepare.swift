import FoundationEssentials
import WidgetWire

extension Layout {

    /// The corner radius of a bordered button's background, in points, as iOS draws a regular one.
    static let borderedButtonCornerRadius = 6.0

    /// The view tree as layout sees it: styles pushed down to the text, layout modifiers as
    /// wrappers, views it does not know as their children stacked vertically. Adds its nodes to
    /// `tree`; returns the number of its root.
    func prepare(_ view: ViewNode, inherited: TextStyle, into tree: Tree) -> Int {
        var style = inherited
        var lineLimit: Int?
        var textCase: String?
        // Numbered before its content, in reading order, as `TapTargets` numbers controls.
        var control: Int?
        if marksLiveParts, view.view == "button" || view.view == "toggle", view["intent"] != nil {
            tree.controls += 1
            control = tree.controls
        }
        // A weight set by `fontWeight` or `bold` on this view wins over the weight a font carries,
        // whichever comes first (`.font(.system(size: 12)).fontWeight(.semibold)` is semibold, as
        // in SwiftUI, though the font says regular).
        var weightSet: Int??
        // Modifiers are innermost first; an inner one wins, so apply the outer ones first.
        for modifier in view.modifiers.reversed() {
            let value = modifier.value
            switch ModifierName(modifier.name) {
            case .font:
                if let name = value.stringValue {
                    style.font = name
                    style.size = nil
                } else if let size = value["size"]?.numberValue {
                    style.size = size
                    if let weight = value["weight"]?.stringValue { style.givenWeight = TextStyle.weight(named: weight) }
                } else if let name = value["style"]?.stringValue {
                    style.font = name
                    style.size = nil
                    if let weight = value["weight"]?.stringValue { style.givenWeight = TextStyle.weight(named: weight) }
                }
            case .bold:
                style.bold = value.boolValue ?? true
                weightSet = .some(style.givenWeight)
            case .italic: style.italic = value.boolValue ?? true
            case .allowsTightening: style.allowsTightening = value.boolValue ?? true
            case .tracking: style.tracking = value.numberValue.map { $0.isFinite ? min(max($0, -20), 100) : 0 } ?? 0
            case .underline: style.underline = value.boolValue ?? value["active"]?.boolValue ?? true
            case .strikethrough: style.strikethrough = value.boolValue ?? value["active"]?.boolValue ?? true
            case .fontWeight:
                if let weight = value.stringValue {
                    style.givenWeight = TextStyle.weight(named: weight)
                    weightSet = .some(style.givenWeight)
                }
            case .multilineTextAlignment: style.alignment = value.stringValue ?? "leading"
            case .foregroundColor, .foregroundStyle:
                switch Paint(value) {
                case .color(let color)?:
                    style.color = color
                    style.gradient = nil
                case .linearGradient(let gradient)?:
                    style.color = nil
                    style.gradient = gradient
                case .radialGradient(let gradient)?:
                    // Text takes a radial gradient's middle colour.
                    style.color = gradient.stops[gradient.stops.count / 2].color
                    style.gradient = nil
                case nil:
                    style.color = nil
                    style.gradient = nil
                }
            case .tint: style.tint = value.stringValue
            case .opacity: style.opacity *= min(1, max(0, value.numberValue ?? 1))
            case .redacted:
                if value.stringValue == "placeholder" { style.redacted = true }
                if value.stringValue == "privacy" { style.redactsPrivacy = true }
            case .unredacted: style.redacted = false
            case .privacySensitive: style.privacySensitive = value.boolValue ?? true
            case .widgetAccentable: style.accentable = value.boolValue ?? true
            case .invalidatableContent: style.invalidatable = value.boolValue ?? true
            case .lineLimit: lineLimit = value.numberValue.flatMap { Int(exactly: $0) }
            case .minimumScaleFactor: style.minimumScale = min(1, max(0.01, value.numberValue ?? 1))
            case .textCase: textCase = value.stringValue
            // Styles apply to the views inside, as SwiftUI's do through the environment.
            case .gaugeStyle, .progressViewStyle: style.indicatorStyle = value.stringValue
            case .labelStyle: style.labelStyle = value.stringValue
            case .buttonStyle: style.buttonStyle = value.stringValue
            case .toggleStyle: style.toggleStyle = value.stringValue
            case .symbolVariant: style.symbolVariant = value.stringValue.flatMap { $0 == "none" ? nil : $0 }
            case .symbolRenderingMode: style.symbolMode = value.stringValue.flatMap { $0 == "monochrome" ? nil : $0 }
            case .secondaryForegroundStyle:
                switch Paint(value) {
                case .color(let color)?: style.secondaryColor = color
                case .linearGradient(let gradient)?: style.secondaryColor = gradient.stops.first?.color
                case .radialGradient(let gradient)?: style.secondaryColor = gradient.stops.first?.color
                case nil: style.secondaryColor = nil
                }
            case .imageScale:
                switch value.stringValue {
                case "small": style.symbolScale = 0.8
                case "large": style.symbolScale = 1.3
                default: style.symbolScale = 1
                }
            default: break
            }
        }
        if let weightSet { style.givenWeight = weightSet }
        if view.view == "link", let url = view["url"]?.stringValue { style.link = url }
        func children() -> [Int] { view.children.map { prepare($0, inherited: style, into: tree) } }
        func text(_ string: String, lineLimit: Int?, live: JSONValue? = nil, symbol: String? = nil) -> Int {
            var style = drawn(style)
            if let live, textCase == nil { style.live = live }
            style.symbol = symbol
            var shown = string
            switch textCase {
            case "uppercase": shown = string.uppercased()
            case "lowercase": shown = string.lowercased()
            default: break
            }
            tree.texts.append(TextRun(shown, style, lineLimit: lineLimit, lineHeight: metrics.lineHeight(style)))
            return tree.add(.text(tree.texts.count - 1))
        }
        func paint(_ paint: Paint) -> Int {
            tree.paints.append(paint)
            return tree.paints.count - 1
        }
        func stack(_ axis: Axis, _ children: [Int], alignment: Alignment, spacing: Double?) -> Int {
            tree.add(.stack(axis, alignment: alignment, spacing: spacing, children: tree.add(children: children)))
        }
        func vertical(_ children: [Int]) -> Int {
            children.count == 1 ? children[0] : stack(.vertical, children, alignment: .leading, spacing: 0)
        }
        var node: Int
        switch view.view {
        case "text": node = text(dates.text(of: view, now: now, keepingNarrowSpaces: metrics.drawsNarrowSpaces), lineLimit: lineLimit, live: marksLiveParts ? dates.liveParts(of: view, now: now) : nil)
        case "vstack":
            node = stack(.vertical, children(), alignment: Alignment(view["alignment"]?.stringValue), spacing: view["spacing"]?.numberValue)
        case "hstack":
            node = stack(.horizontal, children(), alignment: Alignment(view["alignment"]?.stringValue), spacing: view["spacing"]?.numberValue)
        case "zstack":
            node = tree.add(.zstack(alignment: Alignment(view["alignment"]?.stringValue), children: tree.add(children: children())))
        case "spacer": node = tree.add(.spacer(minLength: view["minLength"]?.numberValue))
        case "divider": node = tree.add(.divider)
        case "image":
            // A symbol at its image scale, against its font.
            if style.symbolScale != 1 { style.size = style.points * style.symbolScale }
            // An image's own rendering mode (`Image(...).symbolRenderingMode(_:)`) wins over the
            // environment's.
            if let mode = view["symbolRenderingMode"] { style.symbolMode = mode.stringValue.flatMap { $0 == "monochrome" ? nil : $0 } }
            node = image(view, variant: style.symbolVariant, into: tree) { text($0, lineLimit: 1, symbol: $1) }
        case "shape":
            let fill = view["fill"].flatMap(Paint.init) ?? style.gradient.map(Paint.linearGradient) ?? .color(style.color ?? "primary")
            let shape = ShapeKind(view)
            tree.shapes.append(shape)
            let number = tree.shapes.count - 1
            if let stroke = view["stroke"], let strokePaint = stroke["paint"].flatMap(Paint.init) {
                let trim = view["trim"]?.arrayValue?.compactMap(\.numberValue)
                tree.strokes[number] = Stroke(
                    paint: drawn(strokePaint, style), lineWidth: max(0, stroke["lineWidth"]?.numberValue ?? 1),
                    inside: stroke["inside"]?.boolValue ?? false,
                    trim: trim.flatMap { $0.count == 2 && $0[0] <= $0[1] ? max(0, $0[0])...min(1, $0[1]) : nil } ?? 0...1,
                    rotation: view["rotation"]?.numberValue ?? 0,
                    dash: Array((stroke["dash"]?.arrayValue?.compactMap(\.numberValue).filter { $0.isFinite && $0 >= 0 } ?? []).prefix(16)))
            }
            node = tree.add(.shape(number, paint(drawn(fill, style))))
            if let inset = view["inset"]?.numberValue, inset > 0 {
                let (across, down) = (metrics.snap(metrics.horizontal(inset)), metrics.snap(metrics.vertical(inset)))
                node = tree.add(.padding(top: down, leading: across, bottom: down, trailing: across, node))
            }
        case "background" where view.children.count == 2:
            let parts = children()
            node = tree.add(.behind(alignment: Alignment(view["alignment"]?.stringValue), parts[0], background: parts[1]))
        case "overlay" where view.children.count == 2:
            let parts = children()
            node = tree.add(.inFront(alignment: Alignment(view["alignment"]?.stringValue), parts[0], overlay: parts[1]))
        case "mask" where view.children.count == 2:
            let parts = children()
            node = tree.add(.masked(alignment: Alignment(view["alignment"]?.stringValue), parts[0], mask: parts[1]))
        case "viewThatFits":
            let axes = view["axes"]?.arrayValue?.compactMap(\.stringValue) ?? ["horizontal", "vertical"]
            node = tree.add(.fits(horizontal: axes.contains("horizontal"), vertical: axes.contains("vertical"), children: tree.add(children: children())))
        case "label" where view.children.count == 2:
            // Icon and title side by side, or one of them as the label style asks.
            let parts = children()
            switch style.labelStyle {
            case "titleOnly": node = parts[1]
            case "iconOnly": node = parts[0]
            default: node = stack(.horizontal, parts, alignment: .center, spacing: nil)
            }
        case "progress", "gauge":
            node = indicator(view, style: style, into: tree, children: children())
        case "toggle" where style.toggleStyle != "button":
            // A switch after its label, as iOS draws a toggle: a 51-by-31 capsule, in the tint (green
            // by default) when on and grey when off, its white knob at the end it is set to.
            let isOn = view["isOn"]?.boolValue ?? false
            func framed(_ node: Int, _ width: Double, _ height: Double) -> Int {
                tree.frames.append(
                    Frame(
                        width: max(1, metrics.snap(metrics.horizontal(width))), height: max(1, metrics.snap(metrics.vertical(height))),
                        minWidth: nil, maxWidth: nil, minHeight: nil, maxHeight: nil, alignment: .center))
                return tree.add(.frame(tree.frames.count - 1, node))
            }
            tree.shapes.append(.capsule)
            let trackPaint = paint(drawn(.color(isOn ? (style.tint ?? "green") : "quaternary"), style))
            let track = framed(tree.add(.shape(tree.shapes.count - 1, trackPaint)), 51, 31)
            tree.shapes.append(.circle)
            let knob = framed(tree.add(.shape(tree.shapes.count - 1, paint(drawn(.color("white"), style)))), 27, 27)
            let inset = metrics.snap(metrics.horizontal(2))
            let padded = tree.add(.padding(top: 0, leading: inset, bottom: 0, trailing: inset, knob))
            let toggle = tree.add(.inFront(alignment: isOn ? Alignment(horizontal: .end, vertical: .center) : .leading, track, overlay: padded))
            let label = children()
            node = label.isEmpty ? toggle : stack(.horizontal, label + [tree.add(.spacer(minLength: nil)), toggle], alignment: .center, spacing: nil)
        case "button", "toggle":
            // As iOS 17 draws these styles in a widget: `.bordered` a grey rounded rectangle behind a
            // label in the tint, `.borderedProminent` one in the tint behind a white label (a label's
            // own colour wins).
            // A toggle styled as a button (`.toggleStyle(.button)`): bordered, prominent when on.
            let buttonStyle = view.view == "toggle" ? ((view["isOn"]?.boolValue ?? false) ? "borderedProminent" : "bordered") : style.buttonStyle
            let bordered = buttonStyle == "bordered" || buttonStyle == "borderedProminent"
            let prominent = buttonStyle == "borderedProminent"
            if bordered, style.color == nil, style.gradient == nil { style.color = prominent ? "white" : "accent" }
            node = vertical(children())
            if bordered {
                let (across, down) = (metrics.snap(metrics.horizontal(12)), metrics.snap(metrics.vertical(6)))
                node = tree.add(.padding(top: down, leading: across, bottom: down, trailing: across, node))
                tree.shapes.append(.roundedRectangle(cornerRadius: Self.borderedButtonCornerRadius))
                let fill = paint(drawn(.color(prominent ? "accent" : "gray/0.2"), style))
                node = tree.add(.behind(alignment: .center, node, background: tree.add(.shape(tree.shapes.count - 1, fill))))
            }
        default:
            node = vertical(children())
        }
        // Layout modifiers wrap the view, innermost first; a layout priority stays on the outermost.
        var priority: Double?
        for modifier in view.modifiers {
            let value = modifier.value
            switch ModifierName(modifier.name) {
            case .padding:
                func edge(_ name: String) -> Double { value[name]?.numberValue ?? 0 }
                node = tree.add(
                    .padding(
                        top: metrics.snap(metrics.vertical(edge("top"))), leading: metrics.snap(metrics.horizontal(edge("leading"))),
                        bottom: metrics.snap(metrics.vertical(edge("bottom"))), trailing: metrics.snap(metrics.horizontal(edge("trailing"))),
                        node))
            case .frame:
                func length(_ name: String, _ convert: (Double) -> Double) -> Double? {
                    if value[name]?.stringValue == "infinity" { return .infinity }
                    // A length given is at least one unit: a 12-point dot is a cell, not nothing.
                    return value[name]?.numberValue.map { $0 > 0 ? max(1, metrics.snap(convert($0))) : 0 }
                }
                let frame = Frame(
                    width: length("width", metrics.horizontal), height: length("height", metrics.vertical),
                    minWidth: length("minWidth", metrics.horizontal), maxWidth: length("maxWidth", metrics.horizontal),
                    minHeight: length("minHeight", metrics.vertical), maxHeight: length("maxHeight", metrics.vertical),
                    alignment: Alignment(value["alignment"]?.stringValue))
                tree.frames.append(frame)
                node = tree.add(.frame(tree.frames.count - 1, node))
            case .background:
                if let fill = Paint(value) { node = tree.add(.background(paint(drawn(fill, style)), node)) }
            case .fixedSize:
                node = tree.add(.fixed(horizontal: value["horizontal"]?.boolValue ?? true, vertical: value["vertical"]?.boolValue ?? true, node))
            case .aspectRatio:
                let ratio = value["ratio"]?.numberValue.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
                node = tree.add(.aspect(ratio: ratio, fill: value["contentMode"]?.stringValue == "fill", node))
            case .offset:
                let (x, y) = (value["x"]?.numberValue ?? 0, value["y"]?.numberValue ?? 0)
                if x.isFinite, y.isFinite, x != 0 || y != 0 {
                    node = tree.add(.offset(x: metrics.snap(metrics.horizontal(x)), y: metrics.snap(metrics.vertical(y)), node))
                }
            case .hidden:
                node = tree.add(.hidden(node))
            case .opacity where (value.numberValue ?? 1) <= 0:
                node = tree.add(.hidden(node))
            case .clipShape:
                let shape = value.stringValue.map { ShapeKind(name: $0, cornerRadius: 0) } ?? ShapeKind(attributes: value)
                tree.shapes.append(shape)
                node = tree.add(.clip(tree.shapes.count - 1, node))
            case .layoutPriority:
                priority = value.numberValue.flatMap { $0.isFinite ? $0 : nil }
            case .effect:
                if let effect = VisualEffect(modifier: modifier.name, value) {
                    tree.effects.append(effect)
                    node = tree.add(.effect(tree.effects.count - 1, node))
                }
            default:
                break
            }
        }
        if let control { node = tree.add(.control(control, node)) }
        if let priority { tree.priorities[node] = priority }
        return node
    }

    /// An image: a symbol as its glyph (drawn to the size it is given when resizable), a picture
    /// (a `UIImage`), or an asset this host cannot have, drawn as the photo symbol.
    private func image(_ view: ViewNode, variant: String?, into tree: Tree, text: (String, String?) -> Int) -> Int {
        let resizable = view["resizable"]?.boolValue ?? false
        if let data = view["data"]?.stringValue, data.hasPrefix("data:image/") {
            let width = view["width"]?.numberValue.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 100
            let height = view["height"]?.numberValue.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 100
            tree.pictures.append(Picture(dataURL: data, width: width, height: height, resizable: resizable))
            return tree.add(.picture(tree.pictures.count - 1))
        }
        let named = view["systemName"]?.stringValue.map { SymbolShapes.name($0, variant: variant) }
        let symbol = named ?? (view["name"] != nil || view["data"] != nil ? "photo" : "")
        let glyph = text(SymbolGlyphs.glyph(symbol), symbol.isEmpty ? nil : symbol)
        guard resizable, case .text(let index) = tree.kinds[glyph] else { return glyph }
        return tree.add(.glyph(index))
    }

    /// The text at `node` (or at the end of a chain of one-child wrappers and stacks) shrinks to
    /// fit on one line rather than wrapping or being cut: a ring's value.
    private func fitsOneLine(_ node: Int, in tree: Tree) {
        var current = node
        while true {
            switch tree.kinds[current] {
            case .text(let index):
                let run = tree.texts[index]
                var style = run.style
                style.minimumScale = min(style.minimumScale, 0.4)
                tree.texts[index] = TextRun(run.text, style, lineLimit: 1, lineHeight: run.lineHeight)
                return
            case .stack(_, _, _, let children) where children.count == 1:
                current = tree.children[children.lowerBound]
            case .padding(_, _, _, _, let content), .frame(_, let content), .background(_, let content), .effect(_, let content):
                current = content
            default:
                return
            }
        }
    }

    /// A progress view or gauge: a ring with its value in the middle (`accessoryCircular`,
    /// `accessoryCircularCapacity`, `.circular`), or its labels over a bar.
    private func indicator(_ view: ViewNode, style: TextStyle, into tree: Tree, children: [Int]) -> Int {
        let fraction = view.indicatorFraction(now: now)
        var barStyle = drawn(style)
        if marksLiveParts, view.view == "progress", let interval = view["timerInterval"]?.arrayValue?.compactMap(\.numberValue),
            interval.count == 2, interval[1] > interval[0]
        {
            barStyle.live = .object(
                JSONObject([("from", .number(interval[0])), ("to", .number(interval[1])), ("down", .bool(view["countsDown"]?.boolValue ?? true))]))
        }
        tree.styles.append(barStyle)
        let styleNumber = tree.styles.count - 1
        if case .color(let tint) = drawn(.color("accent"), barStyle) { tree.tints[styleNumber] = tint }
        let valueIndex = view.children.firstIndex { $0.view == "gaugeValue" }
        let labels = children.indices.filter { $0 != valueIndex }.map { children[$0] }
        // A gauge's bounds labels, in a smaller font (nil for one it has not).
        var small = drawn(style)
        small.font = "caption2"
        small.size = nil
        let bounds = [view["minimumLabel"]?.stringValue, view["maximumLabel"]?.stringValue].map { text -> Int? in
            guard view.view == "gauge", let text, !text.isEmpty else { return nil }
            tree.texts.append(TextRun(text, small, lineLimit: 1, lineHeight: metrics.lineHeight(small)))
            return tree.add(.text(tree.texts.count - 1))
        }
        switch style.indicatorStyle {
        case "accessoryCircular", "accessoryCircularCapacity", "circular":
            // The current value in the ring's middle, else the label.
            let middle = valueIndex.map { children[$0] } ?? labels.first
            // In the ring, that text shrinks to fit on one line inside it, as iOS sets it, rather
            // than being cut (the labels below keep their size).
            if let middle { fitsOneLine(middle, in: tree) }
            let open = style.indicatorStyle == "accessoryCircular"
            var ring = tree.add(.ring(fraction, open: open, styleNumber, label: middle))
            // An open ring's bounds labels sit in its opening, at the ends of its arc, as iOS
            // draws them.
            if open, bounds.contains(where: { $0 != nil }) {
                // Over the ring's bottom, sized by the ring (not by all the space offered).
                let row = tree.add(
                    .stack(
                        .horizontal, alignment: .center, spacing: 0,
                        children: tree.add(children: [bounds[0], tree.add(.spacer(minLength: 0)), bounds[1]].compactMap { $0 })))
                ring = tree.add(.inFront(alignment: Alignment(horizontal: .center, vertical: .end), ring, overlay: row))
            }
            let below = valueIndex == nil ? Array(labels.dropFirst()) : labels
            guard view.view == "progress", !below.isEmpty else { return ring }
            return tree.add(.stack(.vertical, alignment: .center, spacing: nil, children: tree.add(children: [ring] + below)))
        default:
            var bar = tree.add(.bar(fraction, styleNumber))
            // A gauge's bounds labels flank its bar, as iOS lays them out.
            if bounds.contains(where: { $0 != nil }) {
                let row = [bounds[0], bar, bounds[1]].compactMap { $0 }
                bar = tree.add(.stack(.horizontal, alignment: .center, spacing: metrics.snap(metrics.horizontal(4)), children: tree.add(children: row)))
            }
            guard !children.isEmpty else { return bar }
            // A linear capacity gauge's label stands clear of its capsule: its baseline 14.3 points
            // above it on iOS (WidgetExamples' Lock Screen widget), 5.7 with the label on the bar.
            let gap = view.view == "gauge" && style.indicatorStyle == "linearCapacity" ? metrics.snap(metrics.vertical(9)) : 0
            return tree.add(.stack(.vertical, alignment: .leading, spacing: gap, children: tree.add(children: children + [bar])))
        }
    }
}

/// The modifiers layout reads, by name: each modifier's name is looked up once, not compared with
/// every case of two switches (a frame of a hundred widgets reads some three thousand modifiers).
enum ModifierName {
    case font, bold, italic, underline, strikethrough, fontWeight, multilineTextAlignment
    case foregroundColor, foregroundStyle, tint, opacity
    case redacted, unredacted, privacySensitive, widgetAccentable, invalidatableContent
    case lineLimit, minimumScaleFactor, textCase, tracking, allowsTightening
    case gaugeStyle, progressViewStyle, labelStyle, buttonStyle, toggleStyle, imageScale
    case symbolVariant, symbolRenderingMode, secondaryForegroundStyle
    case padding, frame, background, fixedSize, aspectRatio, offset, hidden, clipShape, layoutPriority
    /// `rotationEffect`, `scaleEffect`, `shadow`, `blur`: drawn, the frame unchanged.
    case effect
    /// One layout does not read.
    case other

    private static let byName: [String: ModifierName] = [
        "font": .font, "bold": .bold, "italic": .italic, "underline": .underline, "strikethrough": .strikethrough,
        "fontWeight": .fontWeight, "multilineTextAlignment": .multilineTextAlignment, "foregroundColor": .foregroundColor,
        "foregroundStyle": .foregroundStyle, "tint": .tint, "opacity": .opacity, "redacted": .redacted, "unredacted": .unredacted,
        "privacySensitive": .privacySensitive, "widgetAccentable": .widgetAccentable, "invalidatableContent": .invalidatableContent,
        "lineLimit": .lineLimit, "minimumScaleFactor": .minimumScaleFactor, "textCase": .textCase, "gaugeStyle": .gaugeStyle,
        "progressViewStyle": .progressViewStyle, "labelStyle": .labelStyle, "buttonStyle": .buttonStyle, "toggleStyle": .toggleStyle, "imageScale": .imageScale, "padding": .padding,
        "frame": .frame, "background": .background, "fixedSize": .fixedSize, "aspectRatio": .aspectRatio, "offset": .offset,
        "hidden": .hidden, "clipShape": .clipShape, "layoutPriority": .layoutPriority, "rotationEffect": .effect, "scaleEffect": .effect,
        "shadow": .effect, "blur": .effect, "blendMode": .effect, "symbolVariant": .symbolVariant,
        "symbolRenderingMode": .symbolRenderingMode, "secondaryForegroundStyle": .secondaryForegroundStyle, "tracking": .tracking,
        "allowsTightening": .allowsTightening,
    ]

    init(_ name: String) { self = Self.byName[name] ?? .other }
}
