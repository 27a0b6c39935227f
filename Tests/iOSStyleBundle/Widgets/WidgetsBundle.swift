import SwiftUI
import WidgetKit

@main
struct IOSStyleWidgets: WidgetBundle {
    var body: some Widget {
        WeatherWidget()
        StepCounterWidget()
        MainActorWidget()
        EmojiListWidget()
        TimerWidget()
        DroppedCompletionWidget()
        LegacyDroppedWidget()
        SharedCounterWidget()
        TimerControl()
        CatalogWidget()
        DeliveryActivityLiveActivity()
        PriceChartWidget()
    }
}
