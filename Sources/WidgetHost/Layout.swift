import Foundation
import WidgetWire

/// What text inherits from the modifiers of its ancestors: font, weight, colour, redaction.
public struct TextStyle: Equatable, Sendable {
    /// A text style name (`body`, `headline`...) or nil with `size` for a fixed size.
    public var font = "body"
    public var size: Double?
    public var bold = false
    /// A colour name (`red`, `secondary`...) or `#rrggbb`; nil for the primary colour.
    public var color: String?
    /// Set on a placeholder's tree: text is drawn as bars, as iOS redacts it.
    public var redacted = false
    /// The destination of the `Link` this text is inside, if any.
    public var link: String?

    public init() {}

    /// The size in points of the font, as iOS's text styles are at the default Dynamic Type size.
    public var points: Double {
        if let size { return size }
        switch font {
        case "largeTitle": return 34
        case "title": return 28
        case "title2": return 22
        case "title3": return 20
        case "headline", "body": return 17
        case "callout": return 16
        case "subheadline": return 15
        case "footnote": return 13
        case "caption": return 12
        case "caption2": return 11
        default: return 17
        }
    }

    /// Headlines are semibold on iOS: bold wherever weight is shown.
    public var isBold: Bool { bold || font == "headline" }
}

/// The units a layout is made in: terminal cells, or points for SVG. Lengths in the view tree
/// (padding, spacing, minimum lengths) are points, converted per axis.
public protocol LayoutMetrics: Sendable {
    /// The width of `text` on one line.
    func width(of text: String, style: TextStyle) -> Double
    func lineHeight(_ style: TextStyle) -> Double
    func horizontal(_ points: Double) -> Double
    func vertical(_ points: Double) -> Double
    /// A stack's spacing when the view does not give one.
    var defaultSpacing: (horizontal: Double, vertical: Double) { get }
    var dividerThickness: Double { get }
    /// Rounds a length to the grid: whole cells in a terminal.
    func snap(_ length: Double) -> Double
}

/// A rectangle in layout units, from the widget's top-left corner.
public struct LayoutRect: Equatable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "(\(x.trimmed), \(y.trimmed), \(width.trimmed)×\(height.trimmed))" }
}

/// One thing to draw, where.
public struct PlacedElement: Equatable, Sendable {
    public enum Content: Equatable, Sendable {
        /// One line of text, already wrapped and truncated to fit.
        case text(String, TextStyle)
        /// A divider: a line across `rect`.
        case rule(horizontal: Bool)
    }

    public var rect: LayoutRect
    public var content: Content
}

/// Sizes and places a view tree the way SwiftUI does for these views: a parent proposes a size, the
/// child chooses its own, and the parent places it. Stacks offer their children the space left, the
/// least flexible first, so spacers take what remains; text wraps at the width it is offered and
/// truncates with "…" where its height or `lineLimit` runs out.
public struct Layout: Sendable {
    public let metrics: any LayoutMetrics
    /// The moment drawn: self-updating dates and timers are formatted for it.
    public let now: Date
    public let dates: DateText

    public init(metrics: any LayoutMetrics, now: Date = Date(), dates: DateText = DateText()) {
        self.metrics = metrics
        self.now = now
        self.dates = dates
    }

    /// Lays out `root` in a widget of `size`, centred as a widget's content is.
    public func place(_ root: ViewNode, in size: (width: Double, height: Double)) -> [PlacedElement] {
        var style = TextStyle()
        if root.modifier("redacted")?.stringValue == "placeholder" { style.redacted = true }
        let node = prepare(root, inherited: style)
        let proposal = Proposal(width: size.width, height: size.height)
        let chosen = self.size(node, proposal, axis: nil)
        var elements: [PlacedElement] = []
        let rect = LayoutRect(
            x: metrics.snap((size.width - chosen.width) / 2), y: metrics.snap((size.height - chosen.height) / 2),
            width: chosen.width, height: chosen.height)
        place(node, rect, axis: nil, into: &elements)
        return elements
    }

    // MARK: The prepared tree

    struct Proposal {
        var width: Double?
        var height: Double?
    }

