import CWidgetABI
import Foundation
import Testing
@testable import WidgetKit
import WidgetWire

struct DatedEntry: TimelineEntry {
    let date: Date
}

struct FixedProvider: TimelineProvider {
    func placeholder(in context: Context) -> DatedEntry { DatedEntry(date: Date(timeIntervalSince1970: 0)) }
    func getSnapshot(in context: Context, completion: @escaping (DatedEntry) -> ()) { completion(placeholder(in: context)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<DatedEntry>) -> ()) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .never))
    }
}

struct NamedWidget<Name: WidgetName>: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: Name.kind, provider: FixedProvider()) { _ in Text(Name.kind) }
    }
}

protocol WidgetName { static var kind: String { get } }
enum First: WidgetName { static let kind = "first" }
enum Second: WidgetName { static let kind = "second" }
enum Third: WidgetName { static let kind = "third" }

struct InnerBundle: WidgetBundle {
    var body: some Widget {
        NamedWidget<Second>()
        NamedWidget<Third>()
    }
}

struct OuterBundle: WidgetBundle {
    nonisolated(unsafe) static var includeOptional = false
    nonisolated(unsafe) static var useFirstBranch = true

    var body: some Widget {
        NamedWidget<First>()
        InnerBundle().body
        if Self.includeOptional {
            NamedWidget<Third>()
        }
        if Self.useFirstBranch {
            NamedWidget<First>()
        } else {
            NamedWidget<Second>()
        }
    }
}

@Suite(.serialized) struct WidgetDeclarationTests {
    func kinds<B: WidgetBundle>(_ bundle: B) -> [String] { bundle.body._definitions().map(\.kind) }

    @Test func bundleBuilderKeepsOrderAndNestsAnotherBundlesBody() {
        OuterBundle.includeOptional = false
        OuterBundle.useFirstBranch = true
        #expect(kinds(OuterBundle()) == ["first", "second", "third", "first"])
    }

    @Test func bundleBuilderHonoursIfAndElse() {
        OuterBundle.includeOptional = true
        OuterBundle.useFirstBranch = false
        defer {
            OuterBundle.includeOptional = false
            OuterBundle.useFirstBranch = true
        }
        #expect(kinds(OuterBundle()) == ["first", "second", "third", "third", "second"])
    }

    @Test func staticConfigurationDefaultsToTheSystemFamilies() throws {
        let definition = try #require(NamedWidget<First>().body._definitions().first)
        #expect(definition.families == [.systemSmall, .systemMedium, .systemLarge, .systemExtraLarge])
        #expect(definition.displayName == "")
        #expect(definition.contentMarginsDisabled == false)
        #expect(definition.configurationKind == .static)
    }

    @Test func configurationModifiersSetTheDescriptor() throws {
        let configuration = StaticConfiguration(kind: "k", provider: FixedProvider()) { _ in Text("x") }
            .configurationDisplayName("Name")
            .description("Says things")
            .supportedFamilies([.accessoryInline, .systemSmall])
            .contentMarginsDisabled()
        let definition = try #require(configuration._definitions().first)
        #expect(definition.kind == "k")
        #expect(definition.displayName == "Name")
        #expect(definition.description == "Says things")
        #expect(definition.families == [.accessoryInline, .systemSmall])
        #expect(definition.contentMarginsDisabled)
    }

    @Test func timelineTypesKeepApplesDefaults() {
        #expect(DatedEntry(date: Date()).relevance == nil)
        #expect(TimelineEntryRelevance(score: 2).duration == 0)
        let date = Date(timeIntervalSince1970: 1234)
        #expect(TimelineReloadPolicy.after(date).wire == .after(1234))
        #expect(TimelineReloadPolicy.atEnd.wire == .atEnd)
        #expect(TimelineReloadPolicy.never.wire == .never)
        #expect(Timeline(entries: [DatedEntry(date: date)], policy: .never).entries.map(\.date) == [date])
    }
}
