import CWidgetKit
import Foundation
import Synchronization
import WidgetWire

/// The previews `#Preview` declared in this bundle, registered when the host first asks for them
/// (each `#Preview` is an entry in the bundle's `widgetkit_previews` section) and drawn with the
/// widget's own content closure, as Xcode's canvas draws them.
public enum _WidgetPreviews {
    /// One preview: its name, where it was written, its family, and how to make its entries for a
    /// request (nil kind: a view's preview, not a widget's).
    struct Preview: Sendable {
        let name: String?
        let file: String
        let line: Int
        let kind: String?
        let family: WidgetFamily
        let entries: @Sendable (ProviderRequest) async -> [WireEntry]
    }

    private static let state = Mutex<(registered: Bool, previews: [Preview])>((false, []))

    /// Every preview of the bundle, in the order they were written (by file, then line).
    static var all: [Preview] {
        let registered = state.withLock { state -> Bool in
            defer { state.registered = true }
            return state.registered
        }
        if !registered {
            _ = widgetkit_register_previews()
            registerPreviewProviders()
        }
        return state.withLock { $0.previews }.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
    }

    // MARK: PreviewProvider

    /// The bundle's `PreviewProvider` types (found among its conformance records), each top-level
    /// view of its `previews` one preview of the widget its name says (`MyWidget_Previews`), or of
    /// the bundle's only widget.
    private static func registerPreviewProviders() {
        var found = [UnsafeRawPointer?](repeating: nil, count: 256)
        let count = found.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafeRawPointer?.self, capacity: buffer.count) {
                Int(widgetkit_find_preview_providers(UnsafeMutablePointer(mutating: $0), Int32(buffer.count)))
            }
        }
        for pointer in found.prefix(count).compactMap({ $0 }) {
            guard let provider = unsafeBitCast(pointer, to: Any.Type.self) as? any PreviewProvider.Type else { continue }
            let name = nameOfType(provider)
            let widget = ["_Previews", "Previews", "_Preview", "Preview"].lazy.compactMap { name.hasSuffix($0) ? String(name.dropLast($0.count)) : nil }.first ?? name
            let kinds = WidgetTypes.kinds(of: widget) ?? WidgetTypes.onlyKind.map { [$0] } ?? []
            let previews = _UncheckedSendable(provider)
            for kind in kinds {
                for (family, title) in previewFamilies(of: provider) {
                    add(
                        Preview(name: title, file: name, line: 0, kind: kind, family: family) { request in
                            previewEntries(previews.value, family: family, request: request)
                        })
                }
            }
        }
    }

    /// The families a provider's previews are drawn in, in their order, each with the name its
    /// first preview there gives (`.previewDisplayName`).
    private static func previewFamilies(of provider: any PreviewProvider.Type) -> [(WidgetFamily, String?)] {
        var families: [(WidgetFamily, String?)] = []
        for node in resolve(provider, in: EnvironmentValues()) {
            let family = family(of: node)
            if !families.contains(where: { $0.0 == family }) { families.append((family, node.modifier("previewName")?.stringValue)) }
        }
        return families
    }

    private static func resolve(_ provider: any PreviewProvider.Type, in environment: EnvironmentValues) -> [ViewNode] {
        func open<P: PreviewProvider>(_ type: P.Type) -> [ViewNode] {
            EnvironmentValues.$current.withValue(environment) { type.previews }._resolve(in: environment)
        }
        return open(provider)
    }

    private static func family(of node: ViewNode) -> WidgetFamily {
        node.modifier("previewFamily")?.stringValue.flatMap(WidgetFamily.init(rawValue:)) ?? .systemSmall
    }

    /// A provider's previews of one family, built in that family's environment, each an entry.
    private static func previewEntries(_ provider: any PreviewProvider.Type, family: WidgetFamily, request: ProviderRequest) -> [WireEntry] {
        resolve(provider, in: request.environment).filter { self.family(of: $0) == family }.map { node in
            var root = node
            root.modifiers.removeAll { $0.name == "previewFamily" || $0.name == "previewName" }
            return WireEntry(date: Date().timeIntervalSince1970, relevance: nil, view: root)
        }
    }

    private static func add(_ preview: Preview) {
        state.withLock { $0.previews.append(preview) }
    }

    // MARK: What `#Preview` expands to

    /// A widget's preview with the entries written in it.
    public static func register<W: Widget, Entry: TimelineEntry>(
        name: String?, family: WidgetFamily, file: String, line: Int, widget: () -> W,
        @PreviewTimelineBuilder<Entry> timeline: @escaping () async -> [Entry]
    ) {
        let timeline = _UncheckedSendable(timeline)
        registerWidget(name: name, family: family, file: file, line: line, widget: widget()) { _ in
            await timeline.value().map { $0 as Any }
        }
    }

    /// A configurable widget's preview with the entries written in it (the intent only chooses them).
    public static func register<W: Widget, Intent: WidgetConfigurationIntent, Entry: TimelineEntry>(
        name: String?, family: WidgetFamily, intent: Intent, file: String, line: Int, widget: () -> W,
        @PreviewTimelineBuilder<Entry> timeline: @escaping () async -> [Entry]
    ) {
        register(name: name, family: family, file: file, line: line, widget: widget, timeline: timeline)
    }

    /// A widget's preview with the entries a provider's timeline gives.
    public static func register<W: Widget, Provider: TimelineProvider>(
        name: String?, family: WidgetFamily, file: String, line: Int, widget: () -> W, timelineProvider: () -> Provider
    ) {
        let provider = _UncheckedSendable(timelineProvider())
        registerWidget(name: name, family: family, file: file, line: line, widget: widget()) { context in
            let timeline = try? await ProviderCompletion.value(of: "getTimeline(in:completion:)") { provider.value.getTimeline(in: context, completion: $0) }
            return timeline?.entries.map { $0 as Any } ?? []
        }
    }

    /// A configurable widget's preview with the entries its provider gives for `intent`.
    public static func register<W: Widget, Provider: AppIntentTimelineProvider>(
        name: String?, family: WidgetFamily, intent: Provider.Intent, file: String, line: Int, widget: () -> W,
        timelineProvider: () -> Provider
    ) {
        let provider = timelineProvider()
        let entries = _UncheckedSendable { (context: TimelineProviderContext) async -> [Any] in
            await provider.timeline(for: intent, in: context).entries.map { $0 as Any }
        }
        registerWidget(name: name, family: family, file: file, line: line, widget: widget()) { await entries.value($0) }
    }

    /// A view's preview (`#Preview { MyView() }`).
    public static func register<V: View>(name: String?, file: String, line: Int, view: @escaping () -> V) {
        let view = _UncheckedSendable(view)
        add(
            Preview(name: name, file: file, line: line, kind: nil, family: .systemMedium) { request in
                [WireEntry(date: Date().timeIntervalSince1970, relevance: nil, view: ViewResolver.root(of: view.value(), in: request.environment))]
            })
    }

    private static func registerWidget<W: Widget>(
        name: String?, family: WidgetFamily, file: String, line: Int, widget: W,
        entries: @escaping @Sendable (TimelineProviderContext) async -> [Any]
    ) {
        for definition in widget._definitions() {
            add(
                Preview(name: name, file: file, line: line, kind: definition.kind, family: family) { request in
                    definition.renderPreview?(await entries(request.providerContext), request) ?? []
                })
        }
    }
}

