import Foundation
import Testing

@testable import CoreLocation

/// Core Location as widget code uses it, on Linux: the location is the one the person set
/// (`WIDGETS_LOCATION`, else `~/.config/widgets/location`); without one the manager is denied and
/// says so through its delegate.
@Suite(.serialized) struct CoreLocationTests {
    final class Recorder: CLLocationManagerDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var locations: [CLLocation] = []
        var error: Error?
        func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
            self.locations = locations
            done.signal()
        }
        func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
            self.error = error
            done.signal()
        }
        let authorized = DispatchSemaphore(value: 0)
        var status: CLAuthorizationStatus?
        func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
            status = manager.authorizationStatus
            authorized.signal()
        }
    }

    func withLocation<T>(_ value: String?, config: String? = nil, _ body: () async throws -> T) async rethrows -> T {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cl-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: home.appendingPathComponent("widgets"), withIntermediateDirectories: true)
        if let config { try? config.write(to: home.appendingPathComponent("widgets/location"), atomically: true, encoding: .utf8) }
        var environment = ["XDG_CONFIG_HOME": home.path]
        if let value { environment["WIDGETS_LOCATION"] = value }
        SetLocation.environment = environment
        defer {
            SetLocation.environment = nil
            try? FileManager.default.removeItem(at: home)
        }
        return try await body()
    }

    @Test func theLocationSetIsReportedAndNamed() async throws {
        try await withLocation("38.7223, -9.1393, Lisbon") {
            let manager = CLLocationManager()
            #expect(manager.authorizationStatus == .authorizedWhenInUse && manager.isAuthorizedForWidgetUpdates)
            let recorder = Recorder()
            manager.delegate = recorder
            // A delegate is told the authorization when it is set, as on iOS.
            #expect(recorder.authorized.wait(timeout: .now() + 5) == .success && recorder.status == .authorizedWhenInUse)
            manager.requestLocation()
            #expect(recorder.done.wait(timeout: .now() + 5) == .success)
            #expect(recorder.locations.first?.coordinate == CLLocationCoordinate2D(latitude: 38.7223, longitude: -9.1393))
            let places = try await CLGeocoder().reverseGeocodeLocation(CLLocation(latitude: 38.75, longitude: -9.15))
            #expect(places.first?.locality == "Lisbon")
            await #expect(throws: CLError.self) { try await CLGeocoder().reverseGeocodeLocation(CLLocation(latitude: 41.15, longitude: -8.61)) }
            #expect(try await CLGeocoder().geocodeAddressString("lisbon").first?.location?.coordinate.latitude == 38.7223)
        }
    }

    @Test func withoutALocationTheManagerIsDeniedAndSaysWhy() async throws {
        await withLocation(nil) {
            let manager = CLLocationManager()
            #expect(manager.authorizationStatus == .denied && manager.location == nil)
            let recorder = Recorder()
            manager.delegate = recorder
            manager.requestLocation()
            #expect(recorder.done.wait(timeout: .now() + 5) == .success)
            #expect((recorder.error as? CLError)?.code == .denied)
            #expect("\(recorder.error!)".contains("WIDGETS_LOCATION"))
        }
    }

    @Test func theFileIsReadWhenTheEnvironmentSaysNothingAndBadLinesAreSkipped() async {
        await withLocation(nil, config: "# my place\nnot a place\n52.52,13.405,Berlin\n") {
            #expect(CLLocationManager().location?.coordinate.longitude == 13.405)
        }
        await withLocation("95,10") { #expect(CLLocationManager().location == nil, "a latitude past 90 is no place") }
    }

    @Test func distancesAreAlongTheEarthsSurface() {
        let lisbon = CLLocation(latitude: 38.7223, longitude: -9.1393)
        let porto = CLLocation(latitude: 41.1579, longitude: -8.6291)
        #expect(abs(lisbon.distance(from: porto) - 274_000) < 2_000)
    }
}
