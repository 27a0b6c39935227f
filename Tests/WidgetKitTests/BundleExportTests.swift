import CWidgetABI
import WidgetABI
import Foundation
import Testing
@testable import WidgetKit
import WidgetTestSupport
import WidgetWire

// The SDK's side of the ABI, driven in-process by a minimal host written against the C header.

struct CountdownEntry: TimelineEntry {
    let date: Date
    let remaining: Int
}

/// Completes from a Task after returning, as an async provider does.
struct TaskProvider: TimelineProvider {
    func placeholder(in context: Context) -> CountdownEntry { CountdownEntry(date: Date(timeIntervalSince1970: 0), remaining: 0) }
    func getSnapshot(in context: Context, completion: @escaping @Sendable (CountdownEntry) -> Void) {
        Task { completion(CountdownEntry(date: Date(timeIntervalSince1970: 100), remaining: context.family == .systemSmall ? 1 : 2)) }
    }
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<CountdownEntry>) -> Void) {
        Task {
            let entries = (0..<3).map { CountdownEntry(date: Date(timeIntervalSince1970: Double(100 + $0)), remaining: 3 - $0) }
            completion(Timeline(entries: entries, policy: .after(Date(timeIntervalSince1970: 500))))
        }
    }
}

struct CountdownWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "test.countdown", provider: TaskProvider()) { entry in
            Text("\(entry.remaining) left")
        }
        .configurationDisplayName("Countdown")
        .supportedFamilies([.systemSmall, .accessoryInline])
    }
}

/// Shows the environment its view was built in.
struct EnvironmentWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "test.environment", provider: TaskProvider()) { _ in EnvironmentReport() }
            .supportedFamilies([.systemSmall, .accessoryCircular])
    }
}

struct EnvironmentReport: View {
    @Environment(\.colorScheme) var colorScheme
    @Environment(\.widgetRenderingMode) var renderingMode
    @Environment(\.showsWidgetContainerBackground) var showsBackground
    var body: some View { Text("\(colorScheme) \(renderingMode) \(showsBackground)") }
}

struct CountdownBundle: WidgetBundle {
    var body: some Widget {
        CountdownWidget()
        EnvironmentWidget()
    }
}

/// What the test host received: registrations during initialize, and completions.
final class TestHost: @unchecked Sendable {
    static let shared = TestHost()
    let lock = NSLock()
    var registered: [(kind: String, name: String, families: UInt32)] = []
    var results: [Int: (status: Int32, text: String)] = [:]
    let arrived = DispatchSemaphore(value: 0)
}

@Suite(.serialized) struct BundleExportTests {
    nonisolated(unsafe) static let entry: UnsafePointer<widget_bundle_t> = {
        let pointer = exportWidgetBundle(CountdownBundle.self, name: "Countdown bundle").assumingMemoryBound(to: widget_bundle_t.self)
        var host = widget_host_t()
        host.abi_version = widget_abi_version_t(major: 1, minor: 1)
        host.struct_size = UInt32(MemoryLayout<widget_host_t>.size)
        host.register_widget = { _, descriptor in
            let d = descriptor!.pointee
            TestHost.shared.lock.withLock {
                TestHost.shared.registered.append((String(cString: d.kind), String(cString: d.display_name), d.families))
            }
            return true
        }
        let hostPointer = UnsafeMutablePointer<widget_host_t>.allocate(capacity: 1)
        hostPointer.initialize(to: host)
        var error = [CChar](repeating: 0, count: 256)
        precondition(pointer.pointee.initialize!(hostPointer, &error, error.count))
        return UnsafePointer(pointer)
    }()

    /// A request through the bundle's entry. `structSize` stands in for an older host's smaller request.
    func request(
        _ kind: UInt32, _ widgetKind: String = "test.countdown", family: WidgetFamily = .systemSmall,
        environment: RenderingEnvironment = RenderingEnvironment(), structSize: Int = MemoryLayout<widget_request_t>.size, id: Int
    ) async -> (status: Int32, text: String) {
        widgetKind.withCString { kindPointer in
            var request = widget_request_t(
                struct_size: UInt32(structSize), request_kind: kind, widget_kind: kindPointer,
                family: family.abiValue, is_preview: false, display_width: 158, display_height: 158, configuration: nil, parameter: nil, url: nil, intent: nil,
                color_scheme: environment.colorScheme.abiValue, rendering_mode: environment.renderingMode.abiValue,
                shows_container_background: environment.showsContainerBackground)
            Self.entry.pointee.request!(&request, { context, result in
                let value = result!.pointee
                let text = value.status == 0
                    ? String(decoding: UnsafeRawBufferPointer(start: value.data, count: value.length), as: UTF8.self)
                    : String(cString: value.error_message)
                TestHost.shared.lock.withLock { TestHost.shared.results[Int(bitPattern: context)] = (value.status, text) }
                TestHost.shared.arrived.signal()
            }, UnsafeMutableRawPointer(bitPattern: id))
        }
        // Waited for off Swift's cooperative pool: the provider completes from a task on it.
        await blocking { TestHost.shared.arrived.wait() }
        return TestHost.shared.lock.withLock { TestHost.shared.results[id]! }
    }

