// The Intents extension's handler, as Xcode's template writes it: it offers the configuration's
// trips. Its class is named by the extension's Info.plist (NSExtensionPrincipalClass).
import Intents

class TripIntentHandler: INExtension, SelectTripIntentHandling {
    func provideTripOptionsCollection(for intent: SelectTripIntent, with completion: @escaping (INObjectCollection<TripItem>?, Error?) -> Void) {
        let items = TripStore.trips.map { trip in
            let item = TripItem(identifier: trip.identifier, display: trip.name)
            item.daysLeft = NSNumber(value: trip.daysLeft)
            return item
        }
        completion(INObjectCollection(items: items), nil)
    }

    override func handler(for intent: INIntent) -> Any {
        self
    }
}
