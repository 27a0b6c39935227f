import Foundation
import Glibc
import Testing
@_spi(WidgetsInternal) import WidgetSupport
import WidgetTestSupport
import WidgetWire

// The host and the CLI are built on FoundationEssentials alone (no ICU). What they took from
// Foundation they now do themselves; each is held here to what Foundation, which this test process
// links, does.

@Suite struct SubprocessTests {
    @Test func bothStreamsAreReadWhileItRunsSoNeitherPipeFills() throws {
        // 300 KB to each stream, more than a pipe holds: a reader of one stream only would hang.
        let outcome = try Subprocess(
            "/bin/sh", ["-c", "head -c 300000 /dev/zero | tr '\\0' o; head -c 300000 /dev/zero | tr '\\0' e >&2; exit 3"]
        ).finish()
        #expect(outcome.status == 3)
        #expect(outcome.output.count == 300_000 && outcome.output.allSatisfy { $0 == UInt8(ascii: "o") })
        #expect(outcome.errors.count == 300_000 && outcome.errors.allSatisfy { $0 == UInt8(ascii: "e") })
    }

    @Test func itRunsInTheDirectoryWithTheEnvironmentGivenAndNothingElseOfOurs() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let outcome = try Subprocess(
            "/bin/sh", ["-c", "pwd; echo \"$ONLY\"; echo \"${HOME-unset}\"; ls /proc/self/fd | wc -l; read line || echo eof"],
            environment: ["ONLY": "this one"], directory: directory
        ).finish()
        let lines = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(URL(fileURLWithPath: lines[0]).resolvingSymlinksInPath() == URL(fileURLWithPath: directory).resolvingSymlinksInPath())
        #expect(lines[1] == "this one" && lines[2] == "unset")
        // 0, 1, 2 and the one ls opens: none of this process's descriptors.
        #expect(lines[3] == "4", "descriptors inherited: \(lines[3])")
        #expect(lines[4] == "eof", "standard input is /dev/null")
    }

    /// A relative path names the program from this process's directory, as Foundation's Process
    /// took it, also when it runs in another (`SWIFTC=./bin/swiftc widgets build`).
    @Test func aRelativePathIsThisProcesssEvenInAnotherDirectory() throws {
        // Deeper than this process's directory, so that the path from here leads nowhere from there.
        let deep = Fixtures.temporaryDirectory("relative").appendingPathComponent((0..<16).map { "d\($0)" }.joined(separator: "/"))
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let tool = deep.appendingPathComponent("tool")
        try writeExecutable("#!/bin/sh\necho ran\n", to: tool)
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + tool.path.dropFirst()
        let outcome = try Subprocess(relative, [], directory: deep.path).finish()
        #expect(outcome.status == 0 && String(decoding: outcome.output, as: UTF8.self) == "ran\n", "\(String(decoding: outcome.errors, as: UTF8.self))")
    }

    @Test func aProgramThatCannotStartIsNamedWithTheReason() {
        #expect {
            try Subprocess("/nonexistent/tool", [])
        } throws: { error in
            "\(error)" == "cannot run /nonexistent/tool: No such file or directory"
        }
    }

    @Test func aSignalEndingItIsReportedAsAShellDoes() throws {
        #expect(try Subprocess("/bin/sh", ["-c", "kill -TERM $$"]).finish().status == 128 + SIGTERM)
    }

    @Test func oneThatRunsOnIsLeftRunningAndReapedWhenItEnds() throws {
        // It runs until it is ended: the wait gives up, whatever the machine's speed.
        let process = try Subprocess("/bin/sh", ["-c", "exec sleep 600"], standardOutput: .discard, standardError: .discard)
        #expect(process.waitForExit(atMost: 0.02) == nil)
        kill(process.pid, SIGTERM)
        // Reaped by the thread that waits for it, which the second wait then hears from.
        #expect(process.waitForExit(atMost: 30) == 128 + SIGTERM)
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(process.pid)/stat"), "reaped, no zombie left")
        #expect(process.waitForExit() == 128 + SIGTERM)
    }

    @Test func whatItSaysOnStandardErrorIsReadWithoutWaiting() throws {
        let process = try Subprocess("/bin/sh", ["-c", "echo refused >&2; exit 4"], standardOutput: .discard)
        #expect(process.waitForExit(atMost: 10) == 4)
        #expect(String(decoding: process.errorsSoFar(limit: 500), as: UTF8.self) == "refused\n")
    }
}

