import Foundation
import WidgetWire

/// What text inherits from the modifiers of its ancestors: font, weight, colour, redaction.
public struct TextStyle: Equatable, Sendable {
    /// The values, shared by copies until one of them changes: a style is copied into every text
    /// of a layout and every line it places, and a copy is then one reference to count, not one
    /// for each of its strings.
    private struct Values: Equatable {
        var font = "body"
        var size: Double?
        var bold = false
        var color: String?
        var gradient: LinearGradientPaint?
        var redacted = false
        var link: String?
        var alignment = "leading"
        var accentable = false
        var privacySensitive = false
        var redactsPrivacy = false
        var invalidatable = false
    }

    private final class Box: @unchecked Sendable {
        // Changed only through a style that holds the one reference to it (`change`).
        var values: Values
        init(_ values: Values) { self.values = values }
        static let standard = Box(Values())
    }

    private var box: Box

    private mutating func change(_ body: (inout Values) -> Void) {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.values) }
        body(&box.values)
    }

    public static func == (lhs: TextStyle, rhs: TextStyle) -> Bool {
        lhs.box === rhs.box || lhs.box.values == rhs.box.values
    }

    /// A text style name (`body`, `headline`...) or nil with `size` for a fixed size.
    public var font: String {
        get { box.values.font }
        set { change { $0.font = newValue } }
    }
    public var size: Double? {
        get { box.values.size }
        set { change { $0.size = newValue } }
    }
    public var bold: Bool {
        get { box.values.bold }
        set { change { $0.bold = newValue } }
    }
    /// A colour name (`red`, `secondary`...) or `#rrggbb`; nil for the primary colour.
    public var color: String? {
        get { box.values.color }
        set { change { $0.color = newValue } }
    }
    /// A gradient the text is painted with, across each line's bounds (`foregroundStyle`); it
    /// takes the place of `color`.
    public var gradient: LinearGradientPaint? {
        get { box.values.gradient }
        set { change { $0.gradient = newValue } }
    }
    /// Set on a placeholder's tree: text is drawn as bars, as iOS redacts it.
    public var redacted: Bool {
        get { box.values.redacted }
        set { change { $0.redacted = newValue } }
    }
    /// The destination of the `Link` this text is inside, if any.
    public var link: String? {
        get { box.values.link }
        set { change { $0.link = newValue } }
    }
    /// How wrapped lines line up: `leading`, `center` or `trailing`.
    public var alignment: String {
        get { box.values.alignment }
        set { change { $0.alignment = newValue } }
    }
    /// Marked `widgetAccentable`: in the accent colour when the widget is drawn accented.
    public var accentable: Bool {
        get { box.values.accentable }
        set { change { $0.accentable = newValue } }
    }
    /// Marked `privacySensitive`: redacted on a locked device or under `redacted(reason: .privacy)`.
    public var privacySensitive: Bool {
        get { box.values.privacySensitive }
        set { change { $0.privacySensitive = newValue } }
    }
    /// Under `redacted(reason: .privacy)`.
    public var redactsPrivacy: Bool {
        get { box.values.redactsPrivacy }
        set { change { $0.redactsPrivacy = newValue } }
    }
    /// Marked `invalidatableContent`: shown as stale while an interaction's reload is pending.
    public var invalidatable: Bool {
        get { box.values.invalidatable }
        set { change { $0.invalidatable = newValue } }
    }

    public init() { box = Box.standard }

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
    /// How thick a progress bar or gauge is.
    var barThickness: Double { get }
    /// Rounds a length to the grid: whole cells in a terminal.
    func snap(_ length: Double) -> Double
    /// The widths of `text`'s words (split at every U+0020 space), where the width of any run of
    /// them is exactly the sum of theirs and the spaces': then sizing wraps by adding numbers,
    /// without making the lines. Nil where widths do not add up so.
    func wordWidths(of text: String, style: TextStyle) -> [Double]?
}

extension LayoutMetrics {
    public func wordWidths(of text: String, style: TextStyle) -> [Double]? { nil }
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
        /// A colour or gradient filling a shape in `rect` (a `background`, a `Color`, a shape view),
        /// drawn under what follows.
        case fill(Paint, ShapeKind)
        /// A progress bar or gauge across `rect`, filled to the fraction (nil: indeterminate), in a
        /// colour (the accent colour, unless the rendering mode changes it).
        case bar(Double?, tint: String)
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

    /// What the views were built for and are drawn in: colours follow its rendering mode.
    public let environment: RenderingEnvironment
    /// Drawn as on a locked device: privacy-sensitive views are redacted.
    public let isLocked: Bool
    /// An interaction's reload is pending: invalidatable content is drawn as stale (secondary).
    public let isInvalidated: Bool

    public init(
        metrics: any LayoutMetrics, now: Date = Date(), dates: DateText = DateText(), environment: RenderingEnvironment = RenderingEnvironment(),
        isLocked: Bool = false, isInvalidated: Bool = false
    ) {
        self.metrics = metrics
        self.now = now
        self.dates = dates
        self.environment = environment
        self.isLocked = isLocked
        self.isInvalidated = isInvalidated
    }

    /// The widget's container background as drawn: none where the environment hides it (the Lock
    /// Screen) or the system replaces it (accented mode), or for the clear colour.
    public func containerBackground(of root: ViewNode) -> Paint? {
        guard environment.showsContainerBackground, environment.renderingMode == .fullColor,
            let paint = root.modifier("containerBackground").flatMap(Paint.init), !paint.isClear
        else { return nil }
        return paint
    }

    // MARK: Rendering modes

