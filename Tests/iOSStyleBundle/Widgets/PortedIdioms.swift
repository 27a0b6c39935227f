// What widget code ported from iOS writes beside its widgets, kept as such code has it (found in
// public widget projects): a style of its own for buttons, toggles and labels, a property wrapper
// that is a DynamicProperty, UIKit's colour components and fonts, shapes by their static names,
// CoreGraphics, an optional parameter with a default and options, Xcode 14's activity preview,
// URLProtocol registration and a work item after a deadline. Nothing here is drawn by a test; that
// it compiles unchanged in both language modes is the test.
import AppIntents
import CoreGraphics
import SwiftUI
import UIKit
import WidgetKit

struct ScaleButtonStyle: ButtonStyle {
    func makeBody(configuration: Configuration) -> some View {
        configuration.label
            .scaleEffect(configuration.isPressed ? 0.95 : 1)
            .background(Color.accentColor.opacity(0.2), in: .rect(cornerRadius: 8, style: .continuous))
    }
}

struct CheckboxToggleStyle: ToggleStyle {
    func makeBody(configuration: Configuration) -> some View {
        HStack {
            Image(systemName: configuration.isOn ? "checkmark.square.fill" : "square")
            configuration.label
        }
        .onTapGesture { configuration.isOn.toggle() }
    }
}

struct VerticalLabelStyle: LabelStyle {
    func makeBody(configuration: Configuration) -> some View {
        VStack(spacing: 2) {
            configuration.icon
            configuration.title.font(.caption2)
        }
    }
}

struct Setting<Value>: DynamicProperty {
    @State private var value: Value
    init(wrappedValue: Value) { _value = State(wrappedValue: wrappedValue) }
    var wrappedValue: Value { value }
}

extension Color {
    /// The lighter shade iOS code derives through UIKit.
    func lighter(by amount: CGFloat) -> Color {
        var red: CGFloat = 0, green: CGFloat = 0, blue: CGFloat = 0, alpha: CGFloat = 0
        guard UIColor(self).getRed(&red, green: &green, blue: &blue, alpha: &alpha) else { return self }
        return Color(red: min(red + amount, 1), green: min(green + amount, 1), blue: min(blue + amount, 1), opacity: alpha)
    }
}

struct PortedIdiomsView: View {
    @State private var isOn = false
    let angle: CGFloat = .pi / 4

    var body: some View {
        VStack {
            Toggle("Reminders", isOn: $isOn)
                .toggleStyle(CheckboxToggleStyle())
            Label("Rain", systemImage: "cloud.rain").labelStyle(VerticalLabelStyle())
            Text("Headline").font(Font(UIFont.systemFont(ofSize: 15, weight: .semibold)))
            Button("Refresh") {}.buttonStyle(ScaleButtonStyle())
            Capsule().fill(Color.blue.lighter(by: 0.2)).frame(height: CGFloat(4))
                .transformEffect(CGAffineTransform(rotationAngle: angle))
        }
        .clipShape(.rect(cornerRadius: 12))
    }
}

struct PlaceOptions: DynamicOptionsProvider {
    func results() async throws -> [String] { ["Lisbon", "Porto"] }
    func defaultResult() async -> String? { "Lisbon" }
}

struct PlaceIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource { "Place" }
    @Parameter(title: "Place", default: "Lisbon", optionsProvider: PlaceOptions()) var city: String?
}

final class ImageURLProtocol: URLProtocol {
    static func register() {
        _ = URLProtocol.registerClass(ImageURLProtocol.classForCoder())
        let queue = DispatchSerialQueue(label: "images")
        let work = DispatchWorkItem {}
        queue.asyncAfter(deadline: .now() + 1, execute: work)
        work.cancel()
    }
}

struct DeliveryActivityPreviews: PreviewProvider {
    static var previews: some View {
        DeliveryActivityAttributes(name: "World")
            .previewContext(DeliveryActivityAttributes.ContentState(emoji: "🚚"), viewKind: .dynamicIsland(.compact))
        DeliveryActivityAttributes(name: "World")
            .previewContext(DeliveryActivityAttributes.ContentState(emoji: "🚚"), viewKind: .content)
    }
}

// iOS 17's Observation, which `import SwiftUI` brings on iOS.
@Observable final class CounterModel {
    var count = 0
    func increment() { count += 1 }
}

// iOS 17/18/26 names widget code uses that draw nothing different in a still widget: symbol
// effects, scroll content margins, a push handler.
struct AnimatedSymbols: View {
    var count: Int
    var body: some View {
        VStack {
            Image(systemName: "bell.fill").symbolEffect(.bounce.up.byLayer, value: count)
            Image(systemName: "wifi").symbolEffect(.variableColor.iterative, options: .repeating, isActive: true)
            Image(systemName: count > 0 ? "checkmark" : "xmark").contentTransition(.symbolEffect(.replace))
        }
        .contentMargins(.horizontal, 8, for: .scrollContent)
    }
}

struct ScorePushHandler: WidgetPushHandler {
    func pushTokenDidChange(_ pushInfo: WidgetPushInfo, widgets: [WidgetInfo]) {}
}

// iOS 18's relevance of an intent-configured widget, for the Smart Stack.
func placeRelevance() -> WidgetRelevance<PlaceIntent> {
    WidgetRelevance([WidgetRelevanceAttribute(configuration: PlaceIntent(), context: .date(interval: DateInterval(start: .now, duration: 3600), kind: .default))])
}

// A remote picture as iOS code writes it, drawn as iOS draws it in a widget: its placeholder.
struct Avatar: View {
    let url: URL?
    var body: some View {
        AsyncImage(url: url) { image in
            image.resizable().scaledToFill()
        } placeholder: {
            Circle().fill(.gray.opacity(0.3))
        }
        .frame(width: 32, height: 32)
        .clipShape(Circle())
    }
}
