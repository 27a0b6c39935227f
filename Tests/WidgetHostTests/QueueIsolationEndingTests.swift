import Foundation
import Testing
import WidgetTestSupport

/// In queue isolation a bundle runs in the host's process: one that calls exit() ends it, and one
/// that hangs while loading cannot be stopped. The host says which bundle ended it, with status 70,
/// leaves no socket behind, and gives loading a deadline it keeps even when the dynamic loader is held.
@Suite struct QueueIsolationEndingTests {
    @Test func aBundleCallingExitInARequestIsNamedAndTheStatusIsNotZero() async {
        let plugins = Fixtures.directory(["exit-in-request", "good"])
        let result = await widgets(["--plugins", plugins.path, "placeholder", "fixture.exits", "--isolation", "queue"])
        #expect(result.status == 70)
        #expect(
            result.standardError.hasPrefix(
                "widgets: error: \(plugins.path)/exit-in-request.so ended the host process: it called exit(0) while answering a placeholder request."),
            "\(result.standardError)")
    }

    @Test func aBundleCallingExitWhileLoadingIsNamed() async {
        let plugins = Fixtures.directory(["exit-in-initialize", "good"])
        let result = await widgets(["--plugins", plugins.path, "list", "--isolation", "queue"])
        #expect(result.status == 70)
        #expect(
            result.standardError.hasPrefix(
                "widgets: error: \(plugins.path)/exit-in-initialize.so ended the host process: it called exit(3) while loading (in its static initializers or initialize)."
            ), "\(result.standardError)")
    }

    /// The running host, ended by a bundle, says so and removes its socket.
    @Test func aRunningHostEndedByABundleRemovesItsSocket() async throws {
        let plugins = Fixtures.directory(["exit-in-request"])
        let home = HostHome()
        let added = await home.cli(["--plugins", plugins.path, "add", "fixture.exits", "--state-dir", home.state.path])
        #expect(added.status == 0, "\(added.standardError)")
        let host = try RunningProcess(
            Fixtures.widgetsExecutable, ["--plugins", plugins.path, "run", "--isolation", "queue", "--state-dir", home.state.path],
            environment: home.environment)
        defer { if host.process.isRunning { _ = host.terminate() } }
        await blocking { host.process.waitForExit() }
        #expect(host.process.terminationStatus == 70)
        #expect(await blocking { host.waitForLine { $0.contains("exit-in-request.so ended the host process: it called exit(0) while answering a timeline request") } }, "\(host.output)")
        #expect(access(home.runtime.path + "/widgets/control.sock", F_OK) != 0, "the socket is removed")
    }

    /// A bundle hung in its static initializers holds the dynamic loader: it is refused at its
    /// deadline, the bundles waiting behind it are refused naming it, and the host still ends.
    @Test func aBundleHungInTheDynamicLoaderIsRefusedAtItsDeadlineAndTheHostEnds() async {
        let plugins = Fixtures.directory(["a-hang.so": "hang-in-constructor", "good.so": "good"])
        let result = await widgets(["--plugins", plugins.path, "list", "--isolation", "queue"])
        #expect(result.status == 1)
        #expect(
            result.standardError.contains(
                "\(plugins.path)/a-hang.so: did not finish loading within 10 s (hung in its static initializers)"), "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "\(plugins.path)/good.so: not loaded: \(plugins.path)/a-hang.so hangs in its static initializers, holding the dynamic loader"),
            "\(result.standardError)")
    }
}
