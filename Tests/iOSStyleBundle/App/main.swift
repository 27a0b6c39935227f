import Foundation
import WidgetKit

// The app's side of the App Group, as an iOS app writes it: no synchronize().
let defaults = UserDefaults(suiteName: "group.org.example.ioswidgets")!
let count = Int(CommandLine.arguments.dropFirst().first ?? "1") ?? 1
defaults.set(count, forKey: "appCount")
print("appCount = \(count)")
