import FoundationEssentials
import WidgetABI
import WidgetWire

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
    /// Opens a URL as iOS opens a widget's link: with the bundle that claims its scheme (its
    /// `url_schemes`, or its Info.plist's `CFBundleURLTypes`), on its first widget's provider
    /// queue; a URL no bundle claims goes to the desktop (`DesktopOpener`).
    public func open(url: String) async throws -> TapOutcome {
        guard let scheme = URL(string: url)?.scheme?.lowercased() else { throw TapError("\"\(url.onOneLine.cut(to: 200))\" is not a URL (it has no scheme)") }
        // The bundle that claims the scheme may still be loading.
        if !bundles.contains(where: { $0.urlSchemes.contains(scheme) }) { await loads() }
        guard let bundle = bundles.first(where: { $0.urlSchemes.contains(scheme) }) else {
            return .opened(url: url, bundle: "the desktop (\(try DesktopOpener.open(url)))")
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
        if widget(kind: instance.kind) == nil { await loads(kind: instance.kind) }
        guard let widget = widget(kind: instance.kind) else {
            throw TapError("instance \(instance.id) is a \"\(instance.kind)\", and no loaded bundle provides it")
        }
        let targets = TapTargets(entry.view)
        let tapped: String
        switch target {
        case .widget:
            guard let url = targets.widgetURL else {
                throw TapError(
                    "instance \(instance.id) shows no widgetURL, so a tap on it opens nothing"
                        + " (it has \(targets.links.count) link(s) and \(targets.controls.count) button(s)/toggle(s); --link N or --button N taps one)")
            }
            tapped = url
        case .link(let number):
            if instance.family == .systemSmall {
                throw TapError("instance \(instance.id) is systemSmall, where Link is ignored, as on iOS; a tap opens its widgetURL")
            }
            guard targets.links.indices.contains(number - 1) else {
                throw TapError("instance \(instance.id) shows \(targets.links.count) link(s); there is no link \(number)")
            }
            tapped = targets.links[number - 1]
        case .control(let number):
            guard targets.controls.indices.contains(number - 1) else {
                throw TapError("instance \(instance.id) shows \(targets.controls.count) button(s)/toggle(s); there is no button \(number)")
            }
            let intent = targets.controls[number - 1]
            let result = try await request(
                .performIntent, kind: instance.kind, family: instance.family, configuration: instance.configurationText, parameter: intent)
            return .performed(intent: result.payload?["performed"]?.stringValue ?? intent)
        }
        // A tapped link or widgetURL: to the instance's own bundle when that claims the scheme,
        // else as `open(url:)` opens any URL. (Here, not in a function of its own: Swift 6.3.1's
        // release build crashed splitting that one's coroutine.)
        let claimed = URL(string: tapped)?.scheme.map { widget.bundle.urlSchemes.contains($0.lowercased()) } ?? false
        guard claimed else { return try await open(url: tapped) }
        _ = try await request(.openURL, kind: instance.kind, family: instance.family, configuration: instance.configurationText, parameter: tapped)
        return .opened(url: tapped, bundle: widget.bundle.fileName)
    }
}