    @Test func entryDescribesTheBundleAndItsVersion() {
        let bundle = Self.entry.pointee
        #expect(bundle.abi_version.major == 1)
        #expect(bundle.abi_version.minor == 7)
        #expect(bundle.memory_limit == 0, "no limit asked for: the host's applies")
        #expect(bundle.struct_size == UInt32(MemoryLayout<widget_bundle_t>.size))
        #expect(String(cString: bundle.name) == "Countdown bundle")
        #expect(String(cString: bundle.built_with) == Toolchain.current)
        let registered = TestHost.shared.lock.withLock { TestHost.shared.registered }
        #expect(registered.map(\.kind) == ["test.countdown", "test.environment"])
        #expect(registered.first?.name == "Countdown")
        #expect(registered.first?.families == WidgetFamily.mask([.systemSmall, .accessoryInline]))
    }

    @Test func timelineCompletedFromATaskArrivesEncoded() async throws {
        let result = await request(UInt32(WIDGET_REQUEST_TIMELINE.rawValue), id: 1)
        #expect(result.status == 0)
        let timeline = try WireTimeline(json: try JSONValue.parse(result.text))
        #expect(timeline.entries.map(\.date) == [100, 101, 102])
        #expect(timeline.entries.map { $0.view["text"] } == ["3 left", "2 left", "1 left"].map(JSONValue.string))
        #expect(timeline.policy == .after(500))
    }

    @Test func contentIsEvaluatedForTheRequestedFamily() async throws {
        let small = try JSONValue.parse(await request(UInt32(WIDGET_REQUEST_SNAPSHOT.rawValue), id: 2).text)
        let inline = try JSONValue.parse(await request(UInt32(WIDGET_REQUEST_SNAPSHOT.rawValue), family: .accessoryInline, id: 3).text)
        #expect(small["entries"]?.arrayValue?.first?["view"]?["text"] == .string("1 left"))
        #expect(inline["entries"]?.arrayValue?.first?["view"]?["text"] == .string("2 left"))
    }

    @Test func placeholderIsRedacted() async throws {
        let json = try JSONValue.parse(await request(UInt32(WIDGET_REQUEST_PLACEHOLDER.rawValue), id: 4).text)
        #expect(json["entries"]?.arrayValue?.first?["view"]?["modifiers"] == .array([.object(JSONObject([("redacted", .string("placeholder"))]))]))
    }

    @Test func viewsAreBuiltForTheRequestsEnvironment() async throws {
        func shown(_ family: WidgetFamily, _ environment: RenderingEnvironment, structSize: Int = MemoryLayout<widget_request_t>.size, id: Int)
            async throws -> JSONValue?
        {
            let text = await request(
                UInt32(WIDGET_REQUEST_SNAPSHOT.rawValue), "test.environment", family: family, environment: environment, structSize: structSize,
                id: id
            ).text
            return try JSONValue.parse(text)["entries"]?.arrayValue?.first?["view"]?["text"]
        }
        #expect(try await shown(.systemSmall, RenderingEnvironment(), id: 20) == .string("light fullColor true"))
        #expect(try await shown(.systemSmall, .standard(for: .systemSmall, colorScheme: .dark, mode: .accented), id: 21) == .string("dark accented true"))
        #expect(try await shown(.accessoryCircular, .standard(for: .accessoryCircular, colorScheme: .dark), id: 22) == .string("dark vibrant false"))
        // A 1.3 host's request ends before the environment: the defaults, whatever lies beyond.
        let olderSize = MemoryLayout<widget_request_t>.offset(of: \.intent)! + MemoryLayout<UnsafeRawPointer>.size
        #expect(
            try await shown(.accessoryCircular, .standard(for: .accessoryCircular, colorScheme: .dark), structSize: olderSize, id: 23)
                == .string("light fullColor true"))
    }

    @Test func unknownKindAndRequestKindAreErrorsNotCrashes() async {
        #expect(await request(UInt32(WIDGET_REQUEST_TIMELINE.rawValue), "test.nope", id: 5) == (1, "this bundle has no widget of kind \"test.nope\""))
        #expect(await request(99, id: 6) == (1, "unknown request kind 99"))
        #expect(await request(UInt32(WIDGET_REQUEST_CONTROL.rawValue), id: 7) == (1, "a widget draws no Live Activity and is no Control (control request)"))
    }
}
