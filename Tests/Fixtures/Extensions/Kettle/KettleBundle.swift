import SwiftUI
import WidgetKit

@main
struct KettleBundle: WidgetBundle {
    var body: some Widget {
        KettleControl()
        KettleLiveActivity()
    }
}
