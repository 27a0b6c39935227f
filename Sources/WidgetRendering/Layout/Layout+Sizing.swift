import FoundationEssentials
import WidgetWire

extension Layout {
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
            return textSize(fitted(tree.texts[index], proposal), proposal)
        case .spacer(let minLength):
            // Without a length of its own, the platform's default spacing, as SwiftUI's: the stack
            // puts no space of its own beside a spacer (`gap`).
            let across = minLength.map(metrics.horizontal) ?? metrics.defaultSpacing.horizontal
            let down = minLength.map(metrics.vertical) ?? metrics.defaultSpacing.vertical
            switch axis {
            case .horizontal: return Size(width: max(across, proposal.width ?? 0), height: 0)
            case .vertical, nil: return Size(width: 0, height: max(down, proposal.height ?? 0))
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
        case .background(_, let content), .behind(_, let content, _), .inFront(_, let content, _), .masked(_, let content, _), .offset(_, _, let content),
            .hidden(let content), .clip(_, let content), .control(_, let content), .effect(_, let content):
            return size(tree, content, proposal, axis: axis)
        case .fixed(let horizontal, let vertical, let content):
            return size(tree, content, fixedProposal(proposal, horizontal: horizontal, vertical: vertical), axis: axis)
        case .aspect(let ratio, let fill, let content):
            return size(tree, content, aspectProposal(tree, content, ratio: ratio, fill: fill, proposal), axis: axis)
        case .picture(let index):
            let picture = tree.pictures[index]
            let own = Size(
                width: max(1, metrics.snap(metrics.horizontal(picture.width))), height: max(1, metrics.snap(metrics.vertical(picture.height))))
            guard picture.resizable else { return own }
            return Size(width: proposal.width.flatMap { $0.isFinite ? $0 : nil } ?? own.width, height: proposal.height.flatMap { $0.isFinite ? $0 : nil } ?? own.height)
        case .glyph(let index):
            // A resizable symbol takes what it is offered; asked for its ideal size, its glyph's.
            let own = textSize(tree.texts[index], Proposal(width: nil, height: nil))
            return Size(width: proposal.width.flatMap { $0.isFinite ? $0 : nil } ?? own.width, height: proposal.height.flatMap { $0.isFinite ? $0 : nil } ?? own.height)
        case .ring:
            return ringSize(proposal)
        case .shape:
            // All it is offered, however much (so a stack sizes it after its text, as the most
            // flexible); asked for its ideal size, SwiftUI's 10 points.
            return Size(
                width: proposal.width ?? max(1, metrics.snap(metrics.horizontal(10))),
                height: proposal.height ?? max(1, metrics.snap(metrics.vertical(10))))
        case .fits(let horizontal, let vertical, let children):
            guard let chosen = fitting(tree, children, horizontal: horizontal, vertical: vertical, proposal) else { return Size(width: 0, height: 0) }
            return size(tree, chosen, proposal, axis: axis)
        case .bar(_, let style):
            // As wide as offered (a default width when asked for its ideal), one bar high: as iOS
            // draws them, a linear capacity gauge a 16-point capsule, an accessory linear capacity
            // one 6, an accessory linear one a track under an 8-point dot; a progress view 4.
            let width = proposal.width.flatMap { $0.isFinite ? $0 : nil } ?? metrics.snap(metrics.horizontal(100))
            let points: Double? =
                switch tree.styles[style].indicatorStyle {
                case "linearCapacity": 16
                case "accessoryLinearCapacity": 6
                case "accessoryLinear": 8
                default: nil
                }
            return Size(width: width, height: points.map { max(metrics.barThickness, metrics.snap(metrics.vertical($0))) } ?? metrics.barThickness)
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
            along += gapLength(tree, stackAxis, spacing, children)
            return stackAxis == .vertical ? Size(width: across, height: along) : Size(width: along, height: across)
        }
    }

    /// The proposal `fixedSize` makes its content: none along the fixed axes (its ideal size there).
    func fixedProposal(_ proposal: Proposal, horizontal: Bool, vertical: Bool) -> Proposal {
        Proposal(width: horizontal ? nil : proposal.width, height: vertical ? nil : proposal.height)
    }

    /// The proposal `aspectRatio` makes its content: the largest size of the ratio inside the offer
    /// (`fit`), or the smallest that covers it (`fill`). With no ratio given, the content's ideal
    /// size's. A ratio is of points; terminal cells are not square, so it is converted to units.
    func aspectProposal(_ tree: Tree, _ content: Int, ratio: Double?, fill: Bool, _ proposal: Proposal) -> Proposal {
        let unitRatio: Double
        if let ratio {
            unitRatio = ratio * metrics.horizontal(1) / metrics.vertical(1)
        } else {
            let ideal = size(tree, content, Proposal(width: nil, height: nil), axis: nil)
            guard ideal.width > 0, ideal.height > 0 else { return proposal }
            unitRatio = ideal.width / ideal.height
        }
        let width = proposal.width.flatMap { $0.isFinite ? $0 : nil }
        let height = proposal.height.flatMap { $0.isFinite ? $0 : nil }
        switch (width, height) {
        case let (width?, height?):
            let wide = width / height > unitRatio
            // Fit: the offer's shorter side sets the size; fill: the longer one.
            if wide != fill { return Proposal(width: metrics.snap(height * unitRatio), height: height) }
            return Proposal(width: width, height: metrics.snap(width / unitRatio))
        case let (width?, nil): return Proposal(width: width, height: metrics.snap(width / unitRatio))
        case let (nil, height?): return Proposal(width: metrics.snap(height * unitRatio), height: height)
        case (nil, nil):
            let ideal = size(tree, content, Proposal(width: nil, height: nil), axis: nil)
            return Proposal(width: ideal.width, height: metrics.snap(ideal.width / unitRatio))
        }
    }

    /// A ring's size: round, as large as the offer holds; 58 points across asked for its ideal.
    func ringSize(_ proposal: Proposal) -> Size {
        func points(_ units: Double?, _ perPoint: Double) -> Double? { units.flatMap { $0.isFinite ? $0 / perPoint : nil } }
        let across = [points(proposal.width, metrics.horizontal(1)), points(proposal.height, metrics.vertical(1))].compactMap { $0 }.min() ?? 58
        return Size(width: max(1, metrics.snap(metrics.horizontal(across))), height: max(1, metrics.snap(metrics.vertical(across))))
    }

    /// The text as drawn for a proposal, where it would not fit its one line: its characters set
    /// closer, by at most 5% of its size each, where it allows tightening (as SwiftUI tightens
    /// before it truncates); then smaller, down to its `minimumScaleFactor`, where the metrics can
    /// draw it smaller.
    func fitted(_ run: TextRun, _ proposal: Proposal) -> TextRun {
        let tightens = run.style.allowsTightening
        guard run.style.minimumScale < 1 || tightens, metrics.scalesText, let width = proposal.width, width.isFinite, width > 0 else { return run }
        let (oneWidth, hasNewline) = oneLine(run)
        guard !hasNewline, oneWidth > width, lineCount(run, proposal) == 1 else { return run }
        var base = run
        var baseWidth = oneWidth
        if tightens {
            // A hundredth of a point more than the overrun per character, at most 5% of the size;
            // kept under a key no scale has (negative).
            let needed = min(run.style.points * 0.05, ((oneWidth - width) / Double(max(1, run.text.count)) * 100).rounded(.up) / 100 + 0.01)
            let key = -1 - needed
            let tight: TextRun
            if let known = run.scaled.first(where: { $0.scale == key }) {
                tight = known.run
            } else {
                var style = run.style
                style.tracking -= needed
                tight = TextRun(run.text, style, lineLimit: run.lineLimit, lineHeight: run.lineHeight)
                run.scaled.append((key, tight))
            }
            baseWidth = oneLine(tight).width
            if run.style.minimumScale >= 1 || baseWidth <= width { return tight }
            base = tight
        }
        // In hundredths, rounded down: close widths share one smaller run. Widths are not quite in
        // proportion to the size (a font's text cut, below 20 points, is wider than its display
        // cut): a hundredth less until it fits, or is as small as it may be.
        var scale = max(run.style.minimumScale, ((width / baseWidth) * 100).rounded(.down) / 100)
        // The width at the scale that fits, kept as the smaller run's line (measured here already).
        var fitting: Double?
        while scale > run.style.minimumScale {
            let measured = metrics.width(of: run.text, style: base.style.scaled(scale))
            if measured <= width {
                fitting = measured
                break
            }
            scale = max(run.style.minimumScale, (scale * 100 - 1).rounded() / 100)
        }
        if let known = base.scaled.first(where: { $0.scale == scale }) { return known.run }
        let style = base.style.scaled(scale)
        let smaller = TextRun(run.text, style, lineLimit: run.lineLimit, lineHeight: metrics.lineHeight(style))
        if let fitting { smaller.oneLine = (fitting, false) }
        base.scaled.append((scale, smaller))
        return smaller
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

    /// The least length a view takes along a stack's axis: a text's, across, an ellipsis (it may
    /// be cut to one) or its whole width if shorter, and one line down; anything else's, its size
    /// when offered one unit (offered nothing, a text would not break at all).
    func leastLength(_ tree: Tree, _ node: Int, _ least: Proposal, axis: Axis) -> Double {
        if case .text(let index) = tree.kinds[node] {
            let run = tree.texts[index]
            if axis == .vertical { return run.lineHeight }
            return min(oneLine(run).width, metrics.width(of: "…", style: run.style))
        }
        let size = self.size(tree, node, least, axis: axis)
        return axis == .vertical ? size.height : size.width
    }

    /// The space a stack puts between two adjacent children. Given, the stack's spacing; else as
    /// SwiftUI's default spacing depends on what the two are (`ViewSpacing`): none beside a
    /// `Spacer` (whose own least length keeps them apart), none between two texts one above the
    /// other (their lines stand a line apart, as a paragraph's do), and the platform's default
    /// between anything else.
    func gap(_ tree: Tree, _ axis: Axis, _ spacing: Double?, between first: Int, and second: Int) -> Double {
        if let spacing { return metrics.snap(axis == .vertical ? metrics.vertical(spacing) : metrics.horizontal(spacing)) }
        func isSpacer(_ node: Int) -> Bool { if case .spacer = tree.kinds[node] { true } else { false } }
        func isText(_ node: Int) -> Bool { if case .text = tree.kinds[node] { true } else { false } }
        if isSpacer(first) || isSpacer(second) { return 0 }
        if axis == .vertical, isText(first), isText(second) { return 0 }
        return axis == .vertical ? metrics.defaultSpacing.vertical : metrics.defaultSpacing.horizontal
    }

    /// The space between all of a stack's children.
    func gapLength(_ tree: Tree, _ axis: Axis, _ spacing: Double?, _ children: Range<Int>) -> Double {
        guard children.count > 1 else { return 0 }
        var total = 0.0
        for position in children.lowerBound..<(children.upperBound - 1) {
            total += gap(tree, axis, spacing, between: tree.children[position], and: tree.children[position + 1])
        }
        return total
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
        tree.stackedOffers.append(contentsOf: repeatElement(Proposal(width: nil, height: nil), count: children.count))
        stackSizes(tree, axis, spacing: spacing, children, proposal, into: start)
        tree.stackedAt.insert(node, key, start)
        return start
    }

    func stackSizes(_ tree: Tree, _ axis: Axis, spacing: Double?, _ children: Range<Int>, _ proposal: Proposal, into start: Int) {
        let gaps = gapLength(tree, axis, spacing, children)
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
                tree.stackedOffers[start + offset] = offer(nil)
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
            // A higher layout priority goes first, offered what is left less what the lower
            // priorities need at the least (`leastLength`).
            func priority(of offset: Int) -> Double { tree.priorities[tree.children[children.lowerBound + offset]] }
            let prioritized = (0..<count).contains { priority(of: order[$0].offset) != 0 }
            if prioritized {
                order.sort { (-priority(of: $0.offset), $0.flexibility, $0.offset) < (-priority(of: $1.offset), $1.flexibility, $1.offset) }
            }
            func priority(_ position: Int) -> Double { prioritized ? priority(of: order[position].offset) : 0 }
            var remaining = max(0, total - gaps - reserved)
            for position in 0..<count {
                let offset = order[position].offset
                var share = metrics.snap(remaining / Double(count - position))
                if prioritized {
                    let own = priority(position)
                    var same = 0
                    var lowerMinimum = 0.0
                    for later in position..<count {
                        if priority(later) == own {
                            same += 1
                        } else {
                            lowerMinimum += leastLength(tree, tree.children[children.lowerBound + order[later].offset], offer(1), axis: axis)
                        }
                    }
                    share = metrics.snap(max(0, remaining - lowerMinimum) / Double(same))
                }
                let chosen = size(tree, tree.children[children.lowerBound + offset], offer(share), axis: axis)
                tree.stacked[start + offset] = chosen
                tree.stackedOffers[start + offset] = offer(share)
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
                tree.stackedOffers[start + offset] = offer(share)
                remaining = max(0, remaining - along(chosen))
                position += 1
            }
            order.deinitialize()
        }
    }
}
