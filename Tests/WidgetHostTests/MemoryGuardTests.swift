import CMemoryGuard
import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

import WidgetABI
import WidgetSupport
import WidgetTimelines
@testable import WidgetHost
import WidgetRendering

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
        #expect(statistics.failures == 1)
        #expect(statistics.peakBytes.map { (100 << 20)...(101 << 20) ~= $0 } == true, "peak \(String(describing: statistics.peakBytes))")
        // Its leak is still in the process, and still its own.
        #expect(statistics.retainedBytes.map { $0 >= 100 << 20 } == true)
        #expect(statistics.liveBytes == statistics.retainedBytes)

        // What it still holds is over its limit: quarantined, the request is not sent.
        do {
            _ = try await registry.request(.timeline, kind: "fixture.hog")
            Issue.record("a provider whose dead runs hold its limit must not run again")
        } catch {
            #expect(error.reason == .refused)
            #expect(error.message.hasPrefix("quarantined: its terminated runs still hold 100.0 MB, at or over its limit of 30.0 MB"))
        }
        statistics = try #require(registry.statistics(kind: "fixture.hog"))
        #expect(statistics.terminations == 1)
        #expect(statistics.calls == 2)
        _ = try await registry.request(.timeline, kind: "fixture.good")
        #expect(registry.statistics(kind: "fixture.good")?.terminations == 0)
    }

    @Test func terminatedProviderThatFreedItsMemoryStartsAfresh() async throws {
        let registry = WidgetRegistry(memoryLimit: 20 << 20)
        registry.loadDirectory(Fixtures.directory(["behaviours"]).path)
        for run in 1...2 {
            // 29 MB over a 20 MB limit, then freed: terminated each time, and each time started afresh.
            await #expect(throws: RequestError.self) { try await registry.request(.timeline, kind: "fixture.spike") }
            let statistics = try #require(registry.statistics(kind: "fixture.spike"))
            #expect(statistics.terminations == run)
            #expect(statistics.retainedBytes == 0)
        }
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

    @Test func providersAreChargedForWhatTheyAllocateAndNotForTheHostsCopy() async throws {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["libSystemWidgets.so", "good.so", "behaviours.so"]).path])
        _ = try await registry.request(.timeline, kind: "org.widgets.system.clock")
        let clock = try #require(registry.statistics(kind: "org.widgets.system.clock"))
        #expect(clock.peakBytes.map { $0 > 16_384 } == true, "rendering and encoding 60 entries: \(String(describing: clock.peakBytes))")
        // The C provider allocates nothing; the host's copy of its answer is not charged to it.
        _ = try await registry.request(.timeline, kind: "fixture.good")
        #expect(registry.statistics(kind: "fixture.good")?.peakBytes == 0)
        // 10 000 entries are about 800 KB of JSON, built by the provider: charged once, not twice.
        _ = try await registry.request(.timeline, kind: "fixture.many")
        let many = try #require(registry.statistics(kind: "fixture.many")?.peakBytes)
        #expect(many > 900_000 && many < 1_100_000, "peak \(many)")
    }
}

/// The replaced malloc family keeps the C contracts, charging the owner of each block.
@Suite struct AllocatorTests {
    @Test func reallocKeepsContentAndChargesTheDifferenceToTheBlocksOwner() throws {
        // A slot of the host's own handing out: a fixed number could be a provider's in another test
        // running at the same time, its allocations counted in this one's peak.
        let slot = MemoryGuard.openSlot(limit: 0)
        try #require(slot != 0)
        // Nothing but the calls under test runs charged (a test expectation allocates, too). The
        // loop runs once uncharged first: the first use of its types in the process makes their
        // metadata, and the runtime may take a whole new page of its metadata pool for it, which
        // would be charged here and never freed.
        let sizes = stride(from: 80, through: 64_000, by: 64)
        _ = sizes.reduce(0, +)
        let previous = memory_guard_enter(slot)
        var block = malloc(16)!
        memset(block, 7, 16)
        for size in sizes { block = realloc(block, size)! }
        memory_guard_exit(previous)
        // Resized on a host thread: still the slot's block.
        block = try #require(realloc(block, 100_000))
        #expect(malloc_usable_size(block) == 100_000)
        #expect(block.load(fromByteOffset: 15, as: UInt8.self) == 7)
        // The Swift runtime may cache metadata the first time this thread needs it, charged and
        // never freed; the block's own bytes are what free gives back.
        let withBlock = memory_guard_live(slot)
        free(block)
        #expect(withBlock - memory_guard_live(slot) == 100_000)
        #expect(memory_guard_peak(slot) >= 100_000 && memory_guard_peak(slot) < 110_000)
    }

    @Test func alignedAllocationsAreAlignedAndCallocZeroes() throws {
        for alignment in [16, 32, 64, 4096] {
            var pointer: UnsafeMutableRawPointer?
            #expect(posix_memalign(&pointer, alignment, 100) == 0)
            let block = try #require(pointer)
            #expect(Int(bitPattern: block) % alignment == 0)
            #expect(malloc_usable_size(block) == 100)
            free(block)
        }
        let zeroed = try #require(calloc(1000, 8)?.assumingMemoryBound(to: UInt64.self))
        #expect((0..<1000).allSatisfy { zeroed[$0] == 0 })
        free(zeroed)
    }

    @Test func impossibleRequestsFailInsteadOfOverflowing() {
        #expect(pvalloc(Int.max - 100) == nil)
        #expect(aligned_alloc(1 << 31, 64) == nil)
        #expect(calloc(Int.max / 2, 4) == nil)
        #expect(malloc(Int.max - 8) == nil)
        var pointer: UnsafeMutableRawPointer?
        #expect(posix_memalign(&pointer, 24, 64) == EINVAL)
    }
}
