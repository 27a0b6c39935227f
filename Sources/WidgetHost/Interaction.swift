import Foundation
import WidgetWire

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

/// Where a tap lands: the widget itself (its `widgetURL`), its Nth `Link`, or its Nth intent control
/// (`Button` or `Toggle`), counted from 1 in reading order.
public enum TapTarget: Sendable, Equatable {
    case widget
    case link(Int)
    case control(Int)
}

/// What a tap did.
public enum TapOutcome: Sendable, Equatable {
    case opened(url: String, bundle: String)
    case performed(intent: String)
}

/// A tap or URL that cannot be delivered, in one line.
public struct TapError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension WidgetRegistry {
    /// Opens a URL with the bundle that claims its scheme (its `url_schemes`), on its first widget's
    /// provider queue. A URL no bundle claims is an error naming the schemes that are claimed.
    public func open(url: String) async throws -> TapOutcome {
        guard let scheme = URL(string: url)?.scheme?.lowercased() else { throw TapError("\"\(url)\" is not a URL (it has no scheme)") }
        let claims = bundles.filter { $0.urlSchemes.contains(scheme) }
        guard let bundle = claims.first else {
            let claimed = bundles.flatMap { bundle in bundle.urlSchemes.map { "\($0) (\(bundle.fileName))" } }
            throw TapError(
                "no bundle opens \(scheme): URLs; "
                    + (claimed.isEmpty ? "no loaded bundle declares URL schemes" : "schemes claimed: \(claimed.joined(separator: ", "))"))
        }
        guard let widget = widgets.first(where: { $0.bundle === bundle }) else {
            throw TapError("\(bundle.fileName) claims \(scheme): but registered no widget to run its URL handler")
        }
        _ = try await request(.openURL, kind: widget.kind, family: widget.families[0], parameter: url)
        return .opened(url: url, bundle: bundle.fileName)
    }

    /// Delivers a tap on an instance showing `entry`: a URL to the instance's own bundle, an intent
    /// to be performed on its provider queue with the instance's configuration.
    public func tap(_ instance: WidgetInstance, entry: WireEntry, target: TapTarget) async throws -> TapOutcome {
        guard let widget = widget(kind: instance.kind) else {
            throw TapError("instance \(instance.id) is a \"\(instance.kind)\", and no loaded bundle provides it")
        }
        let targets = TapTargets(entry.view)
        switch target {
        case .widget:
            guard let url = targets.widgetURL else {
                throw TapError(
                    "instance \(instance.id) shows no widgetURL, so a tap on it opens nothing"
                        + " (it has \(targets.links.count) link(s) and \(targets.controls.count) button(s)/toggle(s); --link N or --button N taps one)")
            }
            _ = try await request(.openURL, kind: instance.kind, family: instance.family, configuration: instance.configurationText, parameter: url)
            return .opened(url: url, bundle: widget.bundle.fileName)
        case .link(let number):
            if instance.family == .systemSmall {
                throw TapError("instance \(instance.id) is systemSmall, where Link is ignored, as on iOS; a tap opens its widgetURL")
            }
            guard targets.links.indices.contains(number - 1) else {
                throw TapError("instance \(instance.id) shows \(targets.links.count) link(s); there is no link \(number)")
            }
            let url = targets.links[number - 1]
            _ = try await request(.openURL, kind: instance.kind, family: instance.family, configuration: instance.configurationText, parameter: url)
            return .opened(url: url, bundle: widget.bundle.fileName)
        case .control(let number):
            guard targets.controls.indices.contains(number - 1) else {
                throw TapError("instance \(instance.id) shows \(targets.controls.count) button(s)/toggle(s); there is no button \(number)")
            }
            let intent = targets.controls[number - 1]
            let result = try await request(
                .performIntent, kind: instance.kind, family: instance.family, configuration: instance.configurationText, parameter: intent)
            return .performed(intent: result.payload?["performed"]?.stringValue ?? intent)
        }
    }
}
