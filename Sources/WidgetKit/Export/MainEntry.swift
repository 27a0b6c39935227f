import CWidgetABI

extension WidgetBundle {
    /// Exports the bundle, when it is marked `@main` as on iOS: the compiler makes `@main` in a
    /// library a C `main` that calls this, and the SDK's bundle entry calls that (see
    /// Sources/CWidgetKit). A bundle that needs the export line's options (URL schemes, a memory
    /// limit) writes the export line instead.
    public static func main() {
        _ = exportWidgetBundle(Self.self)
    }
}

extension Widget {
    /// Exports the widget as a bundle of its own, when it is marked `@main` (iOS allows a single
    /// widget to be the extension's entry point, with no `WidgetBundle`).
    public static func main() {
        _ = BundleExport.shared.export(name: "", memoryLimit: nil) {
            let widget = Self()
            WidgetTypes.note(widget)
            return widget._definitions()
        }
    }
}

/// The bundle `WidgetBundle.main()` exported, for the SDK's bundle entry; nil when none was.
@c(widgetkit_exported_bundle) func widgetKitExportedBundle() -> UnsafePointer<widget_bundle_t>? {
    BundleExport.shared.exportedEntry
}
