import CWidgetABI
import Foundation
import Testing
import WidgetTestSupport
import WidgetABI
import WidgetSupport
import WidgetTimelines
import WidgetHost
import WidgetRendering
import WidgetWire

/// Requests through the ABI to real bundles: what a well-behaved provider receives and returns, and
/// how each malformed result is reported, naming the widget, without crashing the host.
@Suite struct ProviderRequestTests {
    static let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["good", "behaviours"]).path])

    func failure(_ kind: String, _ request: RequestKind = .timeline) async -> RequestError? {
        do {
            _ = try await Self.registry.request(request, kind: kind)
            return nil
        } catch {
            return error
        }
    }

    @Test func providerReceivesKindFamilyPreviewAndDisplaySize() async throws {
        let placeholder = try await Self.registry.request(.placeholder, kind: "fixture.good", family: .systemMedium)
        #expect(PlainTextRenderer.lines(placeholder.entries[0].view) == ["fixture.good", "placeholder family 1 preview 1 size 338x158"])
        #expect(placeholder.policy == nil)
        let snapshot = try await Self.registry.request(.snapshot, kind: "fixture.good", isPreview: false)
        #expect(PlainTextRenderer.lines(snapshot.entries[0].view)[1] == "snapshot family 0 preview 0 size 158x158")
    }

    @Test(arguments: ["queue", "process"])
    func theEnvironmentReachesACBundleAsTheHeadersNumbers(isolation: String) async throws {
        // Through a real C bundle, which echoes the request's fields: a Swift value mapped to the
        // wrong constant (two modes swapped) fails here, in this process and through a worker.
        let registry = WidgetRegistry.load(
            searchPath: [Fixtures.directory(["good", "abi-1-0"]).path],
            isolation: isolation == "queue" ? .queue : .process(ProcessIsolation(workerExecutable: Fixtures.workerExecutable)))
        defer { registry.shutDownWorkers() }
        let schemes: [(RenderingEnvironment.ColorScheme, widget_color_scheme_t)] = [(.light, WIDGET_COLOR_SCHEME_LIGHT), (.dark, WIDGET_COLOR_SCHEME_DARK)]
        let modes: [(RenderingEnvironment.RenderingMode, widget_rendering_mode_t)] = [
            (.fullColor, WIDGET_RENDERING_MODE_FULL_COLOR), (.accented, WIDGET_RENDERING_MODE_ACCENTED), (.vibrant, WIDGET_RENDERING_MODE_VIBRANT),
        ]
        for (scheme, schemeConstant) in schemes {
            for (mode, modeConstant) in modes {
                let environment = RenderingEnvironment(colorScheme: scheme, renderingMode: mode, showsContainerBackground: mode != .vibrant)
                let view = try await registry.request(.snapshot, kind: "fixture.good", environment: environment).entries[0].view
                #expect(view["colorScheme"] == .number(Double(schemeConstant.rawValue)), "\(scheme)")
                #expect(view["renderingMode"] == .number(Double(modeConstant.rawValue)), "\(mode)")
                #expect(view["background"] == .bool(mode != .vibrant))
                #expect(view["requestSize"] == .number(81), "a 1.4 bundle gets a 1.4 request")
            }
        }
        // A bundle of ABI 1.0 is shown no field newer than itself: its request ends at 1.0's fields.
        let older = try await registry.request(.snapshot, kind: "fixture.older").entries[0].view
        #expect(older["requestSize"] == .number(48))
        #expect(older["renderingMode"] == nil)
    }

    @Test func timelineCarriesDatesRelevanceAndPolicy() async throws {
        let timeline = try await Self.registry.request(.timeline, kind: "fixture.good")
        #expect(timeline.family == .systemSmall)
        #expect(timeline.entries.map(\.date) == [1_763_750_000])
        #expect(timeline.entries[0].relevance == WireRelevance(score: 0.5, duration: 60))
        #expect(timeline.policy == .after(1_763_750_900))
        #expect(timeline.notes.isEmpty)
    }

    @Test func unknownKindAndUnsupportedFamilyAreClearErrors() async throws {
        let unknown = try #require(await failure("fixture.nope"))
        #expect(unknown.reason == .unknownKind)
        #expect(unknown.description.hasPrefix("widget \"fixture.nope\": no such widget kind; known kinds: "))
        do {
            _ = try await Self.registry.request(.timeline, kind: "fixture.good", family: .accessoryInline)
            Issue.record("an unsupported family must fail")
        } catch {
            #expect(error.reason == .unsupportedFamily)
            #expect(error.description == "widget \"fixture.good\" (good.so): does not support accessoryInline; it supports systemSmall, systemMedium")
        }
    }

    @Test func providerErrorIsReportedWithItsMessage() async throws {
        let error = try #require(await failure("fixture.error"))
        #expect(error.reason == .providerFailed)
        #expect(error.description == "widget \"fixture.error\" (behaviours.so): timeline failed: the server is down")
    }

    @Test func resultStructTooSmallForItsFieldsIsNotRead() async throws {
        let error = try #require(await failure("fixture.small-result"))
        #expect(error.reason == .malformedResult)
        #expect(error.message.hasPrefix("malformed timeline result: widget_result_t.struct_size 8 is smaller than ABI 1.0's "))
    }

    @Test func providerTextCannotForgeAnotherDiagnosticLine() async throws {
        let error = try #require(await failure("fixture.multiline-error"))
        #expect(error.message == "timeline failed: first line widgets: error: a forged line")
        #expect(!error.description.contains("\n"))
    }

    @Test func garbageResultIsAMalformedResultNamingTheWidget() async throws {
        let error = try #require(await failure("fixture.garbage"))
        #expect(error.reason == .malformedResult)
        #expect(error.description.hasPrefix("widget \"fixture.garbage\" (behaviours.so): malformed timeline result: invalid JSON at byte"))
    }

    @Test func entryWithoutADateIsAMalformedResultWithItsPath() async throws {
        let error = try #require(await failure("fixture.missing-date"))
        #expect(error.message == "malformed timeline result: entries[1]: missing \"date\"")
    }

    @Test func unknownPolicyAndMissingPolicyAreRejected() async throws {
        #expect(try #require(await failure("fixture.bad-policy")).message == "malformed timeline result: policy.kind: unknown policy \"sometimes\" (atEnd, after or never)")
        #expect(try #require(await failure("fixture.no-policy")).message == "timeline has no reload policy")
        #expect(try #require(await failure("fixture.empty")).message == "timeline has no entries")
    }

    @Test func snapshotWithTwoEntriesIsRejected() async throws {
        #expect(try #require(await failure("fixture.two-snapshots", .snapshot)).message == "snapshot must have exactly one entry, it has 2")
    }

    @Test func timelineOfTenThousandEntriesIsAccepted() async throws {
        let timeline = try await Self.registry.request(.timeline, kind: "fixture.many")
        #expect(timeline.entries.count == 10_000)
        #expect(timeline.entries.last.map { $0.date == 1_599_940 } == true, "one a minute from 1 000 000")
        #expect(PlainTextRenderer.text(timeline.entries[9_999].view) == "entry 9999")
        #expect(timeline.notes.isEmpty)
    }

    @Test func outOfOrderEntriesAreSortedStablyAndNoted() async throws {
        let timeline = try await Self.registry.request(.timeline, kind: "fixture.unsorted")
        #expect(timeline.entries.map { PlainTextRenderer.text($0.view) } == ["first", "second a", "second b", "third"])
        #expect(timeline.notes == ["entries were not in date order; sorted by date (equal dates keep their order)"])
    }

    @Test func completionFromAnotherThreadAfterReturnIsAccepted() async throws {
        let timeline = try await Self.registry.request(.timeline, kind: "fixture.late")
        #expect(PlainTextRenderer.text(timeline.entries[0].view) == "late")
    }

    @Test func secondCompletionIsIgnoredAndReported() async throws {
        TestLog.start()
        let timeline = try await Self.registry.request(.timeline, kind: "fixture.twice")
        #expect(PlainTextRenderer.text(timeline.entries[0].view) == "once")
        #expect(TestLog.messages.contains { $0.contains("timeline of \"fixture.twice\" in behaviours.so") && $0.contains("already completed or timed out") })
    }
}

/// Every HostLog message of the test process, collected once: tests run in parallel, so each looks
/// for its own messages (they name the test's widget kind) instead of installing a handler.
enum TestLog {
    final class Box: @unchecked Sendable {
        let lock = NSCondition()
        var messages: [String] = []
    }

    static let box: Box = {
        let box = Box()
        HostLog.setHandler { _, message in
            box.lock.withLock {
                box.messages.append(message)
                box.lock.broadcast()
            }
        }
        return box
    }()

    static func start() { _ = box }
    static var messages: [String] { box.lock.withLock { box.messages } }

    /// Blocks until a message satisfies `match`; false after `limit` seconds (a broken test fails,
    /// not hangs). Call it off the cooperative pool.
    static func wait(limit: TimeInterval = 10, for match: (String) -> Bool) -> Bool {
        let giveUp = Date().addingTimeInterval(limit)
        box.lock.lock()
        defer { box.lock.unlock() }
        while !box.messages.contains(where: match) {
            if !box.lock.wait(until: giveUp) { return false }
        }
        return true
    }
}
