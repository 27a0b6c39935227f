/// The name a person most likely meant: for "did you mean ...?" after a typo.
package enum Suggestion {
    /// The candidate closest to `text` in edit distance (letters compared without case), when it is
    /// close enough to be a typo of it: at most a third of the length past their common start, and
    /// at least one edit, away.
    /// Nil when none is.
    package static func closest(to text: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(text.lowercased())
        var best: (candidate: String, distance: Int, allowed: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            let distance = editDistance(typed, other)
            // What the two share at the start (`org.widgets.`) is no evidence of a typo: the edits
            // allowed are a third of what follows it, so `fixture.nope` is not `fixture.late`.
            let shared = zip(typed, other).prefix { $0 == $1 }.count
            let allowed = max(1, max(typed.count, other.count) - shared) / 3
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance, max(1, allowed)) }
        }
        guard let best else { return nil }
        return best.distance <= best.allowed ? best.candidate : nil
    }

    /// " (did you mean org.widgets.system.clock?)", or "" when nothing is close.
    package static func hint(for text: String, among candidates: some Sequence<String>) -> String {
        closest(to: text, among: candidates).map { " (did you mean \($0)?)" } ?? ""
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], previous2[j - 2] + 1) }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