    struct Size: Equatable {
        var width: Double
        var height: Double
    }

    enum Axis { case horizontal, vertical }

    indirect enum Node {
        case text(String, TextStyle, lineLimit: Int?)
        case stack(Axis, alignment: String?, spacing: Double?, [Node])
        case zstack([Node])
        case spacer(minLength: Double?)
        case divider
        case padding(top: Double, leading: Double, bottom: Double, trailing: Double, Node)
    }

    /// The view tree as layout sees it: styles pushed down to the text, padding as wrappers, views it
    /// does not know as their children stacked vertically.
    func prepare(_ view: ViewNode, inherited: TextStyle) -> Node {
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
                    if let weight = modifier.value["weight"]?.stringValue { style.bold = ["semibold", "bold", "heavy", "black"].contains(weight) }
                }
            case "bold": style.bold = modifier.value.boolValue ?? true
            case "foregroundColor", "foregroundStyle": style.color = modifier.value.stringValue
            case "redacted": if modifier.value.stringValue == "placeholder" { style.redacted = true }
            case "lineLimit": lineLimit = modifier.value.numberValue.flatMap { Int(exactly: $0) }
            default: break
            }
        }
        if view.view == "link", let url = view["url"]?.stringValue { style.link = url }
        let children = { view.children.map { prepare($0, inherited: style) } }
        var node: Node
        switch view.view {
        case "text": node = .text(dates.text(of: view, now: now), style, lineLimit: lineLimit)
        case "vstack": node = .stack(.vertical, alignment: view["alignment"]?.stringValue, spacing: view["spacing"]?.numberValue, children())
        case "hstack": node = .stack(.horizontal, alignment: view["alignment"]?.stringValue, spacing: view["spacing"]?.numberValue, children())
        case "zstack": node = .zstack(children())
        case "spacer": node = .spacer(minLength: view["minLength"]?.numberValue)
        case "divider": node = .divider
        default:
            let inner = children()
            node = inner.count == 1 ? inner[0] : .stack(.vertical, alignment: "leading", spacing: 0, inner)
        }
        for modifier in view.modifiers where modifier.name == "padding" {
            let value = modifier.value
            func edge(_ name: String) -> Double { value[name]?.numberValue ?? 0 }
            node = .padding(
                top: metrics.snap(metrics.vertical(edge("top"))), leading: metrics.snap(metrics.horizontal(edge("leading"))),
                bottom: metrics.snap(metrics.vertical(edge("bottom"))), trailing: metrics.snap(metrics.horizontal(edge("trailing"))),
                node)
        }
        return node
    }

    // MARK: Sizing

    func size(_ node: Node, _ proposal: Proposal, axis: Axis?) -> Size {
        switch node {
        case .text(let text, let style, let lineLimit):
            let lines = wrap(text, style, lineLimit: lineLimit, proposal)
            let width = lines.map { metrics.width(of: $0, style: style) }.max() ?? 0
            return Size(width: width, height: Double(lines.count) * metrics.lineHeight(style))
        case .spacer(let minLength):
            let minimum = minLength ?? 0
            switch axis {
            case .horizontal: return Size(width: max(minimum.converted(metrics.horizontal), proposal.width ?? 0), height: 0)
            case .vertical, nil: return Size(width: 0, height: max(minimum.converted(metrics.vertical), proposal.height ?? 0))
            }
        case .divider:
            switch axis {
            case .horizontal: return Size(width: metrics.dividerThickness, height: proposal.height ?? 0)
            case .vertical, nil: return Size(width: proposal.width ?? 0, height: metrics.dividerThickness)
            }
        case .padding(let top, let leading, let bottom, let trailing, let content):
            let inner = Proposal(
                width: proposal.width.map { max(0, $0 - leading - trailing) }, height: proposal.height.map { max(0, $0 - top - bottom) })
            let size = self.size(content, inner, axis: axis)
            return Size(width: size.width + leading + trailing, height: size.height + top + bottom)
        case .zstack(let children):
            let sizes = children.map { self.size($0, proposal, axis: nil) }
            return Size(width: sizes.map(\.width).max() ?? 0, height: sizes.map(\.height).max() ?? 0)
        case .stack(let stackAxis, _, let spacing, let children):
            let sizes = stackSizes(stackAxis, spacing: spacing, children, proposal)
            let gaps = gapLength(stackAxis, spacing, count: children.count)
            switch stackAxis {
            case .vertical:
                return Size(width: sizes.map(\.width).max() ?? 0, height: sizes.map(\.height).reduce(0, +) + gaps)
            case .horizontal:
                return Size(width: sizes.map(\.width).reduce(0, +) + gaps, height: sizes.map(\.height).max() ?? 0)
            }
        }
    }

    func gapLength(_ axis: Axis, _ spacing: Double?, count: Int) -> Double {
        guard count > 1 else { return 0 }
        let gap =
            spacing.map { metrics.snap(axis == .vertical ? metrics.vertical($0) : metrics.horizontal($0)) }
            ?? (axis == .vertical ? metrics.defaultSpacing.vertical : metrics.defaultSpacing.horizontal)
        return gap * Double(count - 1)
    }

    /// SwiftUI's stack layout: each child is offered an equal share of what is left along the axis,
    /// the least flexible first (those that can take the least extra), so rigid content gets what it
    /// needs and spacers the rest.
    func stackSizes(_ axis: Axis, spacing: Double?, _ children: [Node], _ proposal: Proposal) -> [Size] {
        let gaps = gapLength(axis, spacing, count: children.count)
        func along(_ size: Size) -> Double { axis == .vertical ? size.height : size.width }
        func offer(_ length: Double?) -> Proposal {
            axis == .vertical ? Proposal(width: proposal.width, height: length) : Proposal(width: length, height: proposal.height)
        }
        guard let total = axis == .vertical ? proposal.height : proposal.width else {
            return children.map { size($0, offer(nil), axis: axis) }
        }
        // Spacers come last, as in SwiftUI: the other children are sized first, with the spacers'
        // minimum lengths held back, and the spacers share what is left.
        func isSpacer(_ node: Node) -> Bool {
            if case .spacer = node { return true }
            return false
        }
        let spacers = children.indices.filter { isSpacer(children[$0]) }
        let others = children.indices.filter { !isSpacer(children[$0]) }
        let reserved = spacers.map { along(size(children[$0], offer(0), axis: axis)) }.reduce(0, +)
        let flexibility = children.map { child in
            along(size(child, offer(.infinity), axis: axis)) - along(size(child, offer(0), axis: axis))
        }
        let order = others.sorted { (flexibility[$0], $0) < (flexibility[$1], $1) }
        var remaining = max(0, total - gaps - reserved)
        var sizes = Array(repeating: Size(width: 0, height: 0), count: children.count)
        for (position, index) in order.enumerated() {
            let share = metrics.snap(remaining / Double(order.count - position))
            let chosen = size(children[index], offer(share), axis: axis)
            sizes[index] = chosen
            remaining = max(0, remaining - along(chosen))
        }
        remaining += reserved
        for (position, index) in spacers.enumerated() {
            let share = metrics.snap(remaining / Double(spacers.count - position))
            let chosen = size(children[index], offer(share), axis: axis)
            sizes[index] = chosen
            remaining = max(0, remaining - along(chosen))
        }
        return sizes
    }

    /// Text broken into lines at `proposal.width` (by words, a word longer than a line by
    /// characters), then cut to `lineLimit` and to the lines `proposal.height` holds, the last line
    /// ending in "…" when anything was cut.
    func wrap(_ text: String, _ style: TextStyle, lineLimit: Int?, _ proposal: Proposal) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let width = proposal.width, width.isFinite else {
                lines.append(String(paragraph))
                continue
            }
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
                let candidate = line.isEmpty ? word : line + " " + word
                if metrics.width(of: candidate, style: style) <= width {
                    line = candidate
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                line = word
                // A word wider than the line is broken by characters.
                while metrics.width(of: line, style: style) > width, width > 0 {
                    var head = ""
                    for character in line {
                        if metrics.width(of: head + String(character), style: style) > width { break }
                        head.append(character)
                    }
                    if head.isEmpty { break }
                    lines.append(head)
                    line = String(line.dropFirst(head.count))
                }
            }
            lines.append(line)
        }
        var limit = lineLimit.map { max(1, $0) } ?? Int.max
        if let height = proposal.height, height.isFinite {
            limit = min(limit, max(1, Int((height / metrics.lineHeight(style)).rounded(.down))))
        }
        guard lines.count > limit else { return lines }
        var kept = Array(lines.prefix(limit))
        kept[kept.count - 1] = truncated(kept[kept.count - 1] + " …", style, to: proposal.width)
        return kept
    }

    /// `line` cut to `width`, ending in "…".
    func truncated(_ line: String, _ style: TextStyle, to width: Double?) -> String {
        var text = line.hasSuffix(" …") ? String(line.dropLast(2)) : line
        guard let width, width.isFinite else { return text + "…" }
        while !text.isEmpty, metrics.width(of: text + "…", style: style) > width { text.removeLast() }
        return text + "…"
    }

    // MARK: Placing

    func place(_ node: Node, _ rect: LayoutRect, axis: Axis?, into elements: inout [PlacedElement]) {
        switch node {
        case .text(let text, let style, let lineLimit):
            let lines = wrap(text, style, lineLimit: lineLimit, Proposal(width: rect.width, height: rect.height))
            let height = metrics.lineHeight(style)
            for (index, line) in lines.enumerated() {
                let width = min(rect.width, metrics.width(of: line, style: style))
                elements.append(
                    PlacedElement(
                        rect: LayoutRect(x: rect.x, y: rect.y + Double(index) * height, width: width, height: height),
                        content: .text(line, style)))
            }
        case .spacer:
            break
        case .divider:
            elements.append(PlacedElement(rect: rect, content: .rule(horizontal: axis != .horizontal)))
        case .padding(let top, let leading, let bottom, let trailing, let content):
            place(
                content,
                LayoutRect(
                    x: rect.x + leading, y: rect.y + top, width: max(0, rect.width - leading - trailing),
                    height: max(0, rect.height - top - bottom)),
                axis: axis, into: &elements)
        case .zstack(let children):
            for child in children {
                let size = self.size(child, Proposal(width: rect.width, height: rect.height), axis: nil)
                place(child, centered(size, in: rect), axis: nil, into: &elements)
            }
        case .stack(let stackAxis, let alignment, let spacing, let children):
            let sizes = stackSizes(stackAxis, spacing: spacing, children, Proposal(width: rect.width, height: rect.height))
            let gap = children.count > 1 ? gapLength(stackAxis, spacing, count: 2) : 0
            var cursor = stackAxis == .vertical ? rect.y : rect.x
            for (child, size) in zip(children, sizes) {
                let childRect: LayoutRect
                switch stackAxis {
                case .vertical:
                    let x: Double
                    switch alignment {
                    case "leading": x = rect.x
                    case "trailing": x = rect.x + rect.width - size.width
                    default: x = rect.x + metrics.snap((rect.width - size.width) / 2)
                    }
                    childRect = LayoutRect(x: x, y: cursor, width: size.width, height: size.height)
                    cursor += size.height + gap
                case .horizontal:
                    let y: Double
                    switch alignment {
                    case "top": y = rect.y
                    case "bottom": y = rect.y + rect.height - size.height
                    default: y = rect.y + metrics.snap((rect.height - size.height) / 2)
                    }
                    childRect = LayoutRect(x: cursor, y: y, width: size.width, height: size.height)
                    cursor += size.width + gap
                }
                place(child, childRect, axis: stackAxis, into: &elements)
            }
        }
    }

    func centered(_ size: Size, in rect: LayoutRect) -> LayoutRect {
        LayoutRect(
            x: rect.x + metrics.snap((rect.width - size.width) / 2), y: rect.y + metrics.snap((rect.height - size.height) / 2),
            width: size.width, height: size.height)
    }
}

extension Double {
    fileprivate func converted(_ convert: (Double) -> Double) -> Double { convert(self) }

    var trimmed: String { isFinite && self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
