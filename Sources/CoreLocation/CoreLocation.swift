// Core Location as widget code uses it (a weather or sunrise widget asks where the person is): the
// value types, a location manager and a geocoder with Apple's names and signatures. Linux has no
// location service a widget can ask, so the location is the one the person sets: `WIDGETS_LOCATION`
// in the environment, else the file `$XDG_CONFIG_HOME/widgets/location` (`~/.config/widgets/location`),
// each `LATITUDE,LONGITUDE[,NAME]` (`38.72,-9.14,Lisbon`). With one set, the manager is authorized
// and reports it; without, it is denied and says so through its delegate, as iOS does when a person
// declines (docs/PORTING.md).
@_exported import Foundation
import WidgetWire

public typealias CLLocationDegrees = Double
public typealias CLLocationDistance = Double
public typealias CLLocationAccuracy = Double
public typealias CLLocationSpeed = Double
public typealias CLLocationDirection = Double

public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 3000
public let kCLDistanceFilterNone: CLLocationDistance = -1

public struct CLLocationCoordinate2D: Hashable, Sendable, Codable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init() { (latitude, longitude) = (0, 0) }
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    (-90...90).contains(coordinate.latitude) && (-180...180).contains(coordinate.longitude)
}

public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// A place and when it was known.
open class CLLocation: NSObject, @unchecked Sendable {
    public let coordinate: CLLocationCoordinate2D
    public let altitude: CLLocationDistance
    public let horizontalAccuracy: CLLocationAccuracy
    public let verticalAccuracy: CLLocationAccuracy
    public let speed: CLLocationSpeed
    public let course: CLLocationDirection
    public let timestamp: Date

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
        verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection = -1, speed: CLLocationSpeed = -1, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
        self.timestamp = timestamp
    }

    public convenience init(coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy, verticalAccuracy: CLLocationAccuracy, timestamp: Date) {
        self.init(coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy, course: -1, speed: -1, timestamp: timestamp)
    }

    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0, horizontalAccuracy: 0, verticalAccuracy: -1,
            timestamp: Date())
    }

    /// The distance along the Earth's surface, in metres (the great circle on a sphere of the
    /// Earth's mean radius).
    public func distance(from location: CLLocation) -> CLLocationDistance {
        let radius = 6_371_008.8
        func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
        let (phi1, phi2) = (radians(coordinate.latitude), radians(location.coordinate.latitude))
        let deltaPhi = phi2 - phi1
        let deltaLambda = radians(location.coordinate.longitude - coordinate.longitude)
        let a = sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
        return 2 * radius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    open override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m"
    }
}

/// Why location failed, with Core Location's codes.
public struct CLError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: Int, Sendable {
        case locationUnknown = 0, denied = 1, network = 2, headingFailure = 3, regionMonitoringDenied = 4, regionMonitoringFailure = 5
        case regionMonitoringSetupDelayed = 6, regionMonitoringResponseDelayed = 7, geocodeFoundNoResult = 8, geocodeFoundPartialResult = 9
        case geocodeCanceled = 10, deferredFailed = 11, promptDeclined = 18
    }

    public let code: Code
    public init(_ code: Code) { self.code = code }

    public static let locationUnknown = Code.locationUnknown
    public static let denied = Code.denied
    public static let network = Code.network
    public static let geocodeFoundNoResult = Code.geocodeFoundNoResult

    public var description: String {
        switch code {
        case .denied: "no location is set here (WIDGETS_LOCATION, or ~/.config/widgets/location: LATITUDE,LONGITUDE[,NAME])"
        case .geocodeFoundNoResult: "no place is known for that here: only the location set has a name"
        default: "location failed (Core Location code \(code.rawValue))"
        }
    }

    public var localizedDescription: String { description }
}

public enum CLAuthorizationStatus: Int32, Sendable {
    case notDetermined = 0, restricted = 1, denied = 2, authorizedAlways = 3, authorizedWhenInUse = 4
    @available(*, deprecated, renamed: "authorizedAlways")
    public static var authorized: CLAuthorizationStatus { .authorizedAlways }
}

