import Foundation
import Glibc
import Testing
import WidgetTestSupport

/// How the tests run programs (ChildProcess): a program gets no descriptor of the test process but
/// the three it is given, so a long-lived one (a host a test runs) never holds another test's pipe
/// open, which kept that test reading for ever.
@Suite struct ChildProcessTests {
    @Test func aProgramGetsOnlyTheDescriptorsItIsGiven() async throws {
        // A pipe of another test, made without close-on-exec, open while this program starts.
        var other: [Int32] = [-1, -1]
        #expect(pipe(&other) == 0)
        defer { for end in other { close(end) } }
        let file = Fixtures.temporaryDirectory("child-process").appendingPathComponent("said")
        let output = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(output >= 0)
        let child = try ChildProcess(
            "/bin/sh", ["-c", "for n in \(other[0]) \(other[1]); do test -e /proc/self/fd/$n && echo \"$n open\"; done; echo done"],
            standardOutput: output)
        close(output)
        await blocking { child.waitForExit() }
        #expect(try String(contentsOf: file, encoding: .utf8) == "done\n")
        #expect(child.terminationStatus == 0 && child.terminationReason == .exit)
    }

    @Test func aProgramEndedByASignalSaysWhich() async throws {
        let child = try ChildProcess("/bin/sleep", ["1000"])
        #expect(child.isRunning)
        child.terminate()
        await blocking { child.waitForExit() }
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGTERM)
        #expect(!child.isRunning)
    }

    @Test func aProgramThatCannotStartIsNamedWithTheReason() {
        #expect(throws: ChildProcessError("cannot run /nonexistent/program: No such file or directory")) { try ChildProcess("/nonexistent/program", []) }
    }
}
