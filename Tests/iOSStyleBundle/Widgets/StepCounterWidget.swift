import AppIntents
import SwiftUI
import WidgetKit

// App Intents' static requirements are not isolated, as Apple's: Swift 5 code declares them as stored
// `static var`s (Xcode 15's templates), which Swift 6 refuses on iOS as here ("not concurrency-safe"),
// so Swift 6 code writes `static let` or a computed `static var` (Xcode 16's templates).
enum Goal: String, AppEnum {
    case walk, run, climb

    #if swift(>=6.0)
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Goal"
    static var caseDisplayRepresentations: [Goal: DisplayRepresentation] { [.walk: "Walk", .run: "Run", .climb: "Climb"] }
    #else
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Goal"
    static var caseDisplayRepresentations: [Goal: DisplayRepresentation] = [
        .walk: "Walk",
        .run: "Run",
        .climb: "Climb",
    ]
    #endif

    /// Read from a view's body, not isolated to the main actor.
    var title: String { String(localized: Self.caseDisplayRepresentations[self]?.title ?? "\(rawValue)", comment: "A goal") }
}

struct Trail: AppEntity {
    let id: String
    let name: String

    #if swift(>=6.0)
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Trail"
    static let defaultQuery = TrailQuery()
    #else
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Trail"
    static var defaultQuery = TrailQuery()
    #endif

    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)") }

    static let all = [Trail(id: "coast", name: "Coast Path"), Trail(id: "ridge", name: "Ridge Walk")]
}

struct TrailQuery: EntityQuery {
    // The goal chosen so far (iOS 17's parameter dependency): a climb has one trail.
    @IntentParameterDependency<StepGoalIntent>(\.$goal)
    var intent

    // Resolving the configuration for a timeline, the goal is there too: a climb's trail says so.
    func entities(for identifiers: [Trail.ID]) async throws -> [Trail] {
        let climbing = intent?.goal == .climb
        return Trail.all.filter { identifiers.contains($0.id) }.map { climbing ? Trail(id: $0.id, name: $0.name + " (climb)") : $0 }
    }

    func suggestedEntities() async throws -> [Trail] {
        intent?.goal == .climb ? Trail.all.filter { $0.id == "ridge" } : Trail.all
    }
}

// As Xcode's templates write it: `static var` declarations (stored in Swift 5, computed in Swift 6),
// a non-optional description (runtime bug 6) and a parameter summary.
struct StepGoalIntent: WidgetConfigurationIntent {
    #if swift(>=6.0)
    static var title: LocalizedStringResource { "Step Goal" }
    static var description: IntentDescription { IntentDescription("Choose a goal and a trail.") }
    #else
    static var title: LocalizedStringResource = "Step Goal"
    static var description = IntentDescription("Choose a goal and a trail.")
    #endif

    @Parameter(title: "Goal", default: .walk)
    var goal: Goal

    @Parameter(title: "Steps", default: 8000, inclusiveRange: (1000, 50000))
    var steps: Int

    @Parameter(title: "Trail")
    var trail: Trail?

    @Parameter(title: "Also Walked", size: 2)
    var alsoWalked: [Trail]?

    static var parameterSummary: some ParameterSummary {
        When(\.$goal, .equalTo, .climb) {
            Summary("Climb \(\.$trail)") {
                \.$steps
            }
        } otherwise: {
            Summary {
                \.$goal
                \.$steps
            }
        }
    }
}

struct StepEntry: TimelineEntry {
    let date: Date
    let configuration: StepGoalIntent
    let steps: Int
}

struct StepProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> StepEntry {
        StepEntry(date: Date(), configuration: StepGoalIntent(), steps: 4200)
    }

    func snapshot(for configuration: StepGoalIntent, in context: Context) async -> StepEntry {
        StepEntry(date: Date(), configuration: configuration, steps: 4200)
    }

    func timeline(for configuration: StepGoalIntent, in context: Context) async -> Timeline<StepEntry> {
        Timeline(entries: [StepEntry(date: Date(), configuration: configuration, steps: 5100)], policy: .after(Date().addingTimeInterval(900)))
    }
}

struct StepCounterView: View {
    var entry: StepEntry

    var body: some View {
        VStack(alignment: .leading) {
            Text(entry.configuration.goal.title)
                .font(.headline)
                .textCase(.uppercase)
            Gauge(value: Double(entry.steps), in: 0...Double(entry.configuration.steps)) {
                Text("Steps")
            } currentValueLabel: {
                Text("\(entry.steps)")
            }
            .gaugeStyle(.accessoryCircularCapacity)
            .tint(.green)
            if let trail = entry.configuration.trail {
                Text(trail.name).font(.caption).foregroundStyle(.secondary)
            }
            if let walked = entry.configuration.alsoWalked, !walked.isEmpty {
                Text("Also: " + walked.map(\.name).joined(separator: ", ")).font(.caption2)
            }
        }
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

struct StepCounterWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "org.example.steps", intent: StepGoalIntent.self, provider: StepProvider()) { entry in
            StepCounterView(entry: entry)
        }
        .configurationDisplayName("Steps")
        .description("Steps towards today's goal.")
        .supportedFamilies([.systemSmall, .accessoryCircular])
    }
}

#Preview(as: .systemSmall) {
    StepCounterWidget()
} timeline: {
    StepEntry(date: .now, configuration: StepGoalIntent(), steps: 7000)
}
