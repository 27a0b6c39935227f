public import WidgetWire

// Previews, as Xcode's canvas shows them: `widgets preview KIND` and the gallery draw them.

/// A widget's preview in a family, with the entries to show:
///
///     #Preview(as: .systemSmall) {
///         GameStatusWidget()
///     } timeline: {
///         GameStatusEntry(date: .now, status: "Boss fight")
///         GameStatusEntry(date: .now, status: "Level 4")
///     }
@freestanding(declaration)
public macro Preview<W: Widget, Entry: TimelineEntry>(
    _ name: String? = nil, as family: WidgetFamily, widget: () -> W, @PreviewTimelineBuilder<Entry> timeline: @escaping () async -> [Entry]
) = #externalMacro(module: "WidgetKitMacros", type: "WidgetPreviewMacro")

/// A widget's preview with the entries its provider gives.
@freestanding(declaration)
public macro Preview<W: Widget, Provider: TimelineProvider>(
    _ name: String? = nil, as family: WidgetFamily, widget: () -> W, timelineProvider: () -> Provider
) = #externalMacro(module: "WidgetKitMacros", type: "WidgetPreviewMacro")

/// A configurable widget's preview for an intent, with the entries written.
@freestanding(declaration)
public macro Preview<W: Widget, Intent: WidgetConfigurationIntent, Entry: TimelineEntry>(
    _ name: String? = nil, as family: WidgetFamily, using intent: Intent, widget: () -> W,
    @PreviewTimelineBuilder<Entry> timeline: @escaping () async -> [Entry]
) = #externalMacro(module: "WidgetKitMacros", type: "WidgetPreviewMacro")

/// A configurable widget's preview for an intent, with the entries its provider gives for it.
@freestanding(declaration)
public macro Preview<W: Widget, Provider: AppIntentTimelineProvider>(
    _ name: String? = nil, as family: WidgetFamily, using intent: Provider.Intent, widget: () -> W, timelineProvider: () -> Provider
) = #externalMacro(module: "WidgetKitMacros", type: "WidgetPreviewMacro")

/// A view's preview (SwiftUI's `#Preview`), drawn in a medium widget's size.
@freestanding(declaration)
public macro Preview(_ name: String? = nil, body: @escaping () -> any View) =
    #externalMacro(module: "WidgetKitMacros", type: "ViewPreviewMacro")

/// Marks a variable of a `#Preview`'s closure as the preview's state (`@Previewable @State var isOn =
/// false`), as Xcode 16's canvas takes it.
@attached(peer)
public macro Previewable() = #externalMacro(module: "WidgetKitMacros", type: "PreviewableMacro")

// MARK: - The older previews

/// A type that produces views for previews (the iOS 13 API): `widgets preview` and the gallery draw
/// them, as Xcode's canvas does. Each top-level view of `previews` is one preview, in the family
/// its `.previewContext(WidgetPreviewContext(family:))` names (systemSmall where none does), named
/// by `.previewDisplayName(_:)`. A `MyWidget_Previews` is `MyWidget`'s previews; in a bundle of one
/// widget, any provider's are its.
public protocol PreviewProvider {
    associatedtype Previews: View
    @ViewBuilder static var previews: Previews { get }
}

/// The family a preview draws a widget in (`.previewContext(WidgetPreviewContext(family:))`).
public struct WidgetPreviewContext: Sendable {
    public let family: WidgetFamily
    public init(family: WidgetFamily) { self.family = family }
}

extension View {
    /// The family a `PreviewProvider`'s preview is drawn in.
    public func previewContext(_ context: WidgetPreviewContext) -> some View { wire("previewFamily", .string(context.family.rawValue)) }
    /// A preview's name.
    public func previewDisplayName(_ name: String?) -> some View { wire("previewName", name.map(JSONValue.string) ?? .null) }
    /// The size a preview is drawn in. Compiles, and changes nothing here.
    public func previewLayout(_ layout: PreviewLayout) -> some View { self }
}

/// The layout of a `PreviewProvider` preview.
public enum PreviewLayout: Sendable {
    case device
    case sizeThatFits
    case fixed(width: CGFloat, height: CGFloat)
}
