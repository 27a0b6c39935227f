import Testing
@testable import WidgetSupport
import WidgetWire

// The threshold and the handler are the process's, shared by every test running at once: the
// tests ask what a line would become, and change neither.
@Suite struct HostLogTests {
    @Test func linesBelowTheThresholdAreNotWrittenAndTheRestAreCut() {
        #expect(HostLog.admitted(.debug, "a stack trace", under: .warning) == nil)
        #expect(HostLog.admitted(.info, "a worker's line", under: .warning) == nil)
        #expect(HostLog.admitted(.warning, "a late completion", under: .warning) == "a late completion")
        #expect(HostLog.admitted(.debug, "now shown", under: .debug) == "now shown")
        let long = String(repeating: "x", count: HostLog.longestMessage + 10)
        #expect(
            HostLog.admitted(.error, long, under: .debug)
                == String(repeating: "x", count: HostLog.longestMessage) + "… (\(HostLog.longestMessage + 10) bytes)")
    }

    @Test func levelsAreNamedInAnyCaseAndOrdered() {
        #expect(LogLevel(named: "DEBUG") == .debug)
        #expect(LogLevel(named: "Warn") == .warning)
        #expect(LogLevel(named: "loud") == nil)
        #expect(LogLevel.allCases.map(\.name) == ["debug", "info", "warning", "error"])
        #expect(LogLevel.allCases.map(\.priority) == [7, 6, 4, 3])
        #expect(LogLevel.debug < LogLevel.info && LogLevel.warning < LogLevel.error)
    }
}