    /// A style as drawn: redacted where privacy asks, stale while invalidated, and its colours as
    /// the rendering mode draws them.
    func drawn(_ style: TextStyle) -> TextStyle {
        var style = style
        if style.privacySensitive, isLocked || style.redactsPrivacy { style.redacted = true }
        if isInvalidated, style.invalidatable {
            style.color = "secondary"
            style.gradient = nil
            return style
        }
        switch environment.renderingMode {
        case .fullColor:
            break
        case .accented:
            // Two groups, as iOS tints them: the accentable in the accent colour, the rest primary
            // (secondary stays secondary).
            style.color = style.accentable ? "accent" : (style.color == "secondary" ? "secondary" : nil)
            style.gradient = nil
        case .vibrant:
            style.color = style.color.map(vibrant)
            style.gradient = style.gradient.map(vibrant)
        }
        return style
    }

    /// A fill as drawn in the rendering mode, for a view of `style`.
    func drawn(_ paint: Paint, _ style: TextStyle) -> Paint {
        switch environment.renderingMode {
        case .fullColor: return paint
        case .accented:
            if style.accentable { return .color("accent") }
            fallthrough
        case .vibrant:
            switch paint {
            case .color(let color): return .color(vibrant(color))
            case .linearGradient(let gradient): return .linearGradient(vibrant(gradient))
            }
        }
    }

