import Foundation

/// A distance as the trip widget shows it.
public func distanceText(kilometers: Double, inMiles: Bool) -> String {
    inMiles ? "\(Int((kilometers / 1.609_344).rounded())) mi" : "\(Int(kilometers.rounded())) km"
}
