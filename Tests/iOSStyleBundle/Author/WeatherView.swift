// A view file as iOS writes it, in its own file.
import SwiftUI

struct WeatherView: View {
    @Environment(\.widgetFamily) var family
    var entry: WeatherProvider.Entry

    var body: some View {
        switch family {
        case .systemSmall:
            Text("\(entry.temperature)°").font(.largeTitle)
        default:
            HStack {
                Text("Berlin").bold()
                Spacer()
                Text("\(entry.temperature)°")
            }
        }
    }
}