/// Collects the entries a `#Preview` lists: any number of entries, arrays of them, `if` and `for`.
@resultBuilder
public enum PreviewTimelineBuilder<Entry: TimelineEntry> {
    public static func buildExpression(_ entry: Entry) -> [Entry] { [entry] }
    public static func buildExpression(_ entries: [Entry]) -> [Entry] { entries }
    public static func buildBlock(_ parts: [Entry]...) -> [Entry] { parts.flatMap { $0 } }
    public static func buildOptional(_ entries: [Entry]?) -> [Entry] { entries ?? [] }
    public static func buildEither(first entries: [Entry]) -> [Entry] { entries }
    public static func buildEither(second entries: [Entry]) -> [Entry] { entries }
    public static func buildArray(_ parts: [[Entry]]) -> [Entry] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ entries: [Entry]) -> [Entry] { entries }
}

/// The bundle's widget types by name, and their kinds: what a `PreviewProvider` named for a widget
/// (`MyWidget_Previews`) is matched to. Filled as the bundle's body lists its widgets.
enum WidgetTypes {
    private static let known = Mutex<[String: @Sendable () -> [String]]>([:])

    static func note<W: Widget>(_ widget: W) {
        // Kept as an existential, so that the closure captures no metatype (W.Type is not Sendable).
        let captured = _UncheckedSendable<any Widget>(widget)
        known.withLock { $0[nameOfType(W.self)] = { captured.value._definitions().map(\.kind) } }
    }

    static func kinds(of name: String) -> [String]? { known.withLock { $0[name] }?() }

    /// The kind of a bundle of one widget.
    static var onlyKind: String? {
        let kinds = BundleExport.shared.registeredKinds
        return kinds.count == 1 ? kinds[0] : nil
    }
}
