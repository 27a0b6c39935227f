import Foundation
import Testing
import WidgetSupport
import WidgetTestSupport

@testable import WidgetHost

/// Bundles load in parallel: one slow to load (Tests/Fixtures, -DWAIT_FOR_RELEASE: it loads when
/// its `.release` file appears) delays nothing else; it joins when it loads, or is refused at its
/// deadline. The clock is a manual one: deadlines pass when the test says. Loading is given no
/// patience: it returns once every load has begun (each deadline set), and every bundle joins as
/// it loads.
@Suite struct ParallelLoadingTests {
    static var process: Isolation { .process(ProcessIsolation(workerExecutable: Fixtures.workerExecutable)) }

    /// What a registry heard of late loads.
    final class Heard: @unchecked Sendable {
        private let condition = NSCondition()
        private var loads: [WidgetRegistry.LateLoad] = []
        func add(_ load: WidgetRegistry.LateLoad) {
            condition.withLock {
                loads.append(load)
                condition.broadcast()
            }
        }
        /// The late load of `path`, once heard (nil if not within 10 s of real time: a safety net,
        /// so a broken test fails rather than hangs). Blocking.
        func of(_ path: String) -> WidgetRegistry.LateLoad? {
            let giveUp = Date().addingTimeInterval(10)
            return condition.withLock {
                while true {
                    if let load = loads.first(where: { $0.path == path }) { return load }
                    if !condition.wait(until: giveUp) { return nil }
                }
            }
        }
    }

    /// A slow bundle (`a-slow.so`, released by the test) beside a quick one, loaded without patience
    /// until the quick one's kind is registered; late loads are heard.
    static func slowBesideGood(_ mode: String) async -> (WidgetRegistry, ManualClock, URL, Heard) {
        let directory = Fixtures.directory(["a-slow.so": "slow", "good.so": "good"])
        let clock = ManualClock()
        let registry = WidgetRegistry(clock: clock, isolation: mode == "process" ? process : .queue)
        let heard = Heard()
        registry.observeLateLoads { heard.add($0) }
        registry.loadDirectory(directory.path, patience: 0)
        await registry.loads(kind: "fixture.good")
        return (registry, clock, directory, heard)
    }

    @Test(arguments: ["process", "queue"])
    func aBundleSlowToLoadDelaysNoOtherAndJoinsWhenItLoads(mode: String) async throws {
        let (registry, _, directory, heard) = await Self.slowBesideGood(mode)
        defer { registry.shutDownWorkers() }
        let slow = directory.appendingPathComponent("a-slow.so").path
        let good = try await registry.request(.placeholder, kind: "fixture.good")
        #expect(good.entries.count == 1)
        #expect(registry.widget(kind: "fixture.a-slow") == nil)
        #expect(registry.loadsUnderway == [slow])

        // A request for the slow bundle's kind waits for it, and is answered once it loads.
        let waiting = Task { try await registry.request(.placeholder, kind: "fixture.a-slow") }
        #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent("a-slow.release").path, contents: nil))
        let answer = try await waiting.value
        #expect(answer.entries.count == 1)
        #expect(registry.loadsUnderway.isEmpty)
        #expect(registry.problems.isEmpty, "\(registry.problems)")
        let late = try #require(await blocking { heard.of(slow) })
        #expect(late.kinds == ["fixture.a-slow"])
        #expect(late.problems.isEmpty)
    }

    @Test(arguments: ["process", "queue"])
    func aBundleThatNeverLoadsIsRefusedAtItsDeadline(mode: String) async throws {
        let (registry, clock, directory, heard) = await Self.slowBesideGood(mode)
        defer { registry.shutDownWorkers() }
        let slow = directory.appendingPathComponent("a-slow.so").path
        let waiting = Task { try await registry.request(.placeholder, kind: "fixture.a-slow") }
        clock.advance(by: 10)
        await #expect(throws: RequestError.self) { try await waiting.value }
        await registry.loads()
        #expect(registry.loadsUnderway.isEmpty)
        let problem = try #require(registry.problems.first { $0.path == slow })
        #expect(problem.reason == .timedOut)
        #expect(problem.message.contains("did not finish loading within 10 s"), "\(problem.message)")
        #expect(registry.widget(kind: "fixture.good") != nil)
        let late = try #require(await blocking { heard.of(slow) })
        #expect(late.kinds == [])
        #expect(late.problems.map(\.reason) == [.timedOut])
    }

    /// Without patience, loading waits for every bundle, and takes them in file order: when two
    /// bundles claim one kind, the one found first keeps it, however fast the other loaded.
    @Test func withoutPatienceTheFirstFoundKeepsAKindWhicheverLoadedFirst() async throws {
        let directory = Fixtures.directory(["a.so": "good", "b.so": "good"])
        let clock = ManualClock()
        let registry = WidgetRegistry(clock: clock, isolation: .queue)
        registry.loadDirectory(directory.path)
        #expect(registry.widget(kind: "fixture.good")?.bundle.path == directory.appendingPathComponent("a.so").path)
        #expect(registry.problems.map(\.reason) == [.duplicateKind])
    }

    /// Patience: what arrived in time is taken in file order when it ends; what arrives later, as
    /// it arrives, said to be late.
    @Test func aBatchTakesWhatArrivedInFileOrderAndTheRestAsItComes() async {
        let taken = LockedList<String>()
        let lateQueue = DispatchQueue(label: "test.late")
        let batch = LoadBatch(count: 3, lateQueue: lateQueue)
        batch.arrive(2) { late in taken.append("c late: \(late)") }
        batch.arrive(0) { late in taken.append("a late: \(late)") }
        batch.endPatience()
        batch.wait()
        #expect(taken.values == ["a late: false", "c late: false"])
        batch.arrive(1) { late in taken.append("b late: \(late)") }
        lateQueue.sync {}
        #expect(taken.values == ["a late: false", "c late: false", "b late: true"])
    }
}

/// `widgets` answers a request for one bundle's widget while another is still loading: it does not
/// wait for the slow one, whose refusal at its deadline would show in what it prints.
@Suite struct ParallelLoadingCommandTests {
    @Test func aRequestIsAnsweredWhileAnotherBundleIsStillLoading() async throws {
        let directory = Fixtures.directory(["a-slow.so": "slow", "good.so": "good"])
        let result = await widgets(["--plugins", directory.path, "placeholder", "fixture.good"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(result.standardOutput.contains("fixture.good"))
    }
}
