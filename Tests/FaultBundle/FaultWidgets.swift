import WidgetKit

// A Swift bundle that fails as Swift code fails: a widget whose timeline calls fatalError, and a
// well-behaved one beside it in the same bundle (and so the same worker process), and one that
// shows the environment its view was built in. Built with the package, for the process isolation tests.

struct FaultWidgets: WidgetBundle {
    var body: some Widget {
        FatalErrorWidget()
        SteadyWidget()
        EnvironmentWidget()
    }
}

@c(widget_bundle_entry) public func widgetBundleEntry() -> UnsafeRawPointer { exportWidgetBundle(FaultWidgets.self) }

struct FaultEntry: TimelineEntry {
    let date: Date
}

struct FatalErrorProvider: TimelineProvider {
    func placeholder(in context: Context) -> FaultEntry { FaultEntry(date: Date(timeIntervalSince1970: 0)) }

    func getSnapshot(in context: Context, completion: @escaping (FaultEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<FaultEntry>) -> Void) {
        fatalError("the fault bundle's timeline gives up")
    }
}

struct SteadyProvider: TimelineProvider {
    func placeholder(in context: Context) -> FaultEntry { FaultEntry(date: Date(timeIntervalSince1970: 0)) }

    func getSnapshot(in context: Context, completion: @escaping (FaultEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<FaultEntry>) -> Void) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .never))
    }
}

struct FatalErrorWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "fault.fatal-error", provider: FatalErrorProvider()) { _ in Text("never shown") }
            .configurationDisplayName("Fatal error")
    }
}

struct SteadyWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "fault.steady", provider: SteadyProvider()) { _ in Text("steady") }
            .configurationDisplayName("Steady")
    }
}

/// Shows the environment the host asked for, as its view read it.
struct EnvironmentWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "fault.environment", provider: SteadyProvider()) { _ in EnvironmentText() }
            .supportedFamilies([.systemSmall, .accessoryCircular])
    }
}

struct EnvironmentText: View {
    @Environment(\.colorScheme) var colorScheme
    @Environment(\.widgetRenderingMode) var renderingMode
    @Environment(\.showsWidgetContainerBackground) var showsBackground
    var body: some View { Text("\(colorScheme) \(renderingMode) \(showsBackground)") }
}
