// The app: a member of the Trips target only. It does not compile into the widget extension (there
// is no App protocol there), which is how a test sees that the extension's files are the target's.
import SwiftUI

@main
struct TripsApp: App {
    var body: some Scene {
        WindowGroup { Text("Trips") }
    }
}
