// The app's model, which the widget extension and the Intents extension share (the project's
// folder exceptions make this one file a member of both).
import Foundation

struct Trip: Sendable {
    let identifier: String
    let name: String
    let daysLeft: Int
    let kilometers: Double
}

enum TripStore {
    static let trips = [
        Trip(identifier: "lisbon", name: "Lisbon Weekend", daysLeft: 1, kilometers: 1_850),
        Trip(identifier: "alps", name: "Alps Hike", daysLeft: 12, kilometers: 640),
    ]

    static func trip(_ identifier: String?) -> Trip { trips.first { $0.identifier == identifier } ?? trips[0] }
}
