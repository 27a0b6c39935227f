import Testing
@testable import WidgetsCommandLine

/// The columns of `list --short` and `instances`: padded by characters, a row's ends trimmed.
@Suite struct TableTests {
    @Test func columnsLineUpByCharactersAndRowsEndWithoutSpaces() {
        let text = Render.table(header: ["KIND", "NAME", "FILE"], rows: [["a.b", "Clock", "x.so"], ["c", "Météo ☀️", "longer.so"], ["d", "", ""]])
        #expect(
            text == """
                KIND  NAME     FILE
                a.b   Clock    x.so
                c     Météo ☀️  longer.so
                d
                """)
    }

    @Test func aCellWithSpacesOfAnyScriptAtARowsEndIsTrimmed() {
        // U+3000 IDEOGRAPHIC SPACE and a tab: spaces as trimmingCharacters(in: .whitespaces) has them.
        let text = Render.table(header: nil, rows: [["\u{3000}a", "b\t"], [" c", "d\u{3000}"]])
        #expect(text == "a  b\nc  d")
    }

    @Test func aCRLFInACellIsOneCharacter() {
        #expect(Render.table(header: nil, rows: [["a\r\nb", "x"], ["abc", "y"]]) == "a\r\nb  x\nabc  y")
    }
}
