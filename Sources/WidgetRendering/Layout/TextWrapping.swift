import FoundationEssentials
import Glibc
import WidgetWire

extension Layout {
    /// Text broken into lines at `proposal.width` (by words, a word longer than a line by
    /// characters), then cut to `lineLimit` and to the lines `proposal.height` holds, the last line
    /// ending in "…" when anything was cut.
    func wrap(_ run: TextRun, _ proposal: Proposal) -> [String] {
        let (text, style) = (run.text, run.style)
        let (width, hasNewline) = oneLine(run)
        // Most text fits on its one line: no breaking, no cutting.
        if !hasNewline, proposal.height.map({ $0 >= run.lineHeight }) ?? true,
            proposal.width.map({ !$0.isFinite || width <= $0 }) ?? true
        {
            return [text]
        }
        let limit = lineCount(run, proposal)
        // Lines past the limit are cut: breaking stops one after it, enough to tell.
        let maximum = limit == .max ? .max : limit + 1
        let key = proposal.width ?? .infinity
        let lines: [String]
        // Lines broken before at this width, up to as many or more, serve: their first lines are these.
        if let known = run.lines.first(where: { $0.width == key && ($0.maximum >= maximum || $0.lines.count < $0.maximum) }) {
            lines = known.lines.count > maximum ? Array(known.lines.prefix(maximum)) : known.lines
        } else {
            var quick: [String]?
            if !hasNewline, let width = proposal.width, width.isFinite { quick = wordLines(run, width: width, maximum: maximum) }
            lines = quick ?? breakLines(text, style, hasNewline: hasNewline, width: proposal.width, maximum: maximum)
            run.lines.append((key, maximum, lines))
        }
        return limited(lines, style, limit: limit, proposal)
    }

    /// The size `wrap` gives text, worked out from its words' widths without making its lines: the
    /// same greedy breaking, by numbers (only a cut line whose ellipsis does not fit beside it is
    /// made, to cut it by characters). Nil where `wrap` must make the lines: widths that do not add
    /// up, line breaks, a word wider than the line (broken by characters).
    func wordSize(_ run: TextRun, _ proposal: Proposal) -> Size? {
        let (oneLineWidth, hasNewline) = oneLine(run)
        guard !hasNewline else { return nil }
        let lineHeight = run.lineHeight
        guard let width = proposal.width, width.isFinite else {
            // Unbroken: one line, which any limit keeps.
            return Size(width: oneLineWidth, height: lineHeight)
        }
        if proposal.height.map({ $0 >= lineHeight }) ?? true, oneLineWidth <= width { return Size(width: oneLineWidth, height: lineHeight) }
        guard let widths = wordWidths(run) else { return nil }
        let limit = lineCount(run, proposal)
        // Lines up to one past the limit (enough to tell whether it was cut).
        var count = 0
        var widest = 0.0
        /// The widest of the lines before the last kept; the last kept's width and words.
        var widestBefore = 0.0
        var lastKept = (width: 0.0, words: 0..<0)
        let unbroken = forEachLine(widths, space: run.space, width: width) { words, lineWidth in
            count += 1
            guard count <= limit else { return false }
            widestBefore = widest
            widest = max(widest, lineWidth)
            lastKept = (lineWidth, words)
            return true
        }
        guard unbroken else { return nil }
        guard count > limit else { return Size(width: widest, height: Double(count) * lineHeight) }
        // Cut: the last kept line ends in "…", beside it or, where it does not fit, after as many of
        // its characters as do (none, where the ellipsis alone is too wide).
        let ellipsis = metrics.width(of: "…", style: run.style)
        let cut: Double
        if lastKept.width + ellipsis <= width {
            cut = lastKept.width + ellipsis
        } else if width < ellipsis {
            cut = ellipsis
        } else {
            let words = run.text.split(separator: " ", omittingEmptySubsequences: false)[lastKept.words]
            cut = metrics.width(of: truncated(words.joined(separator: " "), run.style, to: width), style: run.style)
        }
        return Size(width: max(widestBefore, cut), height: Double(limit) * lineHeight)
    }

    /// A text's words' widths, measured once (nil where they do not add up).
    func wordWidths(_ run: TextRun) -> [Double]? {
        if !run.isMeasured {
            run.isMeasured = true
            run.words = metrics.wordWidths(of: run.text, style: run.style)
            if run.words != nil { run.space = metrics.width(of: " ", style: run.style) }
        }
        return run.words
    }

    /// Words of `widths` filled greedily into lines no wider than `width`, as `breakLines` fills
    /// them: `line` gets each line's words and width, until it returns false. False where a word
    /// is wider than a line, which `breakLines` breaks by characters.
    func forEachLine(_ widths: [Double], space: Double, width: Double, _ line: (Range<Int>, Double) -> Bool) -> Bool {
        var lineWidth = 0.0
        var lineStart = 0
        var started = false
        for (index, wordWidth) in widths.enumerated() {
            if !started, wordWidth <= width {
                (lineWidth, lineStart, started) = (wordWidth, index, true)
                continue
            }
            if started, lineWidth + space + wordWidth <= width {
                lineWidth += space + wordWidth
                continue
            }
            if started, !line(lineStart..<index, lineWidth) { return true }
            (lineWidth, lineStart, started) = (wordWidth, index, true)
            if wordWidth > width, width > 0 { return false }
        }
        _ = line(lineStart..<widths.count, lineWidth)
        return true
    }