    /// A colour desaturated to the grey of its luminance; the system's greys and clear kept.
    func vibrant(_ color: String) -> String {
        if ["primary", "secondary", "separator", "redacted", "clear"].contains(color) { return color }
        let (red, green, blue) = SystemColors.rgb(color, environment.colorScheme)
        let grey = Int((0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)).rounded())
        return SystemColors.hex((grey, grey, grey))
    }

    func vibrant(_ gradient: LinearGradientPaint) -> LinearGradientPaint {
        var gradient = gradient
        gradient.stops = gradient.stops.map { LinearGradientPaint.Stop(color: vibrant($0.color), location: $0.location) }
        return gradient
    }

    /// Lays out `root` in a widget of `size`, centred as a widget's content is.
    public func place(_ root: ViewNode, in size: (width: Double, height: Double)) -> [PlacedElement] {
        var style = TextStyle()
        if root.modifier("redacted")?.stringValue == "placeholder" { style.redacted = true }
        let tree = Tree.pool.take()
        defer { Tree.pool.give(tree) }
        let node = prepare(root, inherited: style, into: tree)
        tree.makeMemos()
        let proposal = Proposal(width: size.width, height: size.height)
        let chosen = self.size(tree, node, proposal, axis: nil)
        var elements: [PlacedElement] = []
        elements.reserveCapacity(tree.kinds.count)
        let rect = LayoutRect(
            x: metrics.snap((size.width - chosen.width) / 2), y: metrics.snap((size.height - chosen.height) / 2),
            width: chosen.width, height: chosen.height)
        place(tree, node, rect, axis: nil, into: &elements)
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

    /// The prepared tree: its nodes by number, each a `Kind` that holds only plain values (other
    /// nodes' numbers, numbers into the tables of texts, paints and frames), so sizing and placing
    /// look at a node without reference counting, and a layout allocates a few arrays rather than
    /// an object per node. Each node remembers the sizes it chose for the proposals it got: stacks
    /// ask their children several times (flexibility, then a share), and without the memo the work
    /// would multiply with every level of nesting.
    ///
    /// Made, read and written by one layout on one thread, never two accesses at once: its arrays
    /// are unchecked, and cost no run-time exclusivity bookkeeping on every look.
    final class Tree {
        enum Kind {
            /// Text: its number in `texts`.
            case text(Int)
            case stack(Axis, alignment: Alignment, spacing: Double?, children: Range<Int>)
            case zstack(alignment: Alignment, children: Range<Int>)
            case spacer(minLength: Double?)
            case divider
            case padding(top: Double, leading: Double, bottom: Double, trailing: Double, Int)
            /// Its number in `frames`, and the content.
            case frame(Int, Int)
            /// Its number in `paints`, and the content.
            case background(Int, Int)
            /// A view drawn behind another, sized to it (`background { ... }`).
            case behind(alignment: Alignment, Int, background: Int)
            /// Its fraction, and its style's number in `styles`.
            case bar(Double?, Int)
            /// A shape (or a `Color`, a gradient) that takes the space it is offered: its numbers in
            /// `shapes` and `paints`.
            case shape(Int, Int)
            /// `ViewThatFits`: the first child whose ideal size fits along the axes, else the last.
            case fits(horizontal: Bool, vertical: Bool, children: Range<Int>)
        }

        @exclusivity(unchecked) var kinds: [Kind] = []
        /// The children of every stack, z-stack and `ViewThatFits`, each one's together.
        @exclusivity(unchecked) var children: [Int] = []
        @exclusivity(unchecked) var texts: [TextRun] = []
        @exclusivity(unchecked) var paints: [Paint] = []
        @exclusivity(unchecked) var shapes: [ShapeKind] = []
        @exclusivity(unchecked) var frames: [Frame] = []
        @exclusivity(unchecked) var styles: [TextStyle] = []
        /// The size each node chose for each proposal it got.
        @exclusivity(unchecked) var sizes = Memo<ProposalKey, Size>()
        /// For stacks: where in `stacked` their children's sizes for a proposal are (placing asks
        /// again for the proposal sizing asked about).
        @exclusivity(unchecked) var stackedAt = Memo<ProposalKey, Int>()
        @exclusivity(unchecked) var stacked: [Size] = []
        /// Each text's sizes (by its number in `texts`) for a width and the lines it may take.
        @exclusivity(unchecked) var textSizes = Memo<TextKey, Size>()

        func add(_ kind: Kind) -> Int {
            kinds.append(kind)
            return kinds.count - 1
        }

        /// Adds a list of children; where they are in `children`.
        func add(children list: [Int]) -> Range<Int> {
            let start = children.count
            children.append(contentsOf: list)
            return start..<children.count
        }

        /// Trees of earlier layouts, emptied with their room kept: a dashboard's hundred layouts a
        /// frame reuse a few trees' arrays rather than allocating their own.
        static let pool = Pool()

        final class Pool: @unchecked Sendable {
            private let lock = NSLock()
            private var spare: [Tree] = []

            func take() -> Tree {
                lock.withLock { spare.popLast() } ?? Tree()
            }

            /// Keeps a few trees (one per thread laying out at once, about), none grown huge.
            func give(_ tree: Tree) {
                guard tree.kinds.capacity <= 4096 else { return }
                tree.empty()
                lock.withLock { if spare.count < 4 { spare.append(tree) } }
            }
        }

        /// Back to no nodes, keeping the room.
        func empty() {
            kinds.removeAll(keepingCapacity: true)
            children.removeAll(keepingCapacity: true)
            texts.removeAll(keepingCapacity: true)
            paints.removeAll(keepingCapacity: true)
            shapes.removeAll(keepingCapacity: true)
            frames.removeAll(keepingCapacity: true)
            styles.removeAll(keepingCapacity: true)
            stacked.removeAll(keepingCapacity: true)
        }

        /// Room in the memos for every node, once the tree is made.
        func makeMemos() {
            // Most nodes are sized for a few proposals; only stacks place their children.
            sizes.make(nodes: kinds.count, entriesPerNode: 4)
            stackedAt.make(nodes: kinds.count, entriesPerNode: 0)
            textSizes.make(nodes: texts.count, entriesPerNode: 3)
        }

        /// Text `index`'s size at `width` with at most `limit` lines, if known: sized with that
        /// limit, or with a higher one that it did not reach (it took all its lines, which `limit`
        /// keeps too).
        func textSize(_ index: Int, _ asked: TextKey) -> Size? {
            let lineHeight = texts[index].lineHeight
            return textSizes.first(index) { key, size in
                guard key.width == asked.width else { return false }
                if key.limit == asked.limit { return true }
                guard lineHeight > 0 else { return false }
                // Fewer lines than its limit: not cut (a cut text takes all the lines it may).
                let lines = (size.height / lineHeight).rounded()
                return lines < Double(key.limit) && lines <= Double(asked.limit)
            }
        }
    }

    /// A proposal, and the axis of the stack that makes it.
    struct ProposalKey: Equatable {
        let width: Double?
        let height: Double?
        let axis: Axis?
    }

    /// What a text's size depends on: the width offered, and how many lines it may take.
    struct TextKey: Equatable {
        let width: Double
        let limit: Int
    }

    /// Values remembered per node and proposal, all in one array: each node's a chain through it,
    /// newest first (a node is asked about a handful of proposals, some about more than eight).
    struct Memo<Key: Equatable, Value> {
        /// Each node's newest entry, or -1.
        private var heads: [Int32] = []
        private var entries: [(key: Key, value: Value, next: Int32)] = []

        /// Empty, with a chain for each of `nodes`.
        mutating func make(nodes: Int, entriesPerNode: Int) {
            heads.removeAll(keepingCapacity: true)
            heads.append(contentsOf: repeatElement(-1, count: nodes))
            entries.removeAll(keepingCapacity: true)
            entries.reserveCapacity(nodes * entriesPerNode)
        }

        func value(_ node: Int, _ key: Key) -> Value? {
            first(node) { known, _ in known == key }
        }

        /// The newest of the node's values that `matches`.
        func first(_ node: Int, where matches: (Key, Value) -> Bool) -> Value? {
            var index = heads[node]
            while index >= 0 {
                let entry = entries[Int(index)]
                if matches(entry.key, entry.value) { return entry.value }
                index = entry.next
            }
            return nil
        }

        mutating func insert(_ node: Int, _ key: Key, _ value: Value) {
            entries.append((key, value, heads[node]))
            heads[node] = Int32(entries.count - 1)
        }
    }

    /// A text node's content.
    final class TextRun {
        let text: String
        let style: TextStyle
        let lineLimit: Int?
        // What sizing learns of the text, kept for the rest of the layout (one thread, unchecked
        // as the node's memos are).
        /// Its width on one line, and whether it has line breaks: measured once.
        @exclusivity(unchecked) var oneLine: (width: Double, hasNewline: Bool)?
        /// Its words' widths, when they add up: measured once, and every proposal after that is
        /// sized by adding them (`wordSize`).
        @exclusivity(unchecked) var words: [Double]?
        /// The width of a space between its words, measured with them.
        @exclusivity(unchecked) var space = 0.0
        @exclusivity(unchecked) var isMeasured = false
        /// Its lines at a width, broken up to a number of lines (the limit and one more, to tell
        /// whether it was cut): sizing asks at one width for several heights.
        @exclusivity(unchecked) var lines: [(width: Double, maximum: Int, lines: [String])] = []
        let lineHeight: Double

        init(_ text: String, _ style: TextStyle, lineLimit: Int?, lineHeight: Double) {
            self.text = text
            self.style = style
            self.lineLimit = lineLimit
            self.lineHeight = lineHeight
        }
    }

    /// A `frame` modifier's bounds, in layout units; `.infinity` for a maximum that takes all.
    struct Frame {
        var width: Double?
        var height: Double?
        var minWidth: Double?
        var maxWidth: Double?
        var minHeight: Double?
        var maxHeight: Double?
        var alignment: Alignment
        var isFixed: Bool { minWidth == nil && maxWidth == nil && minHeight == nil && maxHeight == nil }
    }

    /// Whether a font weight is drawn bold: semibold and heavier.
    static func isBold(weight: String) -> Bool {
        switch weight {
        case "semibold", "bold", "heavy", "black": true
        default: false
        }
    }

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

    // MARK: Sizing

    /// A node's size for a proposal: measured once, then remembered.
    func size(_ tree: Tree, _ node: Int, _ proposal: Proposal, axis: Axis?) -> Size {
        if case .text(let index) = tree.kinds[node] {
            // Text's size depends on the width and on how many lines it may take, not on the height
            // itself: stacks ask at several heights for each width, and the text is sized once.
            let key = TextKey(width: proposal.width ?? .infinity, limit: lineCount(tree.texts[index], proposal))
            if let known = tree.textSize(index, key) { return known }
            let chosen = measure(tree, node, proposal, axis: axis)
            tree.textSizes.insert(index, key, chosen)
            return chosen
        }
        let key = ProposalKey(width: proposal.width, height: proposal.height, axis: axis)
        if let known = tree.sizes.value(node, key) { return known }
        let chosen = measure(tree, node, proposal, axis: axis)
        tree.sizes.insert(node, key, chosen)
        return chosen
    }

    func measure(_ tree: Tree, _ node: Int, _ proposal: Proposal, axis: Axis?) -> Size {
        switch tree.kinds[node] {
        case .text(let index):
            return textSize(tree.texts[index], proposal)
        case .spacer(let minLength):
            let minimum = minLength ?? 0
            switch axis {
            case .horizontal: return Size(width: max(metrics.horizontal(minimum), proposal.width ?? 0), height: 0)
            case .vertical, nil: return Size(width: 0, height: max(metrics.vertical(minimum), proposal.height ?? 0))
            }
        case .divider:
            switch axis {
            case .horizontal: return Size(width: metrics.dividerThickness, height: proposal.height ?? 0)
            case .vertical, nil: return Size(width: proposal.width ?? 0, height: metrics.dividerThickness)
            }
        case .padding(let top, let leading, let bottom, let trailing, let content):
            let inner = Proposal(
                width: proposal.width.map { max(0, $0 - leading - trailing) }, height: proposal.height.map { max(0, $0 - top - bottom) })
            let size = self.size(tree, content, inner, axis: axis)
            return Size(width: size.width + leading + trailing, height: size.height + top + bottom)
        case .zstack(_, let children):
            var size = Size(width: 0, height: 0)
            for position in children {
                let chosen = self.size(tree, tree.children[position], proposal, axis: nil)
                size = Size(width: max(size.width, chosen.width), height: max(size.height, chosen.height))
            }
            return size
        case .background(_, let content), .behind(_, let content, _):
            return size(tree, content, proposal, axis: axis)
        case .shape:
            // All it is offered, however much (so a stack sizes it after its text, as the most
            // flexible); asked for its ideal size, SwiftUI's 10 points.
            return Size(
                width: proposal.width ?? max(1, metrics.snap(metrics.horizontal(10))),
                height: proposal.height ?? max(1, metrics.snap(metrics.vertical(10))))
        case .fits(let horizontal, let vertical, let children):
            guard let chosen = fitting(tree, children, horizontal: horizontal, vertical: vertical, proposal) else { return Size(width: 0, height: 0) }
            return size(tree, chosen, proposal, axis: axis)
        case .bar:
            // As wide as offered (a default width when asked for its ideal), one bar high.
            let width = proposal.width.flatMap { $0.isFinite ? $0 : nil } ?? metrics.snap(metrics.horizontal(100))
            return Size(width: width, height: metrics.barThickness)
        case .frame(let frame, let content):
            return frameSize(tree, tree.frames[frame], content, proposal, axis: axis).outer
        case .stack(let stackAxis, _, let spacing, let children):
            let start = stackSizes(tree, node, stackAxis, spacing: spacing, children, proposal)
            var (along, across) = (0.0, 0.0)
            for offset in 0..<children.count {
                let size = tree.stacked[start + offset]
                along += stackAxis == .vertical ? size.height : size.width
                across = max(across, stackAxis == .vertical ? size.width : size.height)
            }
            along += gapLength(stackAxis, spacing, count: children.count)
            return stackAxis == .vertical ? Size(width: across, height: along) : Size(width: along, height: across)
        }
    }

    func textSize(_ run: TextRun, _ proposal: Proposal) -> Size {
        if let size = wordSize(run, proposal) { return size }
        let (text, style) = (run.text, run.style)
        let lines = wrap(run, proposal)
        let width = lines.count == 1 && lines[0] == text ? oneLine(run).width : lines.map { metrics.width(of: $0, style: style) }.max() ?? 0
        return Size(width: width, height: Double(lines.count) * run.lineHeight)
    }

    /// A frame's own size and its content's, as SwiftUI sizes `frame`: a fixed frame proposes its
    /// lengths and takes them; a flexible one proposes the offer within its bounds, and takes the
    /// content's size within them, or all it is offered up to an infinite maximum.
    func frameSize(_ tree: Tree, _ frame: Frame, _ content: Int, _ proposal: Proposal, axis: Axis?) -> (outer: Size, inner: Size) {
        if frame.isFixed {
            let inner = size(tree, content, Proposal(width: frame.width ?? proposal.width, height: frame.height ?? proposal.height), axis: axis)
            return (Size(width: frame.width ?? inner.width, height: frame.height ?? inner.height), inner)
        }
        func clamp(_ value: Double?, _ low: Double?, _ high: Double?) -> Double? {
            guard var value else { return nil }
            if let low { value = max(value, low) }
            if let high { value = min(value, high) }
            return value
        }
        let inner = size(
            tree, content, Proposal(width: clamp(proposal.width, frame.minWidth, frame.maxWidth), height: clamp(proposal.height, frame.minHeight, frame.maxHeight)),
            axis: axis)
        func outer(_ child: Double, _ offered: Double?, _ low: Double?, _ high: Double?) -> Double {
            var length = child
            if let high, let offered, offered.isFinite, high > child { length = min(high, max(child, offered)) }
            if let low { length = max(length, low) }
            if let high { length = min(length, high) }
            return length.isFinite ? length : child
        }
        return (
            Size(
                width: outer(inner.width, proposal.width, frame.minWidth, frame.maxWidth),
                height: outer(inner.height, proposal.height, frame.minHeight, frame.maxHeight)),
            inner
        )
    }

    /// The child `ViewThatFits` shows for a proposal: the first whose ideal size (unconstrained along
    /// the axes it checks) fits the proposal along them, else the last.
    func fitting(_ tree: Tree, _ children: Range<Int>, horizontal: Bool, vertical: Bool, _ proposal: Proposal) -> Int? {
        let ideal = Proposal(width: horizontal ? nil : proposal.width, height: vertical ? nil : proposal.height)
        for position in children {
            let child = tree.children[position]
            let size = self.size(tree, child, ideal, axis: nil)
            if (!horizontal || size.width <= (proposal.width ?? .infinity)) && (!vertical || size.height <= (proposal.height ?? .infinity)) {
                return child
            }
        }
        return children.isEmpty ? nil : tree.children[children.upperBound - 1]
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
    /// needs and spacers the rest. The children's sizes go into `tree.stacked`, in order, from the
    /// place it returns (remembered per proposal: placing asks again).
    func stackSizes(_ tree: Tree, _ node: Int, _ axis: Axis, spacing: Double?, _ children: Range<Int>, _ proposal: Proposal) -> Int {
        let key = ProposalKey(width: proposal.width, height: proposal.height, axis: axis)
        if let known = tree.stackedAt.value(node, key) { return known }
        let start = tree.stacked.count
        tree.stacked.append(contentsOf: repeatElement(Size(width: 0, height: 0), count: children.count))
        stackSizes(tree, axis, spacing: spacing, children, proposal, into: start)
        tree.stackedAt.insert(node, key, start)
        return start
    }

    func stackSizes(_ tree: Tree, _ axis: Axis, spacing: Double?, _ children: Range<Int>, _ proposal: Proposal, into start: Int) {
        let gaps = gapLength(axis, spacing, count: children.count)
        func along(_ size: Size) -> Double { axis == .vertical ? size.height : size.width }
        func offer(_ length: Double?) -> Proposal {
            axis == .vertical ? Proposal(width: proposal.width, height: length) : Proposal(width: length, height: proposal.height)
        }
        func isSpacer(_ child: Int) -> Bool {
            if case .spacer = tree.kinds[child] { return true }
            return false
        }
        guard let total = axis == .vertical ? proposal.height : proposal.width else {
            for offset in 0..<children.count {
                tree.stacked[start + offset] = size(tree, tree.children[children.lowerBound + offset], offer(nil), axis: axis)
            }
            return
        }
        // Spacers come last, as in SwiftUI: the other children are sized first, with the spacers'
        // minimum lengths held back, and the spacers share what is left.
        var reserved = 0.0
        var spacers = 0
        withUnsafeTemporaryAllocation(of: (flexibility: Double, offset: Int).self, capacity: children.count) { buffer in
            var count = 0
            for offset in 0..<children.count {
                let child = tree.children[children.lowerBound + offset]
                if isSpacer(child) {
                    reserved += along(size(tree, child, offer(0), axis: axis))
                    spacers += 1
                } else {
                    buffer.initializeElement(at: count, to: (0, offset))
                    count += 1
                }
            }
            var order = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
            // The least flexible first; with one child besides spacers, there is no order to find.
            if count > 1 {
                for position in 0..<count {
                    let child = tree.children[children.lowerBound + order[position].offset]
                    order[position].flexibility = along(size(tree, child, offer(.infinity), axis: axis)) - along(size(tree, child, offer(0), axis: axis))
                }
                order.sort { ($0.flexibility, $0.offset) < ($1.flexibility, $1.offset) }
            }
            var remaining = max(0, total - gaps - reserved)
            for position in 0..<count {
                let offset = order[position].offset
                let share = metrics.snap(remaining / Double(count - position))
                let chosen = size(tree, tree.children[children.lowerBound + offset], offer(share), axis: axis)
                tree.stacked[start + offset] = chosen
                remaining = max(0, remaining - along(chosen))
            }
            remaining += reserved
            var position = 0
            for offset in 0..<children.count where spacers > 0 {
                let child = tree.children[children.lowerBound + offset]
                guard isSpacer(child) else { continue }
                let share = metrics.snap(remaining / Double(spacers - position))
                let chosen = size(tree, child, offer(share), axis: axis)
                tree.stacked[start + offset] = chosen
                remaining = max(0, remaining - along(chosen))
                position += 1
            }
            order.deinitialize()
        }
    }

    /// Text broken into lines at `proposal.width` (by words, a word longer than a line by
    /// characters), then cut to `lineLimit` and to the lines `proposal.height` holds, the last line
    /// ending in "…" when anything was cut.
    func wrap(_ run: TextRun, _ proposal: Proposal) -> [String] {
        let (text, style) = (run.text, run.style)
        let (width, hasNewline) = oneLine(run)
        // Most text fits on its one line: no breaking, no cutting.
        if !hasNewline, proposal.height.map({ $0 >= run.lineHeight }) ?? true,
            proposal.width.map({ !$0.isFinite || width <= $0 }) ?? true
        {
            return [text]
        }
        let limit = lineCount(run, proposal)
        // Lines past the limit are cut: breaking stops one after it, enough to tell.
        let maximum = limit == .max ? .max : limit + 1
        let key = proposal.width ?? .infinity
        let lines: [String]
        // Lines broken before at this width, up to as many or more, serve: their first lines are these.
        if let known = run.lines.first(where: { $0.width == key && ($0.maximum >= maximum || $0.lines.count < $0.maximum) }) {
            lines = known.lines.count > maximum ? Array(known.lines.prefix(maximum)) : known.lines
        } else {
            var quick: [String]?
            if !hasNewline, let width = proposal.width, width.isFinite { quick = wordLines(run, width: width, maximum: maximum) }
            lines = quick ?? breakLines(text, style, hasNewline: hasNewline, width: proposal.width, maximum: maximum)
            run.lines.append((key, maximum, lines))
        }
        return limited(lines, style, limit: limit, proposal)
    }

    /// The size `wrap` gives text, worked out from its words' widths without making its lines: the
    /// same greedy breaking, by numbers (only a cut line whose ellipsis does not fit beside it is
    /// made, to cut it by characters). Nil where `wrap` must make the lines: widths that do not add
    /// up, line breaks, a word wider than the line (broken by characters).
    func wordSize(_ run: TextRun, _ proposal: Proposal) -> Size? {
        let (oneLineWidth, hasNewline) = oneLine(run)
        guard !hasNewline else { return nil }
        let lineHeight = run.lineHeight
        guard let width = proposal.width, width.isFinite else {
            // Unbroken: one line, which any limit keeps.
            return Size(width: oneLineWidth, height: lineHeight)
        }
        if proposal.height.map({ $0 >= lineHeight }) ?? true, oneLineWidth <= width { return Size(width: oneLineWidth, height: lineHeight) }
        guard let widths = wordWidths(run) else { return nil }
        let limit = lineCount(run, proposal)
        // Lines up to one past the limit (enough to tell whether it was cut).
        var count = 0
        var widest = 0.0
        /// The widest of the lines before the last kept; the last kept's width and words.
        var widestBefore = 0.0
        var lastKept = (width: 0.0, words: 0..<0)
        let unbroken = forEachLine(widths, space: run.space, width: width) { words, lineWidth in
            count += 1
            guard count <= limit else { return false }
            widestBefore = widest
            widest = max(widest, lineWidth)
            lastKept = (lineWidth, words)
            return true
        }
        guard unbroken else { return nil }
        guard count > limit else { return Size(width: widest, height: Double(count) * lineHeight) }
        // Cut: the last kept line ends in "…", beside it or, where it does not fit, after as many of
        // its characters as do (none, where the ellipsis alone is too wide).
        let ellipsis = metrics.width(of: "…", style: run.style)
        let cut: Double
        if lastKept.width + ellipsis <= width {
            cut = lastKept.width + ellipsis
        } else if width < ellipsis {
            cut = ellipsis
        } else {
            let words = run.text.split(separator: " ", omittingEmptySubsequences: false)[lastKept.words]
            cut = metrics.width(of: truncated(words.joined(separator: " "), run.style, to: width), style: run.style)
        }
        return Size(width: max(widestBefore, cut), height: Double(limit) * lineHeight)
    }

    /// A text's words' widths, measured once (nil where they do not add up).
    func wordWidths(_ run: TextRun) -> [Double]? {
        if !run.isMeasured {
            run.isMeasured = true
            run.words = metrics.wordWidths(of: run.text, style: run.style)
            if run.words != nil { run.space = metrics.width(of: " ", style: run.style) }
        }
        return run.words
    }

    /// Words of `widths` filled greedily into lines no wider than `width`, as `breakLines` fills
    /// them: `line` gets each line's words and width, until it returns false. False where a word
    /// is wider than a line, which `breakLines` breaks by characters.
    func forEachLine(_ widths: [Double], space: Double, width: Double, _ line: (Range<Int>, Double) -> Bool) -> Bool {
        var lineWidth = 0.0
        var lineStart = 0
        var started = false
        for (index, wordWidth) in widths.enumerated() {
            if !started, wordWidth <= width {
                (lineWidth, lineStart, started) = (wordWidth, index, true)
                continue
            }
            if started, lineWidth + space + wordWidth <= width {
                lineWidth += space + wordWidth
                continue
            }
            if started, !line(lineStart..<index, lineWidth) { return true }
            (lineWidth, lineStart, started) = (wordWidth, index, true)
            if wordWidth > width, width > 0 { return false }
        }
        _ = line(lineStart..<widths.count, lineWidth)
        return true
    }

    /// A text's lines at `width`, up to `maximum`, cut out of it between words: what `breakLines`
    /// makes, without measuring any word again. Nil where `breakLines` must break by characters.
    func wordLines(_ run: TextRun, width: Double, maximum: Int) -> [String]? {
        guard let widths = wordWidths(run) else { return nil }
        let text = run.text
        // Where words have widths, each scalar is a character: split at the space's byte, not by
        // characters (the same words, without finding character boundaries).
        let words = text.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard words.count == widths.count else { return nil }
        var lines: [String] = []
        let unbroken = forEachLine(widths, space: run.space, width: width) { range, _ in
            lines.append(String(text[words[range.lowerBound].startIndex..<words[range.upperBound - 1].endIndex]))
            return lines.count < maximum
        }
        return unbroken ? lines : nil
    }

    /// A text's width on one line and whether it has line breaks, measured once.
    func oneLine(_ run: TextRun) -> (width: Double, hasNewline: Bool) {
        if let known = run.oneLine { return known }
        let newline = UInt8(ascii: "\n")
        let hasNewline =
            run.text.utf8.withContiguousStorageIfAvailable { bytes in bytes.baseAddress.map { memchr($0, Int32(newline), bytes.count) != nil } ?? false }
            ?? run.text.utf8.contains(newline)
        let measured = (metrics.width(of: run.text, style: run.style), hasNewline)
        run.oneLine = measured
        return measured
    }

    /// How many lines a text may take: its `lineLimit`, and what the proposed height holds.
    func lineCount(_ run: TextRun, _ proposal: Proposal) -> Int {
        var limit = run.lineLimit.map { max(1, $0) } ?? Int.max
        if let height = proposal.height, height.isFinite {
            limit = min(limit, max(1, Int((height / run.lineHeight).rounded(.down))))
        }
        return limit
    }

    /// Text broken into lines at `width` (nil: only at newlines).
    func breakLines(_ text: String, _ style: TextStyle, hasNewline: Bool, width proposed: Double?, maximum: Int = .max) -> [String] {
        var lines: [String] = []
        let space = metrics.width(of: " ", style: style)
        for paragraph in hasNewline ? text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [text] {
            if lines.count >= maximum { break }
            guard let width = proposed, width.isFinite else {
                lines.append(paragraph)
                continue
            }
            // Each word measured once; lines filled greedily by adding widths.
            var line = ""
            var lineWidth = 0.0
            var started = false
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let wordWidth = metrics.width(of: String(word), style: style)
                if !started, wordWidth <= width {
                    line = String(word)
                    lineWidth = wordWidth
                    started = true
                    continue
                }
                if started, lineWidth + space + wordWidth <= width {
                    line += " " + word
                    lineWidth += space + wordWidth
                    continue
                }
                if started { lines.append(line) }
                if lines.count >= maximum { return lines }
                started = true
                line = String(word)
                lineWidth = wordWidth
                // A word wider than the line is broken by characters.
                while lineWidth > width, width > 0 {
                    var head = ""
                    var headWidth = 0.0
                    for character in line {
                        let characterWidth = metrics.width(of: String(character), style: style)
                        if headWidth + characterWidth > width { break }
                        head.append(character)
                        headWidth += characterWidth
                    }
                    if head.isEmpty { break }
                    lines.append(head)
                    if lines.count >= maximum { return lines }
                    line = String(line.dropFirst(head.count))
                    lineWidth = metrics.width(of: line, style: style)
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// Lines cut to `limit` (the text's `lineCount`), the last ending in "…".
    func limited(_ lines: [String], _ style: TextStyle, limit: Int, _ proposal: Proposal) -> [String] {
        guard lines.count > limit else { return lines }
        var kept = Array(lines.prefix(limit))
        kept[kept.count - 1] = truncated(kept[kept.count - 1], style, to: proposal.width)
        return kept
    }

    /// `line` cut to `width`, ending in "…": as many of its characters as fit with the ellipsis,
    /// each measured once.
    func truncated(_ line: String, _ style: TextStyle, to width: Double?) -> String {
        guard let width, width.isFinite else { return line + "…" }
        let ellipsis = metrics.width(of: "…", style: style)
        if metrics.width(of: line, style: style) + ellipsis <= width { return line + "…" }
        var kept = ""
        var used = 0.0
        for character in line {
            let characterWidth = metrics.width(of: String(character), style: style)
            if used + characterWidth + ellipsis > width { break }
            kept.append(character)
            used += characterWidth
        }
        return kept + "…"
    }

    // MARK: Placing

    func place(_ tree: Tree, _ node: Int, _ rect: LayoutRect, axis: Axis?, into elements: inout [PlacedElement]) {
        switch tree.kinds[node] {
        case .text(let index):
            let run = tree.texts[index]
            let style = run.style
            let lines = wrap(run, Proposal(width: rect.width, height: rect.height))
            let height = metrics.lineHeight(style)
            // Text on its one line was measured when it was sized.
            let whole = lines.count == 1 && lines[0] == run.text ? oneLine(run).width : nil
            for (index, line) in lines.enumerated() {
                let width = min(rect.width, whole ?? metrics.width(of: line, style: style))
                let x: Double
                switch style.alignment {
                case "center": x = rect.x + metrics.snap((rect.width - width) / 2)
                case "trailing": x = rect.x + rect.width - width
                default: x = rect.x
                }
                elements.append(
                    PlacedElement(
                        rect: LayoutRect(x: x, y: rect.y + Double(index) * height, width: width, height: height),
                        content: .text(line, style)))
            }
        case .spacer:
            break
        case .divider:
            elements.append(PlacedElement(rect: rect, content: .rule(horizontal: axis != .horizontal)))
        case .padding(let top, let leading, let bottom, let trailing, let content):
            place(
                tree, content,
                LayoutRect(
                    x: rect.x + leading, y: rect.y + top, width: max(0, rect.width - leading - trailing),
                    height: max(0, rect.height - top - bottom)),
                axis: axis, into: &elements)
        case .zstack(let alignment, let children):
            for position in children {
                let child = tree.children[position]
                let size = self.size(tree, child, Proposal(width: rect.width, height: rect.height), axis: nil)
                place(tree, child, aligned(size, in: rect, alignment), axis: nil, into: &elements)
            }
        case .bar(let fraction, let style):
            var tint = "accent"
            if case .color(let color) = drawn(.color("accent"), tree.styles[style]) { tint = color }
            elements.append(PlacedElement(rect: rect, content: .bar(fraction, tint: tint)))
        case .background(let paint, let content):
            let paint = tree.paints[paint]
            if !paint.isClear { elements.append(PlacedElement(rect: rect, content: .fill(paint, .rectangle))) }
            place(tree, content, rect, axis: axis, into: &elements)
        case .behind(let alignment, let content, let background):
            let size = self.size(tree, background, Proposal(width: rect.width, height: rect.height), axis: nil)
            place(tree, background, aligned(size, in: rect, alignment), axis: nil, into: &elements)
            place(tree, content, rect, axis: axis, into: &elements)
        case .shape(let shape, let paint):
            let paint = tree.paints[paint]
            if !paint.isClear { elements.append(PlacedElement(rect: rect, content: .fill(paint, tree.shapes[shape]))) }
        case .fits(let horizontal, let vertical, let children):
            if let chosen = fitting(tree, children, horizontal: horizontal, vertical: vertical, Proposal(width: rect.width, height: rect.height)) {
                place(tree, chosen, rect, axis: axis, into: &elements)
            }
        case .frame(let frame, let content):
            let frame = tree.frames[frame]
            let inner = frameSize(tree, frame, content, Proposal(width: rect.width, height: rect.height), axis: axis).inner
            place(tree, content, aligned(inner, in: rect, frame.alignment), axis: axis, into: &elements)
        case .stack(let stackAxis, let alignment, let spacing, let children):
            let start = stackSizes(tree, node, stackAxis, spacing: spacing, children, Proposal(width: rect.width, height: rect.height))
            let gap = children.count > 1 ? gapLength(stackAxis, spacing, count: 2) : 0
            var cursor = stackAxis == .vertical ? rect.y : rect.x
            for offset in 0..<children.count {
                let size = tree.stacked[start + offset]
                // Along the axis at the cursor; across it by the stack's alignment.
                let slot =
                    stackAxis == .vertical
                    ? LayoutRect(x: rect.x, y: cursor, width: rect.width, height: size.height)
                    : LayoutRect(x: cursor, y: rect.y, width: size.width, height: rect.height)
                let childRect = aligned(size, in: slot, alignment)
                cursor += (stackAxis == .vertical ? size.height : size.width) + gap
                place(tree, tree.children[children.lowerBound + offset], childRect, axis: stackAxis, into: &elements)
            }
        }
    }

    /// How full a progress view or gauge is at `now`, 0 to 1; nil for an indeterminate one.
    static func fraction(of view: ViewNode, now: Date) -> Double? {
        func clamped(_ value: Double) -> Double { value.isFinite ? min(1, max(0, value)) : 0 }
        if view.view == "gauge", let value = view["value"]?.numberValue, let low = view["min"]?.numberValue,
            let high = view["max"]?.numberValue, high > low
        {
            return clamped((value - low) / (high - low))
        }
        if let interval = view["timerInterval"]?.arrayValue?.compactMap(\.numberValue), interval.count == 2, interval[1] > interval[0] {
            let passed = clamped((now.timeIntervalSince1970 - interval[0]) / (interval[1] - interval[0]))
            return view["countsDown"]?.boolValue == false ? passed : 1 - passed
        }
        guard let value = view["value"]?.numberValue else { return nil }
        let total = view["total"]?.numberValue ?? 1
        return total > 0 ? clamped(value / total) : 0
    }

    /// Where a view goes in the space it is given, along each axis: read once from an alignment
    /// name (`topLeading`, `bottom`...; centre when there is none), not at every placing.
    struct Alignment {
        enum Place { case start, center, end }
        var horizontal: Place
        var vertical: Place

        static let center = Alignment(horizontal: .center, vertical: .center)
        static let leading = Alignment(horizontal: .start, vertical: .center)

        init(horizontal: Place, vertical: Place) {
            self.horizontal = horizontal
            self.vertical = vertical
        }

        init(_ name: String?) {
            guard let name, name != "center" else {
                self = .center
                return
            }
            // Letters of any case (`topLeading`, `TOPLEADING`), compared without making a copy.
            func same(_ part: Substring.UTF8View, _ word: String) -> Bool {
                part.count == word.utf8.count && zip(part, word.utf8).allSatisfy { $0 | 0x20 == $1 }
            }
            let bytes = Substring(name).utf8
            func ends(_ word: String) -> Bool { same(bytes.suffix(word.utf8.count), word) }
            func starts(_ word: String) -> Bool { same(bytes.prefix(word.utf8.count), word) }
            horizontal = ends("leading") ? .start : ends("trailing") ? .end : .center
            vertical = starts("top") ? .start : starts("bottom") ? .end : .center
        }
    }

    /// `size` placed in `rect` by `alignment`.
    func aligned(_ size: Size, in rect: LayoutRect, _ alignment: Alignment) -> LayoutRect {
        func start(_ place: Alignment.Place, _ start: Double, _ room: Double, _ length: Double) -> Double {
            switch place {
            case .start: start
            case .center: start + metrics.snap((room - length) / 2)
            case .end: start + room - length
            }
        }
        return LayoutRect(
            x: start(alignment.horizontal, rect.x, rect.width, size.width), y: start(alignment.vertical, rect.y, rect.height, size.height),
            width: size.width, height: size.height)
    }

}

extension Double {
    var trimmed: String { isFinite && self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

/// The SF Symbols the host draws, as glyphs any terminal font has; docs/RENDERING.md lists them.
public enum SymbolGlyphs {
    public static let table: [String: String] = [
        "star": "☆", "star.fill": "★", "heart": "♡", "heart.fill": "♥", "circle": "○", "circle.fill": "●",
        "square": "□", "square.fill": "■", "checkmark": "✓", "checkmark.circle.fill": "✔", "xmark": "✗", "xmark.circle.fill": "✘",
        "sun.max": "☼", "sun.max.fill": "☀", "moon": "☾", "moon.fill": "☾", "cloud": "☁", "cloud.fill": "☁",
        "cloud.rain": "☂", "cloud.rain.fill": "☂", "snowflake": "❄", "bolt": "ϟ", "bolt.fill": "ϟ", "flame": "♨", "flame.fill": "♨",
        "drop": "◌", "drop.fill": "●", "leaf": "❦", "clock": "◷", "alarm": "◷", "calendar": "▦", "bell": "♪", "bell.fill": "♪",
        "music.note": "♪", "arrow.up": "↑", "arrow.down": "↓", "arrow.left": "←", "arrow.right": "→",
        "arrow.up.right": "↗", "arrow.down.right": "↘", "chevron.right": "›", "chevron.left": "‹", "plus": "+", "minus": "−",
        "info.circle": "ⓘ", "exclamationmark.triangle": "⚠", "exclamationmark.triangle.fill": "⚠", "person": "☺", "person.fill": "☻",
        "house": "⌂", "house.fill": "⌂", "gearshape": "⚙", "gearshape.fill": "⚙", "cpu": "▣", "memorychip": "▤",
        "battery.100": "▮", "battery.50": "▯", "battery.0": "▯", "wifi": "≋", "location": "⌖", "location.fill": "⌖",
        "bitcoinsign.circle": "₿", "bitcoinsign.circle.fill": "₿", "dollarsign.circle": "$", "chart.line.uptrend.xyaxis": "↗",
    ]

    /// The glyph for a symbol name; a hollow square for names outside the set.
    public static func glyph(_ name: String) -> String { table[name] ?? "□" }
}
