// As on iOS, where WidgetKit brings SwiftUI and Foundation with it, `import WidgetKit` is all a widget
// file needs: Date, Calendar, URL and the rest come along.
@_exported import Foundation
// On Linux, URLSession, URLRequest and HTTPURLResponse live in a module of their own; Apple's
// Foundation has them. Widget code that fetches over the network finds them as it does on iOS.
@_exported import FoundationNetworking

// What Darwin has that widget code uses and Linux lacks (NSEC_PER_SEC, DispatchSerialQueue, ...).
@_exported import PlatformShims
// SwiftUI brings Combine (ObservableObject, @Published, publishers), which Linux does not have.
@_exported import Combine
// And, from iOS 17, Observation (`@Observable`), which the toolchain has.
@_exported import Observation
