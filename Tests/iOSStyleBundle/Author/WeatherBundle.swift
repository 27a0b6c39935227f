import WidgetKit

struct MoreWidgets: WidgetBundle {
    var body: some Widget { WeatherWidget() }
}

struct WeatherBundle: WidgetBundle {
    static let experimental = false
    var body: some Widget {
        MoreWidgets().body
        if Self.experimental { WeatherWidget() }
    }
}

@c(widget_bundle_entry) public func widgetBundleEntry() -> UnsafeRawPointer { exportWidgetBundle(WeatherBundle.self) }