public enum CLAccuracyAuthorization: Int, Sendable {
    case fullAccuracy = 0, reducedAccuracy = 1
}

public enum CLActivityType: Int, Sendable {
    case other = 1, automotiveNavigation, fitness, otherNavigation, airborne
}

/// The location the person set, read when asked: `WIDGETS_LOCATION`, else the file.
enum SetLocation {
    struct Place {
        let location: CLLocation
        let name: String?
    }

    /// The environment read in place of the process's (tests set it: `setenv` beside other
    /// threads reading the environment is a race in glibc).
    nonisolated(unsafe) static var environment: [String: String]?

    static var current: Place? {
        let environment = Self.environment ?? ProcessInfo.processInfo.environment
        if let given = environment["WIDGETS_LOCATION"], let place = parse(given) { return place }
        let file = XDGBaseDirectory.configHome(environment) + "/widgets/location"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return text.split(whereSeparator: \.isNewline).lazy.map(String.init).filter { !$0.hasPrefix("#") }.compactMap(parse).first
    }

    /// `LATITUDE,LONGITUDE[,NAME]`; nil for anything else.
    static func parse(_ text: String) -> Place? {
        let parts = text.split(separator: ",", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count >= 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: latitude, longitude: longitude))
        else { return nil }
        let name = parts.count > 2 && !parts[2].isEmpty ? parts[2] : nil
        return Place(location: CLLocation(latitude: latitude, longitude: longitude), name: name)
    }
}

/// What a location manager tells: locations, failures, authorization changes. Every method is
/// optional, as Apple's are.
public protocol CLLocationManagerDelegate: AnyObject {
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    func locationManager(_ manager: CLLocationManager, didFailWithError error: Error)
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
}

extension CLLocationManagerDelegate {
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {}
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
    public func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {}
}

/// Reports the location the person set (see the top of this file), to its delegate on a queue of
/// its own, as Core Location reports on another thread than the caller's.
open class CLLocationManager: NSObject, @unchecked Sendable {
    /// Told the authorization at once when set, as iOS tells a new delegate
    /// (`locationManagerDidChangeAuthorization`), which helpers wait for before asking the location.
    open weak var delegate: CLLocationManagerDelegate? {
        didSet { if delegate != nil { tellAuthorization() } }
    }
    open var desiredAccuracy: CLLocationAccuracy = kCLLocationAccuracyBest
    open var distanceFilter: CLLocationDistance = kCLDistanceFilterNone
    open var activityType: CLActivityType = .other
    open var pausesLocationUpdatesAutomatically = true
    open var allowsBackgroundLocationUpdates = false
    open var showsBackgroundLocationIndicator = false

    private let queue = DispatchQueue(label: "CLLocationManager")

    public override init() { super.init() }

    /// Authorized when a location is set, denied when none is.
    open var authorizationStatus: CLAuthorizationStatus { Self.authorizationStatus() }
    open class func authorizationStatus() -> CLAuthorizationStatus { SetLocation.current == nil ? .denied : .authorizedWhenInUse }
    open class func locationServicesEnabled() -> Bool { SetLocation.current != nil }
    open var accuracyAuthorization: CLAccuracyAuthorization { .fullAccuracy }
    /// Whether a widget may be told the location: as the manager is authorized.
    open var isAuthorizedForWidgetUpdates: Bool { authorizationStatus == .authorizedWhenInUse }
    open var location: CLLocation? { SetLocation.current?.location }

