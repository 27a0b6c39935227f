import FoundationEssentials
import WidgetWire

extension Layout {
    // MARK: Placing

    /// `offered`: the proposal the node was sized for, where its parent knows it (a stack's child;
    /// forwarded through the wrappers that do not change it); else its rect is its proposal.
    func place(_ tree: Tree, _ node: Int, _ rect: LayoutRect, axis: Axis?, offered: Proposal? = nil, into elements: inout [PlacedElement]) {
        switch tree.kinds[node] {
        case .text(let index):
            let run = placed(tree.texts[index], in: rect)
            var style = run.style
            let lines = wrap(run, Proposal(width: rect.width, height: rect.height))
            // A live text wrapped or cut is drawn as it is now: its parts make one whole line.
            if style.live != nil, lines.count != 1 || lines[0] != run.text { style.live = nil }
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
            let inner = offered.map {
                Proposal(width: $0.width.map { max(0, $0 - leading - trailing) }, height: $0.height.map { max(0, $0 - top - bottom) })
            }
            place(
                tree, content,
                LayoutRect(
                    x: rect.x + leading, y: rect.y + top, width: max(0, rect.width - leading - trailing),
                    height: max(0, rect.height - top - bottom)),
                axis: axis, offered: inner, into: &elements)
        case .zstack(let alignment, let children):
            for position in children {
                let child = tree.children[position]
                let size = self.size(tree, child, Proposal(width: rect.width, height: rect.height), axis: nil)
                place(tree, child, aligned(size, in: rect, alignment), axis: nil, into: &elements)
            }
        case .bar(let fraction, let style):
            elements.append(
                PlacedElement(
                    rect: rect,
                    content: .bar(
                        fraction, tint: tree.tints[style] ?? "accent", live: tree.styles[style].live,
                        marker: tree.styles[style].indicatorStyle == "accessoryLinear")))
        case .background(let paint, let content):
            let paint = tree.paints[paint]
            if !paint.isClear { elements.append(PlacedElement(rect: rect, content: .fill(paint, .rectangle))) }
            place(tree, content, rect, axis: axis, offered: offered, into: &elements)
        case .behind(let alignment, let content, let background):
            let size = self.size(tree, background, Proposal(width: rect.width, height: rect.height), axis: nil)
            place(tree, background, aligned(size, in: rect, alignment), axis: nil, into: &elements)
            place(tree, content, rect, axis: axis, offered: offered, into: &elements)
        case .shape(let shape, let paint):
            let paint = tree.paints[paint]
            if !paint.isClear { elements.append(PlacedElement(rect: rect, content: .fill(paint, tree.shapes[shape]))) }
            if let stroke = tree.strokes[shape], !stroke.paint.isClear, stroke.lineWidth > 0 {
                elements.append(PlacedElement(rect: rect, content: .stroke(stroke, tree.shapes[shape])))
            }
        case .inFront(let alignment, let content, let overlay):
            place(tree, content, rect, axis: axis, offered: offered, into: &elements)
            let size = self.size(tree, overlay, Proposal(width: rect.width, height: rect.height), axis: nil)
            place(tree, overlay, aligned(size, in: rect, alignment), axis: nil, into: &elements)
        case .fixed(let horizontal, let vertical, let content):
            let proposal = fixedProposal(Proposal(width: rect.width, height: rect.height), horizontal: horizontal, vertical: vertical)
            let size = self.size(tree, content, proposal, axis: axis)
            place(tree, content, aligned(size, in: rect, .center), axis: axis, into: &elements)
        case .aspect(let ratio, let fill, let content):
            let proposal = aspectProposal(tree, content, ratio: ratio, fill: fill, Proposal(width: rect.width, height: rect.height))
            let size = self.size(tree, content, proposal, axis: axis)
            place(tree, content, aligned(size, in: rect, .center), axis: axis, into: &elements)
        case .offset(let x, let y, let content):
            place(tree, content, LayoutRect(x: rect.x + x, y: rect.y + y, width: rect.width, height: rect.height), axis: axis, into: &elements)
        case .hidden:
            break
        case .clip(let shape, let content):
            elements.append(PlacedElement(rect: rect, content: .clip(tree.shapes[shape])))
            place(tree, content, rect, axis: axis, offered: offered, into: &elements)
            elements.append(PlacedElement(rect: rect, content: .unclip))
        case .masked(let alignment, let content, let mask):
            elements.append(PlacedElement(rect: rect, content: .maskBegin))
            let size = self.size(tree, mask, Proposal(width: rect.width, height: rect.height), axis: nil)
            place(tree, mask, aligned(size, in: rect, alignment), axis: nil, into: &elements)
            elements.append(PlacedElement(rect: rect, content: .maskEnd))
            place(tree, content, rect, axis: axis, offered: offered, into: &elements)
            elements.append(PlacedElement(rect: rect, content: .endEffect))
        case .effect(let effect, let content):
            elements.append(PlacedElement(rect: rect, content: .effect(tree.effects[effect])))
            place(tree, content, rect, axis: axis, offered: offered, into: &elements)
            elements.append(PlacedElement(rect: rect, content: .endEffect))
        case .control(let number, let content):
            elements.append(PlacedElement(rect: rect, content: .control(number)))
            place(tree, content, rect, axis: axis, offered: offered, into: &elements)
            elements.append(PlacedElement(rect: rect, content: .endControl))
        case .picture(let index):
            elements.append(PlacedElement(rect: rect, content: .picture(tree.pictures[index])))
        case .glyph(let index):
            // The symbol as large as the space holds (in points; a terminal draws it in one cell).
            var run = tree.texts[index]
            if metrics.scalesText {
                let own = oneLine(run).width
                // A symbol drawn as its shape fills the frame, as a resizable SF Symbol does
                // (its drawing is 1.1 times its font's size); a glyph, as its text's line.
                let box = run.style.symbol.flatMap(SymbolShapes.bounds)
                let scale =
                    box.map { box in
                        let side = SymbolShapes.drawnSide(run.style.symbol!, points: run.style.points)
                        return min(rect.height / max(1, box.height / 100 * side), rect.width / max(1, box.width / 100 * side))
                    }
                    ?? min(rect.height / max(1, run.lineHeight), own > 0 ? rect.width / own : 1)
                if scale.isFinite, scale > 0 {
                    let style = run.style.scaled(scale, allowingLarger: true)
                    run = TextRun(run.text, style, lineLimit: 1, lineHeight: metrics.lineHeight(style))
                }
            }
            let width = min(rect.width, metrics.width(of: run.text, style: run.style))
            let line = Size(width: width, height: min(rect.height, run.lineHeight))
            elements.append(PlacedElement(rect: aligned(line, in: rect, .center), content: .text(run.text, run.style)))
        case .ring(let fraction, let open, let style, let label):
            let side = ringSize(Proposal(width: rect.width, height: rect.height))
            let ring = aligned(side, in: rect, .center)
            let tint = tree.tints[style] ?? "accent"
            // An open ring leaves a quarter at the bottom: it runs from 135° to 405°.
            let span = open ? 0.75 : 1.0
            let rotation = open ? 135.0 : -90.0
            let width = max(2, (metrics.horizontal(1) > 0 ? side.width / metrics.horizontal(1) : side.width) * 0.09)
            elements.append(
                PlacedElement(
                    rect: ring,
                    content: .stroke(Stroke(paint: .color(SystemColors.fading(tint, by: 0.3)), lineWidth: width, inside: true, trim: 0...span, rotation: rotation), .circle)))
            if let fraction, fraction > 0 {
                elements.append(
                    PlacedElement(
                        rect: ring,
                        content: .stroke(Stroke(paint: .color(tint), lineWidth: width, inside: true, trim: 0...(span * fraction), rotation: rotation), .circle)))
            }
            if let label {
                // Inside the ring: its diameter less its line (in points) on each side and a little
                // air, in layout units (a terminal's cells).
                // (A terminal draws the ring a cell thick at the least: a cell in from each side.)
                var (across, down) = (metrics.snap(metrics.horizontal(width + 2)), metrics.snap(metrics.vertical(width + 2)))
                if !metrics.scalesText { (across, down) = (max(1, across), max(1, down)) }
                let inner = LayoutRect(
                    x: ring.x + across, y: ring.y + down, width: max(1, ring.width - 2 * across), height: max(1, ring.height - 2 * down))
                let size = self.size(tree, label, Proposal(width: inner.width, height: inner.height), axis: nil)
                place(tree, label, aligned(size, in: inner, .center), axis: nil, into: &elements)
            }
        case .fits(let horizontal, let vertical, let children):
            if let chosen = fitting(tree, children, horizontal: horizontal, vertical: vertical, Proposal(width: rect.width, height: rect.height)) {
                place(tree, chosen, rect, axis: axis, into: &elements)
            }
        case .frame(let frame, let content):
            let frame = tree.frames[frame]
            let inner = frameSize(tree, frame, content, Proposal(width: rect.width, height: rect.height), axis: axis).inner
            place(tree, content, aligned(inner, in: rect, frame.alignment), axis: axis, into: &elements)
        case .stack(let stackAxis, let alignment, let spacing, let children):
            // The distribution sizing made for the proposal it was sized for.
            let start = stackSizes(tree, node, stackAxis, spacing: spacing, children, offered ?? Proposal(width: rect.width, height: rect.height))
            var cursor = stackAxis == .vertical ? rect.y : rect.x
            for offset in 0..<children.count {
                let gap = offset + 1 < children.count
                    ? self.gap(tree, stackAxis, spacing, between: tree.children[children.lowerBound + offset], and: tree.children[children.lowerBound + offset + 1])
                    : 0
                let size = tree.stacked[start + offset]
                // Along the axis at the cursor; across it by the stack's alignment.
                let slot =
                    stackAxis == .vertical
                    ? LayoutRect(x: rect.x, y: cursor, width: rect.width, height: size.height)
                    : LayoutRect(x: cursor, y: rect.y, width: size.width, height: rect.height)
                let childRect = aligned(size, in: slot, alignment)
                cursor += (stackAxis == .vertical ? size.height : size.width) + gap
                place(tree, tree.children[children.lowerBound + offset], childRect, axis: stackAxis, offered: tree.stackedOffers[start + offset], into: &elements)
            }
        }
    }

