// A weather widget's location helper as iOS code writes it: a delegate that hands the first
// location to a continuation, and the place's name from the geocoder.
import CoreLocation
import Foundation

final class WidgetLocationManager: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    private let manager = CLLocationManager()
    private var continuation: CheckedContinuation<CLLocation, Error>?

    override init() {
        super.init()
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyKilometer
    }

    var isAuthorized: Bool {
        manager.authorizationStatus == .authorizedWhenInUse || manager.authorizationStatus == .authorizedAlways
    }

    func currentLocation() async throws -> CLLocation {
        if let location = manager.location { return location }
        return try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            manager.requestLocation()
        }
    }

    func placeName() async -> String {
        guard let location = try? await currentLocation(),
            let placemark = try? await CLGeocoder().reverseGeocodeLocation(location).first
        else { return "Unknown" }
        return placemark.locality ?? placemark.name ?? "Unknown"
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard let location = locations.last else { return }
        continuation?.resume(returning: location)
        continuation = nil
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
        continuation?.resume(throwing: error)
        continuation = nil
    }
}
