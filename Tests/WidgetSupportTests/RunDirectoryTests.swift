import Foundation
import Testing
import WidgetTestSupport

/// The test run's scratch space under /tmp/widgets-tests: an earlier run's directory (1.6 GB of
/// bundles and builds) is out of the way before the call returns and removed while the tests go on,
/// as is what an interrupted removal left; a run still going keeps its own.
@Suite struct RunDirectoryTests {
    @Test func anEndedRunsDirectoryIsSetAsideAtOnceThenRemovedAndALiveRunsIsKept() async throws {
        let root = Fixtures.temporaryDirectory("runs")
        let ended = try ChildProcess("/bin/true", [])
        ended.waitForExit()
        let old = root.appendingPathComponent("run-\(ended.processIdentifier)")
        try FileManager.default.createDirectory(at: old.appendingPathComponent("plugins-a"), withIntermediateDirectories: true)
        try Data(count: 1 << 20).write(to: old.appendingPathComponent("plugins-a/libBundle.so"))
        let interrupted = root.appendingPathComponent("removing-run-7-by-8")
        try FileManager.default.createDirectory(at: interrupted.appendingPathComponent("fixtures-b"), withIntermediateDirectories: true)
        let live = root.appendingPathComponent("run-\(getppid())")
        try FileManager.default.createDirectory(at: live.appendingPathComponent("plugins-c"), withIntermediateDirectories: true)

        Fixtures.removeEndedRuns(under: root)
        #expect(!FileManager.default.fileExists(atPath: old.path), "the ended run's directory is set aside before the call returns")
        #expect(try await eventually { try FileManager.default.contentsOfDirectory(atPath: root.path) == [live.lastPathComponent] })
        #expect(FileManager.default.fileExists(atPath: live.appendingPathComponent("plugins-c").path))
    }
}
