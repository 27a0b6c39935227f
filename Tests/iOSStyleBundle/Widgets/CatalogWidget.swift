import AppIntents
import Intents
import OSLog
import SwiftUI
import UIKit
import WidgetKit

// A trip dashboard written as iOS 17 widgets are, using the modifiers and types issue 19 names, so
// that their signatures are held by a build in both language modes and their drawing by the tests.

private let catalogLog = Logger(subsystem: "org.example.widgets", category: "Catalog")

struct CatalogEntry: TimelineEntry {
    let date: Date
    let leg: String
    let progress: Double
    var relevance: TimelineEntryRelevance? { TimelineEntryRelevance(score: 0.5) }
}

struct CatalogProvider: TimelineProvider {
    func placeholder(in context: Context) -> CatalogEntry { CatalogEntry(date: Date(), leg: "Your trip", progress: 0) }

    func getSnapshot(in context: Context, completion: @escaping (CatalogEntry) -> Void) {
        completion(CatalogEntry(date: Date(), leg: "Lisbon → Porto", progress: 0.4))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<CatalogEntry>) -> Void) {
        // A real widget would fetch its trip here; URLSession is there as on iOS.
        _ = URLSession.shared.configuration
        catalogLog.info("catalog timeline")
        completion(Timeline(entries: [CatalogEntry(date: Date(), leg: "Lisbon → Porto", progress: 0.4)], policy: .never))
    }
}

/// A card, as a view modifier: `modifier(_:)` and `ModifiedContent`'s two generic parameters.
struct CatalogCard: ViewModifier {
    func body(content: Content) -> some View {
        content.padding(4).background(Color.gray.opacity(0.2))
    }
}

extension View {
    func catalogCard() -> ModifiedContent<Self, CatalogCard> { modifier(CatalogCard()) }
}

/// A two-by-two PNG (red and blue columns), as a widget's asset would be read.
let catalogStamp = UIImage(
    data: Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR42mM4oaGhUXGHAUIBACLSBSnxV7tTAAAAAElFTkSuQmCC")!)

struct CatalogView: View {
    var entry: CatalogEntry
    @State private var expanded = false
    @AppStorage("trips", store: UserDefaults(suiteName: "group.org.example.widgets")) private var trips = 0
    @Environment(\.sizeCategory) private var sizeCategory
    static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "EEE"
        return formatter
    }()

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            HStack {
                Label(title: { Text(entry.leg).fixedSize() }, icon: { Image(systemName: "tram.fill") })
                Spacer()
                Image(uiImage: catalogStamp ?? UIImage()).resizable(capInsets: EdgeInsets(), resizingMode: .stretch)
                    .scaledToFit().frame(width: 8, height: 8).cornerRadius(2, antialiased: true).clipped(antialiased: true)
            }
            Text(LocalizedStringResource("Next stop")).font(.system(.caption, design: .rounded, weight: .bold))
            Text("Coimbra", tableName: "Stops", bundle: .main, comment: "a stop").minimumScaleFactor(0.5).lineLimit(1)
            Text("\(entry.date, formatter: Self.dayFormatter) · \(entry.progress * 100, specifier: "%.0f")% · \(entry.date, style: .time)")
                .font(.system(size: 11, weight: .semibold)).layoutPriority(1)
            HStack {
                Gauge(value: entry.progress) { Text("Trip") }.gaugeStyle(.accessoryLinearCapacity)
                Gauge(value: entry.progress) { Text("Trip") }.gaugeStyle(.linearCapacity)
                Gauge(value: entry.progress) { Text("%") }.gaugeStyle(.accessoryCircularCapacity)
                ProgressView(value: entry.progress).progressViewStyle(.circular)
            }
            ProgressView(timerInterval: entry.date...entry.date.addingTimeInterval(600), countsDown: true, label: { Text("Boarding") }, currentValueLabel: { Text("10:00") })
            GeometryReader { geometry in
                HStack(spacing: 0) {
                    Rectangle().fill(Color.green.gradient).frame(width: geometry.size.width * entry.progress)
                    Rectangle().fill(.fill.tertiary)
                }
            }
            .frame(height: 4)
            .onAppear { expanded = true }
            HStack {
                Circle().stroke(Color.orange, lineWidth: 2).frame(width: 8, height: 8)
                Circle().strokeBorder(Color.orange.opacity(0.5), lineWidth: 1, antialiased: true).frame(width: 8, height: 8)
                Text("Seat 12A").catalogCard().id(entry.leg)
                Button("Check in") {}.buttonStyle(.bordered)
            }
            .overlay(alignment: .topTrailing) { Text(trips > 0 ? "\(trips)" : "").font(.caption2) }
        }
        .aspectRatio(2, contentMode: .fit)
        .containerBackground(for: .widget, alignment: .center) {
            Color(red: 0.05, green: 0.1, blue: 0.2, opacity: 1).overlay(Rectangle().fill(.background).opacity(0.1))
        }
    }
}

struct CatalogWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.example.catalog", provider: CatalogProvider()) { entry in
            CatalogView(entry: entry)
        }
        .configurationDisplayName(Text("Trip"))
        .description(Text("Your next train and how far along you are."))
        .supportedFamilies([.systemMedium, .systemLarge])
    }
}

// The older previews compile (Xcode draws them; widgets draws the #Preview ones).
struct CatalogView_Previews: PreviewProvider {
    static var previews: some View {
        CatalogView(entry: CatalogEntry(date: Date(), leg: "Porto → Braga", progress: 0.8))
            .previewContext(WidgetPreviewContext(family: .systemMedium))
    }
}

#Preview("Trip", as: .systemMedium) {
    CatalogWidget()
} timelineProvider: {
    CatalogProvider()
}

/// Intents an app target shares with its widgets: they compile as on iOS.
struct PlayAnnouncementIntent: AudioPlaybackIntent {
    static let title: LocalizedStringResource = "Play the Announcement"
    func perform() async throws -> some IntentResult { .result() }
}

struct TripOptionsIntent: WidgetConfigurationIntent, CustomIntentMigratedAppIntent {
    static let intentClassName = "TripOptionsIntent"
    static let title: LocalizedStringResource = "Trip Options"
    static var description: IntentDescription { IntentDescription("How the trip is shown.") }
    @Parameter(title: "Show Seat", default: true) var showsSeat: Bool
    static var parameterSummary: some ParameterSummary {
        When(\.$showsSeat, .equalTo, true) { Summary("Show the seat \(\.$showsSeat)") } otherwise: { Summary("Hide the seat") }
    }
}

class TripINIntent: INIntent {}

/// A SiriKit-style provider whose completions are called from tasks, as Swift 6 code does.
struct TripIntentProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> CatalogEntry { CatalogEntry(date: Date(), leg: "—", progress: 0) }
    func getSnapshot(for configuration: TripINIntent, in context: Context, completion: @escaping @Sendable (CatalogEntry) -> Void) {
        Task { completion(CatalogEntry(date: Date(), leg: "—", progress: 0)) }
    }
    func getTimeline(for configuration: TripINIntent, in context: Context, completion: @escaping @Sendable (Timeline<CatalogEntry>) -> Void) {
        Task { @MainActor in completion(Timeline(entries: [], policy: .never)) }
    }
}

/// Key-value coding on defaults, as older app code writes it.
func rememberTrip() {
    let defaults = UserDefaults(suiteName: "group.org.example.widgets")
    defaults?.setValue(1, forKey: "trips")
    _ = defaults?.value(forKey: "trips")
}
