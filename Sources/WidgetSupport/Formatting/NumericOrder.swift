extension StringProtocol {
    /// Whether this text sorts before `other` when runs of ASCII digits compare as the numbers they
    /// write ("w2" before "w10"; leading zeros ignored), other characters by their scalars: the
    /// order of Foundation's `compare(_:options: .numeric)` for ASCII names (beyond ASCII,
    /// Foundation compares decomposed characters). Names alike but for leading zeros ("a01", "a1")
    /// are ordered by their scalars, so that a sort of them is the same at every run.
    package func precedesNumerically(_ other: some StringProtocol) -> Bool {
        let left = Array(unicodeScalars), right = Array(other.unicodeScalars)
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        func run(_ scalars: [Unicode.Scalar], from start: Int) -> (digits: ArraySlice<Unicode.Scalar>, end: Int) {
            var end = start
            while end < scalars.count, isDigit(scalars[end]) { end += 1 }
            let digits = scalars[start..<end].drop { $0 == "0" }
            return (digits, end)
        }
        var (i, j) = (0, 0)
        while i < left.count, j < right.count {
            if isDigit(left[i]), isDigit(right[j]) {
                let (a, nextI) = run(left, from: i)
                let (b, nextJ) = run(right, from: j)
                if a.count != b.count { return a.count < b.count }
                if let difference = zip(a, b).first(where: { $0 != $1 }) { return difference.0.value < difference.1.value }
                (i, j) = (nextI, nextJ)
                continue
            }
            if left[i] != right[j] { return left[i].value < right[j].value }
            (i, j) = (i + 1, j + 1)
        }
        if left.count - i != right.count - j { return left.count - i < right.count - j }
        return left.lexicographicallyPrecedes(right) { $0.value < $1.value }
    }
}
