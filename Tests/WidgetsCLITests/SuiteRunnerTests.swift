import Foundation
import Glibc
import Testing
import WidgetTestSupport

/// Tests/run-suite, which `make test` runs the test binary through: a run that hangs is stopped at
/// its limit and says which tests never ended, and nothing a run started outlives it.
@Suite struct SuiteRunnerTests {
    private static let runner = Fixtures.repositoryRoot.appendingPathComponent("Tests/run-suite").path

    /// A stand-in for the test binary: prints Swift Testing's lines, then runs `then`.
    private static func fakeBinary(_ directory: URL, then: String) throws -> String {
        let path = directory.appendingPathComponent("fake-tests").path
        let script = """
            #!/bin/bash
            echo "◇ Test run started."
            echo "◇ Test quick() started."
            echo "✔ Test quick() passed after 0.001 seconds."
            echo "◇ Test stuck(mode:) started."
            echo "◇ Test case passing 1 argument mode → .a to stuck(mode:) started."
            echo "◇ Test failing() started."
            echo "✘ Test failing() failed after 0.002 seconds with 1 issue."
            \(then)

            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// A stand-in that starts a process of its own (its pid written to the file returned), then runs `ending`.
    private static func fakeBinaryWithAChild(_ directory: URL, then ending: String) throws -> (binary: String, child: URL) {
        let child = directory.appendingPathComponent("child.pid")
        return (try fakeBinary(directory, then: "sleep 1000 > /dev/null 2>&1 & echo $! > \(child.path)\n\(ending)"), child)
    }

    /// Whether the process whose id the file holds has ended (a zombie has: the test process, a
    /// subreaper, may not have reaped it yet).
    private static func hasEnded(_ pidFile: URL) async throws -> Bool {
        let pid = try #require(pid_t(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        return try await eventually {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }
    }

    @Test func aRunPastItsLimitIsEndedNamingTheTestsThatNeverEnded() async throws {
        let directory = Fixtures.temporaryDirectory("suite-runner")
        defer { try? FileManager.default.removeItem(at: directory) }
        // It hangs for good, with a process of its own started meanwhile (well within the limit of 3 s,
        // however loaded the machine).
        let (binary, child) = try Self.fakeBinaryWithAChild(directory, then: "exec sleep 1000")
        let log = directory.appendingPathComponent("log")
        let result = await runProcess(Self.runner, ["3", log.path, binary])
        #expect(result.status == 1)
        let said = result.standardOutput.components(separatedBy: "\n")
        let stop = try #require(said.firstIndex(of: "✘ Tests/run-suite: stopped after 3 s; these tests had started and not ended:"), "\(result)")
        #expect(Array(said[(stop + 1)...]).filter { !$0.isEmpty } == ["   stuck(mode:)"])
        #expect(said.contains("◇ Test stuck(mode:) started."), "the log is shown as it grows")
        #expect(try String(contentsOf: log, encoding: .utf8).contains("✘ Tests/run-suite: stopped after 3 s"), "the stop is kept in the log")
        #expect(try await Self.hasEnded(child), "what the run started is ended with it")
    }

    @Test func processesARunLeavesBehindAreEndedAndFailIt() async throws {
        let directory = Fixtures.temporaryDirectory("suite-runner")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (binary, child) = try Self.fakeBinaryWithAChild(directory, then: "exit 0")
        let result = await runProcess(Self.runner, ["600", directory.appendingPathComponent("log").path, binary])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("✘ Tests/run-suite: processes the tests started outlived them (ended now):\n"), "\(result)")
        #expect(result.standardOutput.contains("sleep 1000"))
        #expect(try await Self.hasEnded(child))
    }

    /// The run has a session of its own, out of the terminal's reach: the runner's interrupt ends it.
    @Test func aRunnerToldToEndEndsTheRun() async throws {
        let directory = Fixtures.temporaryDirectory("suite-runner")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (binary, child) = try Self.fakeBinaryWithAChild(directory, then: "exec sleep 1000")
        let runner = try ChildProcess(Self.runner, ["600", directory.appendingPathComponent("log").path, binary])
        #expect(try await eventually { FileManager.default.fileExists(atPath: child.path) })
        runner.terminate()
        await blocking { runner.waitForExit() }
        #expect(runner.terminationReason == .exit && runner.terminationStatus == 130)
        #expect(try await Self.hasEnded(child))
    }

    @Test func aRunThatEndsHasItsOwnStatusAndEveryLineShown() async throws {
        let directory = Fixtures.temporaryDirectory("suite-runner")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (ending, status) in [("exit 0", Int32(0)), ("exit 3", 3)] {
            let binary = try Self.fakeBinary(directory, then: "echo \"arguments: $*\"\n\(ending)")
            let result = await runProcess(Self.runner, ["600", directory.appendingPathComponent("log").path, binary, "--skip", "Browser Tests"])
            #expect(result.status == status, "\(result)")
            #expect(result.standardOutput.hasSuffix("✘ Test failing() failed after 0.002 seconds with 1 issue.\narguments: --testing-library swift-testing --skip Browser Tests\n"))
        }
    }
}
