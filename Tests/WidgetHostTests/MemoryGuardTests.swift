import Foundation
import Testing
import WidgetHost
import WidgetWire

/// The in-process memory guard, through real bundles: the test process embeds the host, so its
/// allocations go through the guard as a host's do.
@Suite struct MemoryGuardTests {
    @Test func guardIsActiveInAProcessThatEmbedsTheHost() {
        #expect(MemoryGuard.isActive)
    }

    @Test func providerOver30MBIsTerminatedWithItsPeakAndLimitAndStartsAfresh() async throws {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["good", "behaviours"]).path])
        do {
            _ = try await registry.request(.timeline, kind: "fixture.hog")
            Issue.record("a provider holding 100 MB must fail")
        } catch {
            #expect(error.reason == .memoryLimitExceeded)
            #expect(
                error.description
                    == "widget \"fixture.hog\" (behaviours.so): exceeded its memory limit: peak 100.0 MB, limit 30.0 MB; terminated, it starts afresh on the next request")
        }
        var statistics = try #require(registry.statistics(kind: "fixture.hog"))
        #expect(statistics.terminations == 1)
        #expect(statistics.liveBytes == 0, "the new run counts from zero")
        #expect(statistics.peakBytes.map { (100 << 20)...(101 << 20) ~= $0 } == true, "peak \(String(describing: statistics.peakBytes))")
        #expect(statistics.failures == 1)

        // Started afresh: it runs again (and, leaking again, is terminated again); others are untouched.
        await #expect(throws: RequestError.self) { try await registry.request(.timeline, kind: "fixture.hog") }
        statistics = try #require(registry.statistics(kind: "fixture.hog"))
        #expect(statistics.terminations == 2)
        #expect(statistics.calls == 2)
        _ = try await registry.request(.timeline, kind: "fixture.good")
        #expect(registry.statistics(kind: "fixture.good")?.terminations == 0)
    }

    @Test func providerThatUses29MBAndFreesItPasses() async throws {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["behaviours"]).path])
        let result = try await registry.request(.timeline, kind: "fixture.spike")
        #expect(PlainTextRenderer.text(result.entries[0].view) == "spike")
        let statistics = try #require(registry.statistics(kind: "fixture.spike"))
        #expect(statistics.peakBytes.map { $0 >= 29 << 20 && $0 < 30 << 20 } == true, "peak \(String(describing: statistics.peakBytes))")
        #expect(statistics.liveBytes.map { $0 < 1 << 20 } == true, "freed again: live \(String(describing: statistics.liveBytes))")
        #expect(statistics.terminations == 0)
    }

    @Test func limitIsAHostSetting() async throws {
        let registry = WidgetRegistry(memoryLimit: 20 << 20)
        registry.loadDirectory(Fixtures.directory(["behaviours"]).path)
        do {
            _ = try await registry.request(.timeline, kind: "fixture.spike")
            Issue.record("29 MB is over a 20 MB limit")
        } catch {
            #expect(error.message.hasPrefix("exceeded its memory limit: peak 29.0 MB, limit 20.0 MB"))
        }
    }

    @Test func bundleCanLowerItsLimitButNotRaiseIt() async throws {
        let lowered = WidgetRegistry.load(searchPath: [Fixtures.directory(["memory-limit-10"]).path])
        do {
            _ = try await lowered.request(.timeline, kind: "fixture.spike")
            Issue.record("29 MB is over the bundle's own 10 MB limit")
        } catch {
            #expect(error.message.hasPrefix("exceeded its memory limit: peak 29.0 MB, limit 10.0 MB"))
        }
        let raised = WidgetRegistry.load(searchPath: [Fixtures.directory(["memory-limit-99"]).path])
        do {
            _ = try await raised.request(.timeline, kind: "fixture.hog")
            Issue.record("asking for 99 MB does not lift the host's 30 MB")
        } catch {
            #expect(error.message.hasPrefix("exceeded its memory limit: peak 100.0 MB, limit 30.0 MB"))
        }
    }

    @Test func swiftProvidersAreChargedForWhatTheyHold() async throws {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["libSystemWidgets.so"]).path])
        _ = try await registry.request(.timeline, kind: "org.widgets.system.clock")
        let statistics = try #require(registry.statistics(kind: "org.widgets.system.clock"))
        #expect(statistics.calls == 1)
        #expect(statistics.peakBytes.map { $0 > 0 } == true, "rendering 60 entries allocates")
    }
}