    /// The text as `fitted` drew it for the proposal it was sized with, which `rect` is the answer
    /// to: the run it made for the width it took, found without measuring the text again. That is
    /// the least tightened run that fits (kept under negative keys), else the largest smaller one
    /// that fits, kept on the run, or on the tightened run where the text was tightened first; where
    /// none fits, the one at its minimum scale, which is then cut.
    func placed(_ run: TextRun, in rect: LayoutRect) -> TextRun {
        // As `fitted`: a text given room for more than one line is wrapped, not fitted.
        guard !run.scaled.isEmpty, oneLine(run).width > rect.width, lineCount(run, Proposal(width: rect.width, height: rect.height)) == 1 else { return run }
        let fits = { (made: TextRun) in self.oneLine(made).width <= rect.width + 0.001 }
        let tightened = run.scaled.filter { $0.scale < 0 }
        if let least = tightened.filter({ fits($0.run) }).max(by: { $0.scale < $1.scale }) { return least.run }
        let smaller = (run.scaled + tightened.flatMap(\.run.scaled)).filter { $0.scale > 0 }
        if let largest = smaller.filter({ fits($0.run) }).max(by: { $0.scale < $1.scale }) { return largest.run }
        // Too narrow for any: tightened as far as it goes (the lowest key), at the least scale.
        let base = tightened.min { $0.scale < $1.scale }?.run ?? run
        if let least = base.scaled.first(where: { $0.scale == run.style.minimumScale }) { return least.run }
        return fitted(run, Proposal(width: rect.width, height: rect.height))
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
