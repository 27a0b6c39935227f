import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

/// A widget author's package outside this repository, depending on it by path as the README says,
/// built with `swift build` and installed into a bundle directory: the whole third-party path.
@Suite struct ThirdPartyBundleTests {
    static let packageSource = #"""
        // swift-tools-version: 6.2
        import PackageDescription

        let package = Package(
            name: "WeatherWidgets",
            products: [.library(name: "WeatherWidgets", type: .dynamic, targets: ["WeatherWidgets"])],
            dependencies: [.package(path: "REPOSITORY")],
            targets: [.target(name: "WeatherWidgets", dependencies: [.product(name: "WidgetKit", package: "IDENTITY")])]
        )
        """#

    // Only `import WidgetKit`: Date and the rest must come with it, as on iOS.
    static let widgetSource = #"""
        import WidgetKit

        struct WeatherEntry: TimelineEntry {
            let date: Date
            let temperature: Int
        }

        struct WeatherProvider: TimelineProvider {
            func placeholder(in context: Context) -> WeatherEntry { WeatherEntry(date: Date(), temperature: 20) }

            func getSnapshot(in context: Context, completion: @escaping (WeatherEntry) -> ()) {
                completion(WeatherEntry(date: Date(), temperature: 18))
            }

            func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<WeatherEntry>) -> ()) {
                // Answer from a Task, after returning, as async data loading does.
                Task {
                    let start = Date(timeIntervalSince1970: 1_800_000_000)
                    let entries = (0..<3).map { WeatherEntry(date: start.addingTimeInterval(Double($0) * 3600), temperature: 15 + $0) }
                    completion(Timeline(entries: entries, policy: .atEnd))
                }
            }
        }

        struct WeatherWidget: Widget {
            let kind: String = "com.example.weather"

            var body: some WidgetConfiguration {
                StaticConfiguration(kind: kind, provider: WeatherProvider()) { entry in
                    WeatherView(entry: entry)
                }
                .configurationDisplayName("Weather")
                .description("Temperature, hour by hour.")
                .contentMarginsDisabled()
            }
        }

        """#

    // A view file as iOS writes it, in its own file.
    static let viewSource = #"""
        import SwiftUI

        struct WeatherView: View {
            @Environment(\.widgetFamily) var family
            var entry: WeatherProvider.Entry

            var body: some View {
                switch family {
                case .systemSmall:
                    Text("\(entry.temperature)°").font(.largeTitle)
                default:
                    HStack {
                        Text("Berlin").bold()
                        Spacer()
                        Text("\(entry.temperature)°")
                    }
                }
            }
        }

        """#

    static let bundleSource = #"""
        import WidgetKit

        struct MoreWidgets: WidgetBundle {
            var body: some Widget { WeatherWidget() }
        }

        struct WeatherBundle: WidgetBundle {
            static let experimental = false
            var body: some Widget {
                MoreWidgets().body
                if Self.experimental { WeatherWidget() }
            }
        }

        @c(widget_bundle_entry) public func widgetBundleEntry() -> UnsafeRawPointer { exportWidgetBundle(WeatherBundle.self) }
        """#

    @Test(.timeLimit(.minutes(10))) func authorsPackageBuildsAgainstThisOneAndLoads() async throws {
        let package = Fixtures.temporaryDirectory("author")
        let sources = package.appendingPathComponent("Sources/WeatherWidgets")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let root = Fixtures.repositoryRoot.path
        try Self.packageSource
            .replacingOccurrences(of: "REPOSITORY", with: root)
            .replacingOccurrences(of: "IDENTITY", with: Fixtures.repositoryRoot.lastPathComponent.lowercased())
            .write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try Self.widgetSource.write(to: sources.appendingPathComponent("Weather.swift"), atomically: true, encoding: .utf8)
        try Self.viewSource.write(to: sources.appendingPathComponent("WeatherView.swift"), atomically: true, encoding: .utf8)
        try Self.bundleSource.write(to: sources.appendingPathComponent("WeatherBundle.swift"), atomically: true, encoding: .utf8)

        let build = await runProcess("/usr/bin/env", ["swift", "build", "--package-path", package.path])
        try #require(build.status == 0, "swift build failed:\n\(build.standardOutput)\n\(build.standardError)")

        let plugins = Fixtures.temporaryDirectory("plugins")
        let built = package.appendingPathComponent(".build/debug/libWeatherWidgets.so")
        try FileManager.default.copyItem(at: built, to: plugins.appendingPathComponent("libWeatherWidgets.so"))

        let list = await widgets(["--plugins", plugins.path, "list", "--json"])
        #expect(list.status == 0, "\(list.standardError)")
        let widget = try #require(JSONValue.parse(list.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))["bundles"]?.arrayValue?.first?["widgets"]?.arrayValue)
        #expect(widget.count == 1, "the if-false widget is not registered")
        #expect(widget.first?["kind"] == .string("com.example.weather"))
        #expect(widget.first?["families"] == .array(["systemSmall", "systemMedium", "systemLarge", "systemExtraLarge"].map(JSONValue.string)))
        #expect(widget.first?["contentMarginsDisabled"] == .bool(true))

        let timeline = await widgets(["--plugins", plugins.path, "timeline", "com.example.weather", "--family", "systemMedium", "--json"])
        #expect(timeline.status == 0, "\(timeline.standardError)")
        let json = try JSONValue.parse(timeline.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(json["entries"]?.arrayValue?.map { $0["text"] } == ["Berlin  15°", "Berlin  16°", "Berlin  17°"].map(JSONValue.string))
        #expect(json["policy"]?["kind"] == .string("atEnd"))
        let small = await widgets(["--plugins", plugins.path, "snapshot", "com.example.weather"])
        #expect(small.standardOutput.hasSuffix("\n  18°\n"))
    }
}
