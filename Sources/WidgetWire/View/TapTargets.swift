/// What a tap can reach in an entry's view tree, in reading order (depth first, a node before its
/// children): `widgetURL` modifiers, `Link`s, and intent controls (`Button(intent:)`, `Toggle`).
public struct TapTargets: Sendable, Equatable {
    public var widgetURLs: [String] = []
    /// Each `Link`'s destination.
    public var links: [String] = []
    /// Each intent control's intent, as its view recorded it (JSON text).
    public var controls: [String] = []

    public init(_ root: ViewNode) {
        Self.walk(root, widgetURL: { widgetURLs.append($0) }, link: { links.append($0) }, control: { controls.append($0.jsonText) })
    }

    /// Visits the tree's targets in reading order: each `widgetURL`, each `Link`'s destination and
    /// each intent control's intent.
    private static func walk(
        _ node: ViewNode, widgetURL: (String) -> Void, link: (String) -> Void, control: (JSONValue) -> Void
    ) {
        for modifier in node.modifiers where modifier.name == "widgetURL" {
            if let url = modifier.value.stringValue { widgetURL(url) }
        }
        switch node.view {
        case "link":
            if let url = node["url"]?.stringValue { link(url) }
        case "button", "toggle":
            if let intent = node["intent"] { control(intent) }
        default:
            break
        }
        for child in node.children { walk(child, widgetURL: widgetURL, link: link, control: control) }
    }

    /// The URL a tap on the widget itself opens. Apple leaves several `widgetURL`s undefined; here the
    /// first in reading order wins (the outermost, for modifiers on nested views), always.
    public var widgetURL: String? { widgetURLs.first }

    /// What the author is told when the tree relies on something iOS leaves undefined or ignores.
    /// Found without collecting the targets: every answer is checked for them, and most have none.
    public static func notes(for root: ViewNode, family: WidgetFamily) -> [String] {
        var count = 0
        var first: String?
        var hasLinks = false
        walk(
            root,
            widgetURL: { url in
                count += 1
                if first == nil { first = url }
            },
            link: { _ in hasLinks = true }, control: { _ in })
        var notes: [String] = []
        if count > 1, let first {
            notes.append("\(count) widgetURL modifiers in one entry, which iOS leaves undefined; the first in reading order applies: \(first)")
        }
        if family == .systemSmall, hasLinks {
            notes.append("Link in a systemSmall widget is ignored, as on iOS: the whole widget is one tap target; use widgetURL")
        }
        return notes
    }
}