@Suite struct ConditionAndThreadTests {
    @Test func aWaitUntilADateEndsAtItOrWhenSignalled() {
        let condition = WidgetSupport.Condition()
        condition.lock()
        let begun = Date()
        #expect(condition.wait(until: begun.addingTimeInterval(0.05)) == false)
        #expect(Date().timeIntervalSince(begun) >= 0.05)
        condition.unlock()

        let flag = Locked(false)
        startThread(named: "widgets.test") {
            condition.withLock {
                flag.withLock { $0 = true }
                condition.signal()
            }
        }
        // Signalled, not timed out: a safety net of 30 s, after which the flag is still false.
        let giveUp = Date().addingTimeInterval(30)
        condition.lock()
        while !flag.withLock({ $0 }), condition.wait(until: giveUp) {}
        condition.unlock()
        #expect(flag.withLock { $0 })
    }

    /// Callers that come while a run is under way wait for the next, and share it: six callers,
    /// two runs. Each returns only after a run begun after its call.
    @Test func callersAtOnceShareOneRunBegunAfterTheirCall() {
        let runs = Locked(0)
        let firstBegun = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let shared = SharedRuns(initial: 0) { () -> Int in
            let number = runs.withLock { count -> Int in
                count += 1
                return count
            }
            if number == 1 {
                firstBegun.signal()
                release.wait()
            }
            return number
        }
        let answers = Locked<[Int]>([])
        let done = DispatchGroup()
        func call() {
            done.enter()
            startThread(named: "widgets.test") {
                let answer = shared.run()
                answers.withLock { $0.append(answer) }
                done.leave()
            }
        }
        call()
        firstBegun.wait()
        for _ in 0..<5 { call() }
        // All five wait (a safety net of 30 s; they come within microseconds).
        let giveUp = Date().addingTimeInterval(30)
        while shared.counts.waiting < 5, Date() < giveUp { sched_yield() }
        #expect(shared.counts == (begun: 1, waiting: 5))
        release.signal()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(runs.withLock { $0 } == 2)
        #expect(answers.withLock { $0.sorted() } == [1, 2, 2, 2, 2, 2])
        // Alone, a caller has a run of its own.
        #expect(shared.run() == 3)
    }

    @Test func aThreadHasItsName() {
        let named = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        startThread(named: "widgets.named") {
            named.withLock { $0 = currentThreadName }
            done.signal()
        }
        done.wait()
        #expect(named.withLock { $0 } == "widgets.named")
    }
}

@Suite struct EssentialsFormattingTests {
    @Test func numbersAreFilledAsStringFormatFillsThem() {
        for value in [0.0, 0.05, 0.15, 1.25, 2.5, -3.75, 1234.5678, 1e-9] {
            #expect(cFormat("%.1f s", value) == String(format: "%.1f s", value))
        }
        #expect(cFormat("%02ld:%02ld", 7, 5) == "07:05")
        #expect(cFormat("%08X:%04X", UInt32(0x0100_007F), UInt32(8080)) == String(format: "%08X:%04X", UInt32(0x0100_007F), UInt32(8080)))
        #expect(cFormat("%0600ld", 5) == String(repeating: "0", count: 599) + "5", "longer than the first buffer")
    }

    @Test func localTimeIsWhatDateFormatterShowsInTheZone() {
        let zones = ["UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham"]
        let dates = [0, 1_700_000_000, 1_710_054_000, 1_800_000_000, 1_900_000_123].map { Date(timeIntervalSince1970: Double($0)) }
        for identifier in zones {
            let zone = TimeZone(identifier: identifier)!
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xxx"
            let clock = LocalTime(zone)
            for date in dates {
                #expect(clock.text(date, "%Y-%m-%d %H:%M:%S ") + clock.offsetText(date) == formatter.string(from: date), "\(identifier)")
            }
            #expect(clock.isSameDay(dates[3], dates[3].addingTimeInterval(60)))
        }
    }

