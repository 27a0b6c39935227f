import WidgetKit

struct GameWidgets: WidgetBundle {
    var body: some Widget {
        GameStatusWidget()
        LeaderboardWidget()
        CharacterDetailWidget()
        SiriKitStyle.CharacterDetailWidget()
    }
}

// On iOS this bundle would be marked @main; on Linux this one line hands it to the host.
@c(widget_bundle_entry) public func widgetBundleEntry() -> UnsafeRawPointer { exportWidgetBundle(GameWidgets.self) }