    open func requestWhenInUseAuthorization() { tellAuthorization() }
    open func requestAlwaysAuthorization() { tellAuthorization() }
    open func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) {}
    open func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String, completion: (@Sendable (Error?) -> Void)? = nil) {
        completion?(nil)
    }

    /// One location, or why there is none.
    open func requestLocation() { report() }
    open func startUpdatingLocation() { report() }
    open func stopUpdatingLocation() {}
    open func startMonitoringSignificantLocationChanges() { report() }
    open func stopMonitoringSignificantLocationChanges() {}

    private func tellAuthorization() {
        queue.async { [weak self] in
            guard let self, let delegate = self.delegate else { return }
            delegate.locationManagerDidChangeAuthorization(self)
            delegate.locationManager(self, didChangeAuthorization: self.authorizationStatus)
        }
    }

    private func report() {
        queue.async { [weak self] in
            guard let self, let delegate = self.delegate else { return }
            if let place = SetLocation.current {
                delegate.locationManager(self, didUpdateLocations: [place.location])
            } else {
                delegate.locationManager(self, didFailWithError: CLError(.denied))
            }
        }
    }
}

/// A place's description.
open class CLPlacemark: NSObject, @unchecked Sendable {
    public let location: CLLocation?
    public let name: String?
    public let locality: String?
    public let subLocality: String?
    public let administrativeArea: String?
    public let subAdministrativeArea: String?
    public let country: String?
    public let isoCountryCode: String?
    public let postalCode: String?
    public let thoroughfare: String?
    public let subThoroughfare: String?
    public let timeZone: TimeZone?

    public init(location: CLLocation?, name: String?, locality: String?, country: String? = nil, timeZone: TimeZone? = nil) {
        self.location = location
        self.name = name
        self.locality = locality
        self.country = country
        self.timeZone = timeZone
        subLocality = nil
        administrativeArea = nil
        subAdministrativeArea = nil
        isoCountryCode = nil
        postalCode = nil
        thoroughfare = nil
        subThoroughfare = nil
    }

    public convenience init(placemark: CLPlacemark) {
        self.init(location: placemark.location, name: placemark.name, locality: placemark.locality, country: placemark.country, timeZone: placemark.timeZone)
    }
}

public typealias CLGeocodeCompletionHandler = @Sendable ([CLPlacemark]?, Error?) -> Void

/// Names places without a geocoding service: the location set has the name it was set with (a
/// location within 10 km of it is that place); anything else is `geocodeFoundNoResult`.
open class CLGeocoder: NSObject, @unchecked Sendable {
    public override init() { super.init() }

    open var isGeocoding: Bool { false }
    open func cancelGeocode() {}

    open func reverseGeocodeLocation(_ location: CLLocation) async throws -> [CLPlacemark] {
        guard let place = SetLocation.current, let name = place.name, place.location.distance(from: location) <= 10_000 else {
            throw CLError(.geocodeFoundNoResult)
        }
        return [CLPlacemark(location: place.location, name: name, locality: name, timeZone: .current)]
    }

    open func reverseGeocodeLocation(_ location: CLLocation, preferredLocale locale: Locale?) async throws -> [CLPlacemark] {
        try await reverseGeocodeLocation(location)
    }

    open func reverseGeocodeLocation(_ location: CLLocation, completionHandler: @escaping CLGeocodeCompletionHandler) {
        complete(completionHandler) { try await self.reverseGeocodeLocation(location) }
    }

    open func reverseGeocodeLocation(_ location: CLLocation, preferredLocale locale: Locale?, completionHandler: @escaping CLGeocodeCompletionHandler) {
        reverseGeocodeLocation(location, completionHandler: completionHandler)
    }

    open func geocodeAddressString(_ addressString: String) async throws -> [CLPlacemark] {
        guard let place = SetLocation.current, let name = place.name,
            name.compare(addressString.trimmingCharacters(in: .whitespaces), options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
        else {
            throw CLError(.geocodeFoundNoResult)
        }
        return [CLPlacemark(location: place.location, name: name, locality: name, timeZone: .current)]
    }

    open func geocodeAddressString(_ addressString: String, completionHandler: @escaping CLGeocodeCompletionHandler) {
        complete(completionHandler) { try await self.geocodeAddressString(addressString) }
    }

    private func complete(_ handler: @escaping CLGeocodeCompletionHandler, _ work: @escaping @Sendable () async throws -> [CLPlacemark]) {
        Task {
            do { handler(try await work(), nil) } catch { handler(nil, error) }
        }
    }
}
