// `import Intents`, as SiriKit-configured widget files write it: the SDK's INIntent, INObject and
// INExtension (docs/PORTING.md shows the hand-written intent class Xcode would generate).
@_exported import WidgetKit
// Apple's Intents brings Core Location (its placemarks are CLPlacemarks): intent handlers use CLLocation unimported.
@_exported import CoreLocation
