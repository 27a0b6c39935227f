import FoundationEssentials
import WidgetWire

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
    /// The widget's content margins, in points on every edge: the content is laid out inside them
    /// (`WidgetFamily.contentMargin`, or 0 for a widget that disables them).
    public let contentMargin: Double
    /// Texts that change as time passes carry their parts (`TextStyle.live`), and intent controls
    /// are marked (`PlacedElement.Content.control`): for a drawing that ticks and is tapped on its
    /// own (the web page). Off by default: other drawings need neither.
    public var marksLiveParts = false

    public init(
        metrics: any LayoutMetrics, now: Date = Date(), dates: DateText = DateText(), environment: RenderingEnvironment = RenderingEnvironment(),
        isLocked: Bool = false, isInvalidated: Bool = false, contentMargin: Double = 0
    ) {
        self.metrics = metrics
        self.now = now
        self.dates = dates
        self.environment = environment
        self.isLocked = isLocked
        self.isInvalidated = isInvalidated
        self.contentMargin = max(0, contentMargin.isFinite ? contentMargin : 0)
    }

    /// The widget's container background as drawn: none where the environment hides it (the Lock
    /// Screen) or the system replaces it (accented mode), or for the clear colour.
    public func containerBackground(of root: ViewNode) -> Paint? {
        guard environment.showsContainerBackground, environment.renderingMode == .fullColor,
            let paint = root.modifier("containerBackground").flatMap(Paint.init), !paint.isClear
        else { return nil }
        return paint
    }

    /// Lays out `root` in a widget of `size`, inside its content margins, centred as a widget's
    /// content is.
    public func place(_ root: ViewNode, in size: (width: Double, height: Double)) -> [PlacedElement] {
        var style = TextStyle()
        if root.modifier("redacted")?.stringValue == "placeholder" { style.redacted = true }
        let tree = Tree.pool.take()
        defer { Tree.pool.give(tree) }
        let node = prepare(root, inherited: style, into: tree)
        tree.makeMemos()
        let (across, down) = (metrics.snap(metrics.horizontal(contentMargin)), metrics.snap(metrics.vertical(contentMargin)))
        let inner = (width: max(0, size.width - 2 * across), height: max(0, size.height - 2 * down))
        let chosen = self.size(tree, node, Proposal(width: inner.width, height: inner.height), axis: nil)
        var elements: [PlacedElement] = []
        elements.reserveCapacity(tree.kinds.count)
        let rect = LayoutRect(
            x: across + metrics.snap((inner.width - chosen.width) / 2), y: down + metrics.snap((inner.height - chosen.height) / 2),
            width: chosen.width, height: chosen.height)
        place(tree, node, rect, axis: nil, offered: Proposal(width: inner.width, height: inner.height), into: &elements)
        return elements
    }
}
