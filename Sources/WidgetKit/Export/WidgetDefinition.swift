import Foundation
import WidgetABI
import WidgetWire

/// One widget as the bundle registers it: its descriptor and how to answer its requests.
/// Built by the configuration types; not used by authors.
public struct _WidgetDefinition: Sendable {
    var kind: String
    var displayName = ""
    var description = ""
    var families: [WidgetFamily] = WidgetFamily.systemFamilies
    var contentMarginsDisabled = false
    var configurationKind: ConfigurationKind
    var configurationName: String?
    /// A configurable widget's parameters, for the host.
    var schema: ConfigurationSchema?
    /// Draws entries a preview lists, if they are of this widget's entry type, for a request (its
    /// family and environment); nil when they are of another type.
    var renderPreview: (@Sendable ([Any], ProviderRequest) -> [WireEntry]?)?
    /// Answers one request, calling `reply` exactly once, from any thread.
    let respond: @Sendable (ProviderRequest, @escaping @Sendable (ProviderAnswer) -> Void) -> Void

    init(
        kind: String, configurationKind: ConfigurationKind, configurationName: String? = nil, schema: ConfigurationSchema? = nil,
        respond: @escaping @Sendable (ProviderRequest, @escaping @Sendable (ProviderAnswer) -> Void) -> Void
    ) {
        self.kind = kind
        self.configurationKind = configurationKind
        self.configurationName = configurationName
        self.schema = schema
        self.respond = respond
    }
}

extension _WidgetDefinition {
    /// The preview renderer of a widget whose content closure is `content`.
    static func previewRenderer<Entry: TimelineEntry, Content: View>(
        _ content: @escaping (Entry) -> Content
    ) -> @Sendable ([Any], ProviderRequest) -> [WireEntry]? {
        let content = _UncheckedSendable(content)
        return { entries, request in
            let typed = entries.compactMap { $0 as? Entry }
            guard typed.count == entries.count else { return nil }
            return typed.map { request.render($0, content.value) }
        }
    }
}

/// What a provider answers, before it is encoded for the host.
enum ProviderAnswer: Sendable {
    case timeline(WireTimeline)
    /// Options or recommendations.
    case json(JSONValue)
    case failure(String)
}

/// A request from the host, decoded from its C form.
struct ProviderRequest: Sendable {
    let kind: RequestKind
    let family: WidgetFamily
    let isPreview: Bool
    let displaySize: CGSize
    let configuration: String
    /// For options: the parameter's name.
    var parameter: String? = nil
    /// What the host renders for (ABI 1.4); light, full colour, with the background from older hosts.
    var colorScheme: ColorScheme = .light
    var renderingMode: WidgetRenderingMode = .fullColor
    var showsContainerBackground = true
    /// The widget's `.contentMarginsDisabled()`: its content then fills the whole widget.
    var contentMarginsDisabled = false

    var providerContext: TimelineProviderContext {
        TimelineProviderContext(family: family, isPreview: isPreview, displaySize: displaySize)
    }

    var environment: EnvironmentValues {
        var environment = EnvironmentValues()
        environment.widgetFamily = family
        environment.colorScheme = colorScheme
        environment.widgetRenderingMode = renderingMode
        environment.showsWidgetContainerBackground = showsContainerBackground
        // The family's margins, whether the system applies them or the widget, having disabled
        // them, pads some of its views by them itself.
        let margin = CGFloat(family.contentMargin)
        environment.widgetContentMargins = EdgeInsets(top: margin, leading: margin, bottom: margin, trailing: margin)
        let applied = contentMarginsDisabled ? 0 : 2 * margin
        environment.contentSize = CGSize(width: max(0, displaySize.width - applied), height: max(0, displaySize.height - applied))
        if kind == .placeholder { environment.redactionReasons = .placeholder }
        return environment
    }

    /// Evaluates the content closure for one entry in this request's family, as WidgetKit does.
    func render<Entry: TimelineEntry, Content: View>(_ entry: Entry, _ content: (Entry) -> Content) -> WireEntry {
        let environment = environment
        var root = ViewResolver.root(of: content(entry), in: environment)
        EnvironmentValues.$current.withValue(environment) { Self.applyAssetDefaults(to: &root) }
        if kind == .placeholder { root.modifiers.append(ViewModifierNode("redacted", .string("placeholder"))) }
        return WireEntry(
            date: entry.date.timeIntervalSince1970,
            // The Float as written (0.99), not its nearest Double (0.9900000095367432).
            relevance: entry.relevance.map { WireRelevance(score: Double($0.score.description) ?? Double($0.score), duration: $0.duration) },
            view: root)
    }
}

extension ProviderRequest {
    /// What an extension's asset catalog sets for all its widgets, as iOS applies it: the widget
    /// background colour (Xcode's `ASSETCATALOG_COMPILER_WIDGET_BACKGROUND_COLOR_NAME`) is the
    /// container background of a widget that gives none. Its accent colour does not tint the
    /// content: a widget's buttons and toggles are the system's blue unless it says `.tint(_:)`, as
    /// iOS draws them (WidgetExamples' screenshots: teal AccentColor, blue buttons); the colour is
    /// the widget's when it names it (`Color.accentColor`).
    static func applyAssetDefaults(to root: inout ViewNode) {
        let assets = BundleResources.shared.assets
        if let name = assets.widgetBackgroundName, assets.colors[name] != nil, !root.hasModifier("containerBackground") {
            root.modifiers.append(ViewModifierNode("containerBackground", Color(name).json))
        }
    }

    /// A placeholder's or snapshot's answer: one entry, no policy.
    func renderAlone<Entry: TimelineEntry, Content: View>(_ entry: Entry, _ content: (Entry) -> Content) -> WireTimeline {
        WireTimeline(entries: [render(entry, content)], policy: nil)
    }

    func render<Entry: TimelineEntry, Content: View>(_ timeline: Timeline<Entry>, _ content: (Entry) -> Content) -> WireTimeline {
        WireTimeline(entries: timeline.entries.map { render($0, content) }, policy: timeline.policy.wire)
    }
}
