import Foundation
import Testing
import WidgetHost
import WidgetWire

/// Requests through the ABI to real bundles: what a well-behaved provider receives and returns, and
/// how each malformed result is reported, naming the widget, without crashing the host.
@Suite struct ProviderRequestTests {
    static let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["good", "behaviours"]).path])

    func failure(_ kind: String, _ request: RequestKind = .timeline, deadlines: RequestDeadlines = .default) -> RequestError? {
        do {
            _ = try Self.registry.request(request, kind: kind, deadlines: deadlines)
            return nil
        } catch {
            return error
        }
    }

    @Test func providerReceivesKindFamilyPreviewAndDisplaySize() throws {
        let placeholder = try Self.registry.request(.placeholder, kind: "fixture.good", family: .systemMedium)
        #expect(PlainTextRenderer.lines(placeholder.entries[0].view) == ["fixture.good", "placeholder family 1 preview 1 size 338x158"])
        #expect(placeholder.policy == nil)
        let snapshot = try Self.registry.request(.snapshot, kind: "fixture.good", isPreview: false)
        #expect(PlainTextRenderer.lines(snapshot.entries[0].view)[1] == "snapshot family 0 preview 0 size 158x158")
    }

    @Test func timelineCarriesDatesRelevanceAndPolicy() throws {
        let timeline = try Self.registry.request(.timeline, kind: "fixture.good")
        #expect(timeline.family == .systemSmall)
        #expect(timeline.entries.map(\.date) == [1_763_750_000])
        #expect(timeline.entries[0].relevance == WireRelevance(score: 0.5, duration: 60))
        #expect(timeline.policy == .after(1_763_750_900))
        #expect(timeline.notes.isEmpty)
    }

    @Test func unknownKindAndUnsupportedFamilyAreClearErrors() throws {
        let unknown = try #require(failure("fixture.nope"))
        #expect(unknown.reason == .unknownKind)
        #expect(unknown.description.hasPrefix("widget \"fixture.nope\": no such widget kind; known kinds: "))
        do {
            _ = try Self.registry.request(.timeline, kind: "fixture.good", family: .accessoryInline)
            Issue.record("an unsupported family must fail")
        } catch {
            #expect(error.reason == .unsupportedFamily)
            #expect(error.description == "widget \"fixture.good\" (good.so): does not support accessoryInline; it supports systemSmall, systemMedium")
        }
    }

    @Test func providerErrorIsReportedWithItsMessage() throws {
        let error = try #require(failure("fixture.error"))
        #expect(error.reason == .providerFailed)
        #expect(error.description == "widget \"fixture.error\" (behaviours.so): timeline failed: the server is down")
    }

    @Test func garbageResultIsAMalformedResultNamingTheWidget() throws {
        let error = try #require(failure("fixture.garbage"))
        #expect(error.reason == .malformedResult)
        #expect(error.description.hasPrefix("widget \"fixture.garbage\" (behaviours.so): malformed timeline result: invalid JSON at byte"))
    }

    @Test func entryWithoutADateIsAMalformedResultWithItsPath() throws {
        let error = try #require(failure("fixture.missing-date"))
        #expect(error.message == "malformed timeline result: entries[1]: missing \"date\"")
    }

    @Test func unknownPolicyAndMissingPolicyAreRejected() throws {
        #expect(try #require(failure("fixture.bad-policy")).message == "malformed timeline result: policy.kind: unknown policy \"sometimes\" (atEnd, after or never)")
        #expect(try #require(failure("fixture.no-policy")).message == "timeline has no reload policy")
        #expect(try #require(failure("fixture.empty")).message == "timeline has no entries")
    }

    @Test func snapshotWithTwoEntriesIsRejected() throws {
        #expect(try #require(failure("fixture.two-snapshots", .snapshot)).message == "snapshot must have exactly one entry, it has 2")
    }

    @Test func outOfOrderEntriesAreSortedStablyAndNoted() throws {
        let timeline = try Self.registry.request(.timeline, kind: "fixture.unsorted")
        #expect(timeline.entries.map { PlainTextRenderer.text($0.view) } == ["first", "second a", "second b", "third"])
        #expect(timeline.notes == ["entries were not in date order; sorted by date (equal dates keep their order)"])
    }

    @Test func completionFromAnotherThreadAfterReturnIsAccepted() throws {
        let timeline = try Self.registry.request(.timeline, kind: "fixture.late")
        #expect(PlainTextRenderer.text(timeline.entries[0].view) == "late")
    }

    @Test func secondCompletionIsIgnoredAndReported() throws {
        let (messages, restore) = captureHostLog()
        defer { restore() }
        let timeline = try Self.registry.request(.timeline, kind: "fixture.twice")
        #expect(PlainTextRenderer.text(timeline.entries[0].view) == "once")
        #expect(messages().contains { $0.contains("timeline of \"fixture.twice\" in behaviours.so") && $0.contains("already completed or timed out") })
    }

    @Test func completionThatNeverComesTimesOut() throws {
        let short = RequestDeadlines(placeholder: .milliseconds(50), snapshot: .milliseconds(50), timeline: .milliseconds(50))
        let error = try #require(failure("fixture.never", deadlines: short))
        #expect(error.reason == .timedOut)
        #expect(error.message == "timeline did not complete within 0.05 seconds")
    }
}

/// Collects HostLog messages for the duration of a test.
func captureHostLog() -> (() -> [String], () -> Void) {
    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var messages: [String] = []
    }
    let box = Box()
    let previous = HostLog.setHandler { _, message in box.lock.withLock { box.messages.append(message) } }
    return ({ box.lock.withLock { box.messages } }, { HostLog.setHandler(previous) })
}
