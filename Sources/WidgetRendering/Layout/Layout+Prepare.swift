import Foundation
import WidgetWire

extension Layout {
    /// The view tree as layout sees it: styles pushed down to the text, padding as wrappers, views it
    /// does not know as their children stacked vertically. Adds its nodes to `tree`; returns the
    /// number of its root.
    func prepare(_ view: ViewNode, inherited: TextStyle, into tree: Tree) -> Int {
        var style = inherited
        var lineLimit: Int?
        // Modifiers are innermost first; an inner one wins, so apply the outer ones first.
        for modifier in view.modifiers.reversed() {
            switch modifier.name {
            case "font":
                if let name = modifier.value.stringValue {
                    style.font = name
                    style.size = nil
                } else if let size = modifier.value["size"]?.numberValue {
                    style.size = size
                    if let weight = modifier.value["weight"]?.stringValue { style.bold = Self.isBold(weight: weight) }
                }
            case "bold": style.bold = modifier.value.boolValue ?? true
            case "fontWeight":
                if let weight = modifier.value.stringValue { style.bold = Self.isBold(weight: weight) }
            case "multilineTextAlignment": style.alignment = modifier.value.stringValue ?? "leading"
            case "foregroundColor", "foregroundStyle":
                switch Paint(modifier.value) {
                case .color(let color)?:
                    style.color = color
                    style.gradient = nil
                case .linearGradient(let gradient)?:
                    style.color = nil
                    style.gradient = gradient
                case nil:
                    style.color = nil
                    style.gradient = nil
                }
            case "redacted":
                if modifier.value.stringValue == "placeholder" { style.redacted = true }
                if modifier.value.stringValue == "privacy" { style.redactsPrivacy = true }
            case "privacySensitive": style.privacySensitive = modifier.value.boolValue ?? true
            case "widgetAccentable": style.accentable = modifier.value.boolValue ?? true
            case "invalidatableContent": style.invalidatable = modifier.value.boolValue ?? true
            case "lineLimit": lineLimit = modifier.value.numberValue.flatMap { Int(exactly: $0) }
            default: break
            }
        }
        if view.view == "link", let url = view["url"]?.stringValue { style.link = url }
        func children() -> [Int] { view.children.map { prepare($0, inherited: style, into: tree) } }
        func text(_ string: String, lineLimit: Int?) -> Int {
            let style = drawn(style)
            tree.texts.append(TextRun(string, style, lineLimit: lineLimit, lineHeight: metrics.lineHeight(style)))
            return tree.add(.text(tree.texts.count - 1))
        }
        func paint(_ paint: Paint) -> Int {
            tree.paints.append(paint)
            return tree.paints.count - 1
        }
        var node: Int
        switch view.view {
        case "text": node = text(dates.text(of: view, now: now), lineLimit: lineLimit)
        case "vstack":
            node = tree.add(
                .stack(.vertical, alignment: Alignment(view["alignment"]?.stringValue), spacing: view["spacing"]?.numberValue, children: tree.add(children: children())))
        case "hstack":
            node = tree.add(
                .stack(.horizontal, alignment: Alignment(view["alignment"]?.stringValue), spacing: view["spacing"]?.numberValue, children: tree.add(children: children())))
        case "zstack":
            node = tree.add(.zstack(alignment: Alignment(view["alignment"]?.stringValue), children: tree.add(children: children())))
        case "spacer": node = tree.add(.spacer(minLength: view["minLength"]?.numberValue))
        case "divider": node = tree.add(.divider)
        case "image": node = text(SymbolGlyphs.glyph(view["systemName"]?.stringValue ?? ""), lineLimit: 1)
        case "shape":
            let fill = view["fill"].flatMap(Paint.init) ?? style.gradient.map(Paint.linearGradient) ?? .color(style.color ?? "primary")
            tree.shapes.append(ShapeKind(view))
            node = tree.add(.shape(tree.shapes.count - 1, paint(drawn(fill, style))))
            if let inset = view["inset"]?.numberValue, inset > 0 {
                let (across, down) = (metrics.snap(metrics.horizontal(inset)), metrics.snap(metrics.vertical(inset)))
                node = tree.add(.padding(top: down, leading: across, bottom: down, trailing: across, node))
            }
        case "background" where view.children.count == 2:
            let parts = children()
            node = tree.add(.behind(alignment: Alignment(view["alignment"]?.stringValue), parts[0], background: parts[1]))
        case "viewThatFits":
            let axes = view["axes"]?.arrayValue?.compactMap(\.stringValue) ?? ["horizontal", "vertical"]
            node = tree.add(.fits(horizontal: axes.contains("horizontal"), vertical: axes.contains("vertical"), children: tree.add(children: children())))
        case "progress", "gauge":
            let label = children()
            tree.styles.append(drawn(style))
            let bar = tree.add(.bar(Self.fraction(of: view, now: now), tree.styles.count - 1))
            node = label.isEmpty ? bar : tree.add(.stack(.vertical, alignment: .leading, spacing: 0, children: tree.add(children: label + [bar])))
        default:
            let inner = children()
            node = inner.count == 1 ? inner[0] : tree.add(.stack(.vertical, alignment: .leading, spacing: 0, children: tree.add(children: inner)))
        }
        // Layout modifiers wrap the view, innermost first.
        for modifier in view.modifiers {
            let value = modifier.value
            switch modifier.name {
            case "padding":
                func edge(_ name: String) -> Double { value[name]?.numberValue ?? 0 }
                node = tree.add(
                    .padding(
                        top: metrics.snap(metrics.vertical(edge("top"))), leading: metrics.snap(metrics.horizontal(edge("leading"))),
                        bottom: metrics.snap(metrics.vertical(edge("bottom"))), trailing: metrics.snap(metrics.horizontal(edge("trailing"))),
                        node))
            case "frame":
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
            case "background":
                if let fill = Paint(value) { node = tree.add(.background(paint(drawn(fill, style)), node)) }
            default:
                break
            }
        }
        return node
    }
}