    /// A text's lines at `width`, up to `maximum`, cut out of it between words: what `breakLines`
    /// makes, without measuring any word again. Nil where `breakLines` must break by characters.
    func wordLines(_ run: TextRun, width: Double, maximum: Int) -> [String]? {
        guard let widths = wordWidths(run) else { return nil }
        let text = run.text
        // Where words have widths, each scalar is a character: split at the space's byte, not by
        // characters (the same words, without finding character boundaries).
        let words = text.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard words.count == widths.count else { return nil }
        var lines: [String] = []
        let unbroken = forEachLine(widths, space: run.space, width: width) { range, _ in
            lines.append(String(text[words[range.lowerBound].startIndex..<words[range.upperBound - 1].endIndex]))
            return lines.count < maximum
        }
        return unbroken ? lines : nil
    }

    /// A text's width on one line and whether it has line breaks, measured once.
    func oneLine(_ run: TextRun) -> (width: Double, hasNewline: Bool) {
        if let known = run.oneLine { return known }
        let newline = UInt8(ascii: "\n")
        let hasNewline =
            run.text.utf8.withContiguousStorageIfAvailable { bytes in bytes.baseAddress.map { memchr($0, Int32(newline), bytes.count) != nil } ?? false }
            ?? run.text.utf8.contains(newline)
        let measured = (metrics.width(of: run.text, style: run.style), hasNewline)
        run.oneLine = measured
        return measured
    }

    /// How many lines a text may take: its `lineLimit`, and what the proposed height holds.
    func lineCount(_ run: TextRun, _ proposal: Proposal) -> Int {
        var limit = run.lineLimit.map { max(1, $0) } ?? Int.max
        if let height = proposal.height, height.isFinite {
            limit = min(limit, max(1, Int((height / run.lineHeight).rounded(.down))))
        }
        return limit
    }

    /// Text broken into lines at `width` (nil: only at newlines).
    func breakLines(_ text: String, _ style: TextStyle, hasNewline: Bool, width proposed: Double?, maximum: Int = .max) -> [String] {
        var lines: [String] = []
        let space = metrics.width(of: " ", style: style)
        for paragraph in hasNewline ? text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [text] {
            if lines.count >= maximum { break }
            guard let width = proposed, width.isFinite else {
                lines.append(paragraph)
                continue
            }
            // Each word measured once; lines filled greedily by adding widths.
            var line = ""
            var lineWidth = 0.0
            var wordsInLine = 0
            var started = false
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let wordWidth = metrics.width(of: String(word), style: style)
                if !started, wordWidth <= width {
                    line = String(word)
                    lineWidth = wordWidth
                    wordsInLine = 1
                    started = true
                    continue
                }
                if started, lineWidth + space + wordWidth <= width {
                    line += " " + word
                    lineWidth += space + wordWidth
                    wordsInLine += 1
                    continue
                }
                // The sum of the words' widths, each rounded up, runs a point or two over the line's
                // own width (measured whole, as a text is sized): a line that fits measured whole
                // fits, so that the width a text was sized to breaks it into the same lines again.
                // (A point at most per word and space: the rounding, and a pair's kerning.)
                if started, lineWidth + space + wordWidth <= width + 2 * Double(wordsInLine + 1) {
                    let whole = metrics.width(of: line + " " + word, style: style)
                    if whole <= width {
                        line += " " + word
                        lineWidth = whole
                        wordsInLine += 1
                        continue
                    }
                }
                if started { lines.append(line) }
                if lines.count >= maximum { return lines }
                started = true
                line = String(word)
                lineWidth = wordWidth
                wordsInLine = 1
                // A word wider than the line is broken by characters.
                while lineWidth > width, width > 0 {
                    var head = ""
                    var headWidth = 0.0
                    for character in line {
                        let characterWidth = metrics.width(of: String(character), style: style)
                        if headWidth + characterWidth > width { break }
                        head.append(character)
                        headWidth += characterWidth
                    }
                    if head.isEmpty { break }
                    lines.append(head)
                    if lines.count >= maximum { return lines }
                    line = String(line.dropFirst(head.count))
                    lineWidth = metrics.width(of: line, style: style)
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// Lines cut to `limit` (the text's `lineCount`), the last ending in "…".
    func limited(_ lines: [String], _ style: TextStyle, limit: Int, _ proposal: Proposal) -> [String] {
        guard lines.count > limit else { return lines }
        var kept = Array(lines.prefix(limit))
        kept[kept.count - 1] = truncated(kept[kept.count - 1], style, to: proposal.width)
        return kept
    }

    /// `line` cut to `width`, ending in "…": as many of its characters as fit with the ellipsis,
    /// each cut measured whole with it (its kerning and tracking, rounded once: as the text is then
    /// sized, so that placing it in that size cuts it the same), found by halving.
    func truncated(_ line: String, _ style: TextStyle, to width: Double?) -> String {
        guard let width, width.isFinite else { return line + "…" }
        if metrics.width(of: line + "…", style: style) <= width { return line + "…" }
        let characters = Array(line)
        var (fits, fitsNot) = (0, characters.count)
        while fitsNot - fits > 1 {
            let middle = (fits + fitsNot) / 2
            if metrics.width(of: String(characters[..<middle]) + "…", style: style) <= width { fits = middle } else { fitsNot = middle }
        }
        return String(characters[..<fits]) + "…"
    }
}