    /// Instance ids and kinds: ASCII (beyond it, letters are ordered by their scalars). Names alike
    /// but for leading zeros, which Foundation leaves as they came, are ordered by their scalars.
    @Test func orderIsNumericWhereFoundationsIs() {
        let names = ["w10", "w2", "w1", "clock-2", "clock-10", "clock", "a001b", "b", "B", "10", "9", "", "x9y10", "x9y9", "org.a-2", "org.a-10"]
        let ours = names.sorted { $0.precedesNumerically($1) }
        let foundations = names.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        #expect(ours == foundations)
        #expect(["w1", "w2", "w10"] == ["w10", "w2", "w1"].sorted { $0.precedesNumerically($1) })
        for alike in [["a01", "a1", "a001"], ["a1", "a001", "a01"], ["a001", "a01", "a1"]] {
            #expect(alike.sorted { $0.precedesNumerically($1) } == ["a001", "a01", "a1"], "whatever order they come in")
        }
    }

    @Test func percentCodingRoundTripsAndRefusesBadEscapes() {
        for text in ["plain", "a b&c=d/é", "🐳 100%", "", "~-._"] {
            #expect(text.percentEncoded.percentDecoded == text)
            #expect(text.percentEncoded.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~%".contains($0)) })
            #expect(text.percentEncoded.removingPercentEncoding == text)
        }
        for bad in ["%", "%2", "%zz", "%C3"] {
            #expect(bad.percentDecoded == nil, "\(bad)")
            #expect(bad.removingPercentEncoding == nil, "Foundation agrees: \(bad)")
        }
        #expect("a%2Fb%20c".percentDecoded == "a/b c")
    }

    @Test func spacesAndNewlinesAreTrimmedAsFoundationTrimsThem() {
        for text in ["", " \n", "\n a b \r\n", "\u{2028}x\u{85}", "\t\u{A0}é\u{3000}\n", "a"] {
            #expect(text.trimmingSpacesAndNewlines == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
        }
        #expect("[…x.]".trimmingAny(of: "[]….") == "x")
    }

    @Test func isoDatesAreFoundationsISO8601() throws {
        let formatter = ISO8601DateFormatter()
        for seconds in [0.0, 1_800_000_000, 1_900_000_123] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ISODate.text(date) == formatter.string(from: date))
            #expect(ISODate.parse(formatter.string(from: date)) == date)
        }
        #expect(ISODate.parse("2026-11-21T10:30:00+01:00") == formatter.date(from: "2026-11-21T09:30:00Z"))
        #expect(ISODate.parse("2026-11-21") == formatter.date(from: "2026-11-21T00:00:00Z"))
        #expect(ISODate.day(Date(timeIntervalSince1970: 1_800_000_000)) == "2027-01-15")
        #expect(ISODate.parse("tomorrow") == nil)
    }

    @Test func pathExtensionsAreNSStrings() {
        for path in ["Main.swift", "a/b.c.d", ".hidden", "dir.d/file", "x.", "/a/b.json/", "noext", "Intents.intentdefinition", "dir/", "/"] {
            #expect(path.pathNameExtension == (path as NSString).pathExtension, "\(path)")
            #expect(path.pathWithoutExtension == (path as NSString).deletingPathExtension, "\(path)")
        }
    }

    @Test func aFileErrorReadsAsTheSystemSaysIt() {
        #expect(throws: (any Error).self) { try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/x")) }
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/x"))
        } catch {
            #expect(error.explanation == "No such file or directory")
        }
    }

    /// Work given to a SerialThread is done in the order given, one at a time, on one thread of
    /// its own (named), started with the first.
    @Test func aSerialThreadDoesItsWorkInTurnOnAThreadOfItsOwn() {
        let worker = SerialThread(named: "test-serial")
        let done = Condition()
        nonisolated(unsafe) var order: [Int] = []
        nonisolated(unsafe) var names: Set<String> = []
        nonisolated(unsafe) var running = 0
        nonisolated(unsafe) var overlapped = false
        for index in 0..<50 {
            worker.async {
                done.withLock {
                    running += 1
                    if running > 1 { overlapped = true }
                }
                let name = ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                done.withLock {
                    names.insert(name)
                    order.append(index)
                    running -= 1
                    done.signal()
                }
            }
        }
        let giveUp = Date().addingTimeInterval(30)
        done.lock()
        while order.count < 50, done.wait(until: giveUp) {}
        done.unlock()
        #expect(order == Array(0..<50))
        #expect(names == ["test-serial"])
        #expect(!overlapped)
    }
}
