// An intent handler's file as SiriKit code writes it: `import Intents` alone, and Core Location's
// types, which Apple's Intents brings.
import Intents

final class PlaceResolver {
    func place(near location: CLLocation) -> CLLocationCoordinate2D { location.coordinate }
}
