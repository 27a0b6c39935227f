/// A worker's output made into lines, as a value: bytes in, whole lines out. Linear in what it is
/// given: each byte is looked at once, and a line that grows past `longest` bytes is kept cut, its
/// length counted, however long it goes on without a newline; it comes out as its first `longest`
/// bytes followed by "… (N bytes)".
struct OutputLines {
    let longest: Int
    /// The start of a line whose end has not come.
    private var tail: [UInt8] = []
    /// A line cut because it grew too long: its bytes, counted until its end comes.
    private var cutBytes = 0

    init(longest: Int) {
        self.longest = longest
    }

    /// The lines `bytes` completes.
    mutating func take(_ bytes: ArraySlice<UInt8>) -> [String] {
        var lines: [String] = []
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            add(bytes[start..<index])
            lines.append(endLine())
            start = index + 1
        }
        if start < bytes.endIndex { add(bytes[start...]) }
        return lines
    }

    /// The last line, when the output ended without its newline.
    mutating func finish() -> String? {
        tail.isEmpty && cutBytes == 0 ? nil : endLine()
    }

    private mutating func add(_ bytes: ArraySlice<UInt8>) {
        if cutBytes > 0 {
            cutBytes += bytes.count
        } else if tail.count + bytes.count > longest {
            cutBytes = tail.count + bytes.count
            tail += bytes.prefix(max(0, longest - tail.count))
        } else {
            tail += bytes
        }
    }

    private mutating func endLine() -> String {
        var line = String(decoding: tail, as: UTF8.self)
        if cutBytes > 0 { line += "… (\(cutBytes) bytes)" }
        tail.removeAll(keepingCapacity: true)
        cutBytes = 0
        return line
    }
}
