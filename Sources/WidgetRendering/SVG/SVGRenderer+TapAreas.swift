import FoundationEssentials
import WidgetWire

extension SVGRenderer {
    /// Where a tap on the drawing `render` makes reaches something other than the widget itself:
    /// each line of a `Link`'s text (not in `systemSmall`, where iOS makes the whole widget one
    /// target), and each intent control's frame, in points of the widget. Later areas lie over
    /// earlier ones, as they are drawn; a tap elsewhere is on the widget (its `widgetURL`).
    public func tapAreas(
        _ view: ViewNode, family: WidgetFamily, now: Date = Date(), dates: DateText = DateText(), contentMarginsDisabled: Bool = false
    ) -> [TapArea] {
        let layout = self.layout(family: family, now: now, dates: dates, contentMarginsDisabled: contentMarginsDisabled, interactive: true)
        let links = TapTargets(view).links
        var areas: [TapArea] = []
        for element in layout.place(view, in: family.displaySize) {
            switch element.content {
            case .control(let number):
                areas.append(TapArea(rect: element.rect, target: .control(number)))
            case .text where family != .systemSmall:
                if let url = element.link, let index = links.firstIndex(of: url) {
                    areas.append(TapArea(rect: element.rect, target: .link(index + 1)))
                }
            default:
                break
            }
        }
        return areas
    }
}

/// A part of a drawing a tap reaches (see `SVGRenderer.tapAreas`).
public struct TapArea: Equatable, Sendable {
    public enum Target: Equatable, Sendable {
        /// The Nth `Link` (from 1, in `TapTargets.links`' order).
        case link(Int)
        /// The Nth intent control (from 1, in `TapTargets.controls`' order).
        case control(Int)
    }

    public var rect: LayoutRect
    public var target: Target

    public init(rect: LayoutRect, target: Target) {
        self.rect = rect
        self.target = target
    }
}
