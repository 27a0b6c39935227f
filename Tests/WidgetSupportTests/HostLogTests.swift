import Testing
import WidgetSupport
import WidgetTestSupport

// One suite, serialized: the threshold and the handler are the process's.
@Suite(.serialized) struct HostLogTests {
    @Test func linesBelowTheThresholdAreNotWrittenAndTheRestAreCut() {
        let lines = LockedList<String>()
        let previous = HostLog.setHandler { level, message in lines.append("\(level.name): \(message)") }
        let threshold = HostLog.threshold
        defer {
            HostLog.setHandler(previous)
            HostLog.threshold = threshold
        }
        HostLog.threshold = .warning
        HostLog.log(.debug, "a stack trace")
        HostLog.log(.info, "a worker's line")
        HostLog.log(.warning, "a late completion")
        HostLog.threshold = .debug
        HostLog.log(.debug, "now shown")
        HostLog.log(.error, String(repeating: "x", count: HostLog.longestMessage + 10))
        #expect(lines.values.prefix(2) == ["warning: a late completion", "debug: now shown"])
        #expect(lines.values.last == "error: " + String(repeating: "x", count: HostLog.longestMessage) + "… (\(HostLog.longestMessage + 10) bytes)")
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
