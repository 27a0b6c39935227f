// The widget extension of an iOS 16-era app, built from its Xcode project by `widgets build` in the
// tests (Tests/WidgetsCLITests/XcodeProjectBuildTests.swift): configured by a SiriKit intent from
// TripIntents.intentdefinition, whose classes Xcode generates, in Swift 6 language mode.
import SwiftUI
import TripKit
import WidgetKit

struct TripEntry: TimelineEntry {
    let date: Date
    let trip: Trip
    let units: DistanceUnit
    let showsCountdown: Bool
    let travellers: Int
}

struct TripProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> TripEntry {
        TripEntry(date: Date(), trip: TripStore.trips[0], units: .kilometers, showsCountdown: true, travellers: 2)
    }

    func getSnapshot(for configuration: SelectTripIntent, in context: Context, completion: @escaping @Sendable (TripEntry) -> Void) {
        completion(entry(for: configuration))
    }

    func getTimeline(for configuration: SelectTripIntent, in context: Context, completion: @escaping @Sendable (Timeline<TripEntry>) -> Void) {
        completion(Timeline(entries: [entry(for: configuration)], policy: .never))
    }

    private func entry(for configuration: SelectTripIntent) -> TripEntry {
        TripEntry(
            date: Date(), trip: TripStore.trip(configuration.trip?.identifier), units: configuration.units,
            showsCountdown: configuration.showsCountdown?.boolValue ?? true, travellers: configuration.travellers?.intValue ?? 0)
    }
}

struct TripView: View {
    let entry: TripEntry

    var body: some View {
        VStack(alignment: .leading) {
            Text("Trip").font(.caption).foregroundStyle(Color(.brand))
            Text(entry.trip.name).font(.headline)
            if entry.showsCountdown {
                Text("\(entry.trip.daysLeft) days left")
            }
            Text(verbatim: distanceText(kilometers: entry.trip.kilometers, inMiles: entry.units == .miles))
            Text(verbatim: "\(entry.travellers) travellers")
        }
    }
}

@main
struct TripsWidget: Widget {
    var body: some WidgetConfiguration {
        IntentConfiguration(kind: "fixture.trip", intent: SelectTripIntent.self, provider: TripProvider()) { entry in
            TripView(entry: entry)
        }
        .configurationDisplayName("Trip")
        .description("Days until your next trip.")
        .supportedFamilies([.systemSmall])
    }
}
