import Testing

@testable import WidgetHost

/// A worker's output made into lines, without a process: lines in pieces, long lines cut with
/// their length, and the last line without its newline.
@Suite struct OutputLinesTests {
    @Test func linesComeWholeWhateverPiecesTheyArriveIn() {
        var lines = OutputLines(longest: 10)
        #expect(lines.take(Array("one\ntw".utf8)[...]) == ["one"])
        #expect(lines.take(Array("o\n\nthree".utf8)[...]) == ["two", ""])
        #expect(lines.finish() == "three")
        #expect(lines.finish() == nil, "nothing left")
    }

    @Test func aLineLongerThanTheLongestIsCutWithItsLengthHoweverLongItRuns() {
        var lines = OutputLines(longest: 4)
        #expect(lines.take(Array("abc".utf8)[...]) == [])
        #expect(lines.take(Array("defgh".utf8)[...]) == [])
        #expect(lines.take(Array(String(repeating: "x", count: 1000).utf8)[...]) == [])
        #expect(lines.take(Array("y\nok\n".utf8)[...]) == ["abcd… (1009 bytes)", "ok"])
        #expect(lines.take(Array("12345".utf8)[...]) == [])
        #expect(lines.finish() == "1234… (5 bytes)")
    }
}
