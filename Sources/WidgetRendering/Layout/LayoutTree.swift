import FoundationEssentials
import WidgetSupport
import WidgetWire

extension Layout {
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
    /// are `@exclusivity(unchecked)`, and cost no run-time exclusivity bookkeeping on every look.
    /// The benchmark shows it matters: a full dashboard frame (`BENCH_ONLY=frames`) took 3.4 ms
    /// with it and 4.5 ms without, alternated in one run. (The request path's lock-guarded state
    /// showed no difference either way, and is checked.)
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
            /// A view drawn in front of another, sized to it (`overlay { ... }`).
            case inFront(alignment: Alignment, Int, overlay: Int)
            /// `fixedSize`: the content at its ideal size along the axes given, whatever it is offered.
            case fixed(horizontal: Bool, vertical: Bool, Int)
            /// `aspectRatio`: the content at a width-to-height ratio (its own ideal one when nil),
            /// fitting inside what it is offered or filling it.
            case aspect(ratio: Double?, fill: Bool, Int)
            /// `offset`: the content drawn moved by this much, its place in the layout unmoved.
            case offset(x: Double, y: Double, Int)
            /// `hidden()`: the content's space, nothing drawn.
            case hidden(Int)
            /// `clipShape`, `clipped()`, `cornerRadius`: the content drawn only inside a shape of
            /// its bounds (its number in `shapes`).
            case clip(Int, Int)
            /// `mask { ... }`: the content drawn only where the mask, sized to it and aligned in it,
            /// is opaque.
            case masked(alignment: Alignment, Int, mask: Int)
            /// An effect drawn with the content (its number in `effects`), its frame unchanged.
            case effect(Int, Int)
            /// An intent control (`Button(intent:)`, `Toggle`): its number among the tree's controls
            /// in reading order (from 1, as `TapTargets.controls` counts them), and its content.
            case control(Int, Int)
            /// A picture (a `UIImage`): its number in `pictures`.
            case picture(Int)
            /// A symbol drawn to the size it is given (`Image(systemName:).resizable()`): its text.
            case glyph(Int)
            /// A circular gauge or progress view: its fraction (nil: indeterminate), whether the ring
            /// is open at the bottom (`accessoryCircular`), its style's number in `styles`, and the
            /// label in its middle.
            case ring(Double?, open: Bool, Int, label: Int?)
        }

        @exclusivity(unchecked) var kinds: [Kind] = []
        /// The children of every stack, z-stack and `ViewThatFits`, each one's together.
        @exclusivity(unchecked) var children: [Int] = []
        @exclusivity(unchecked) var texts: [TextRun] = []
        @exclusivity(unchecked) var paints: [Paint] = []
        @exclusivity(unchecked) var shapes: [ShapeKind] = []
        @exclusivity(unchecked) var frames: [Frame] = []
        @exclusivity(unchecked) var styles: [TextStyle] = []
        /// An indicator's tint (the accent colour as its style draws it), by its style's number:
        /// worked out once, when the tree is prepared, not at every placing.
        @exclusivity(unchecked) var tints: [Int: String] = [:]
        @exclusivity(unchecked) var pictures: [Picture] = []
        @exclusivity(unchecked) var effects: [VisualEffect] = []
        /// How many intent controls were met so far, in reading order.
        @exclusivity(unchecked) var controls = 0
        /// Shapes' strokes, by the shape's number in `shapes` (most shapes have none).
        @exclusivity(unchecked) var strokes: [Int: Stroke] = [:]
        /// Each node's `layoutPriority` (the outermost node of a view carries it), 0 by default.
        @exclusivity(unchecked) var priorities: [Double] = []
        /// The size each node chose for each proposal it got.
        @exclusivity(unchecked) var sizes = Memo<ProposalKey, Size>()
        /// For stacks: where in `stacked` their children's sizes for a proposal are (placing asks
        /// again for the proposal sizing asked about).
        @exclusivity(unchecked) var stackedAt = Memo<ProposalKey, Int>()
        @exclusivity(unchecked) var stacked: [Size] = []
        /// The proposal each of those sizes answered: placing a child, its stack hands it the
        /// proposal it was sized for, as SwiftUI does (a stack placed in its own size must not
        /// share that size out afresh).
        @exclusivity(unchecked) var stackedOffers: [Proposal] = []
        /// Each text's sizes (by its number in `texts`) for a width and the lines it may take.
        @exclusivity(unchecked) var textSizes = Memo<TextKey, Size>()

        func add(_ kind: Kind) -> Int {
            kinds.append(kind)
            priorities.append(0)
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
            private let lock = Lock()
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
            controls = 0
            children.removeAll(keepingCapacity: true)
            texts.removeAll(keepingCapacity: true)
            paints.removeAll(keepingCapacity: true)
            shapes.removeAll(keepingCapacity: true)
            frames.removeAll(keepingCapacity: true)
            styles.removeAll(keepingCapacity: true)
            pictures.removeAll(keepingCapacity: true)
            strokes.removeAll(keepingCapacity: true)
            priorities.removeAll(keepingCapacity: true)
            stacked.removeAll(keepingCapacity: true)
            stackedOffers.removeAll(keepingCapacity: true)
            effects.removeAll(keepingCapacity: true)
            tints.removeAll(keepingCapacity: true)
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
        /// The same text at smaller sizes (`minimumScaleFactor`), by scale, made when first needed.
        @exclusivity(unchecked) var scaled: [(scale: Double, run: TextRun)] = []

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
}
