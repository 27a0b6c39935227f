import Foundation

/// A small deterministic generator (SplitMix64), so a failing case can be found again by its seed.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Mutations of valid input, as a fuzzer makes them: each case is reproducible from its seed.
public enum Fuzzing {
    /// How many cases a fuzzer runs: `suite` in the test suite; WIDGETS_FUZZ=N runs N (3 000, say).
    public static func runs(suite: Int) -> Int {
        ProcessInfo.processInfo.environment["WIDGETS_FUZZ"].flatMap(Int.init) ?? suite
    }

    /// Numbers no format expects.
    static let strangeNumbers = ["1e999", "-1e999", "1e308", "-1e308", "1e-400", "123456789012345678901234567890", "-0", "4294967296", "NaN", "0x10"]

    /// One mutation of `bytes`, chosen by `random`.
    public static func mutate(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            // Bytes flipped.
            for _ in 0..<Int.random(in: 1...8, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        case 1:
            // Truncated.
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
        case 2:
            // Random bytes inserted.
            let at = Int.random(in: 0...bytes.count, using: &random)
            bytes.insert(contentsOf: (0..<Int.random(in: 1...16, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
        case 3:
            // A slice repeated.
            guard !bytes.isEmpty else { break }
            let start = Int.random(in: 0..<bytes.count, using: &random)
            let end = Int.random(in: start...bytes.count, using: &random)
            bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0...bytes.count, using: &random))
        case 4:
            // A digit run replaced by a strange number.
            guard let at = bytes.indices.filter({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }).randomElement(using: &random) else { break }
            var end = at
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
            bytes.replaceSubrange(at..<end, with: Array(strangeNumbers.randomElement(using: &random)!.utf8))
        case 5:
            // Nested deep.
            let depth = Int.random(in: 100...5000, using: &random)
            let open = Bool.random(using: &random) ? Array("[".utf8) : Array("{\"a\":".utf8)
            bytes = Array(repeating: open, count: depth).flatMap { $0 } + bytes
        case 6:
            // Random bytes only.
            bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        default:
            // Two mutations.
            bytes = mutate(mutate(bytes, &random), &random)
        }
        return bytes
    }
}
