/// Decodes a result straight from its bytes into `WireTimeline`, without first building a `JSONValue`
/// tree: the host decodes every answer a provider gives, and most of a result is known structure.
/// Only what has no fixed shape (view attributes, modifier values) is read as `JSONValue`. Member
/// names are compared where they lie in the bytes, and a relevance or a policy in its usual shape is
/// read in place; anything unusual there is read the general way, which decides it.
///
/// It accepts the JSON that `JSONValue.parse` accepts (same syntax rules, same depth limit, duplicate
/// member names rejected) and reports a structural fault with its path. Paths are relative while a
/// fault is thrown and each level adds its own component on the way out, so valid input costs no
/// path strings.
struct WireDecoder {
    private var reader: JSONReader
    /// What the entry being read has cost so far (its views, and the bytes of their text), against
    /// `WireLimits`.
    private var nodesInEntry = 0
    private var textBytesInEntry = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        reader = JSONReader(bytes: bytes)
    }

    mutating func timeline() throws(WireFormatError) -> WireTimeline {
        var entries: [WireEntry]?
        var policy: WireReloadPolicy??
        var others: [String] = []
        try object(depth: 0, notObject: "result is not a JSON object") { decoder, name, depth throws(WireFormatError) in
            if name.is("entries") {
                guard entries == nil else { throw decoder.duplicate(name) }
                var list: [WireEntry] = []
                try decoder.array(depth: depth) { decoder, depth throws(WireFormatError) in
                    list.append(try decoder.entry(depth: depth))
                }
                entries = list
            } else if name.is("policy") {
                guard policy == nil else { throw decoder.duplicate(name) }
                policy = .some(try decoder.policy(depth: depth))
            } else {
                try decoder.other(name, seen: &others, depth: depth)
            }
        }
        reader.skipWhitespace()
        guard reader.position == reader.bytes.count else { throw syntax(reader.error("trailing content after the document")) }
        guard let entries else { throw WireFormatError(path: "", reason: "missing \"entries\"") }
        return WireTimeline(entries: entries, policy: policy ?? nil)
    }

    private mutating func entry(depth: Int) throws(WireFormatError) -> WireEntry {
        (nodesInEntry, textBytesInEntry) = (0, 0)
        var date: Double?
        var relevance: WireRelevance??
        var view: ViewNode?
        var others: [String] = []
        try object(depth: depth) { decoder, name, depth throws(WireFormatError) in
            if name.is("date") {
                guard date == nil else { throw decoder.duplicate(name) }
                guard let number = try decoder.number(depth: depth) else { throw WireFormatError(path: "", reason: "not a number") }
                try WireDate.check(number)
                date = number
            } else if name.is("view") {
                guard view == nil else { throw decoder.duplicate(name) }
                view = try decoder.node(depth: depth)
            } else if name.is("relevance") {
                guard relevance == nil else { throw decoder.duplicate(name) }
                relevance = .some(try decoder.relevance(depth: depth))
            } else {
                try decoder.other(name, seen: &others, depth: depth)
            }
        }
        guard let date else { throw WireFormatError(path: "", reason: "missing \"date\"") }
        guard let view else { throw WireFormatError(path: "", reason: "missing \"view\"") }
        return WireEntry(date: date, relevance: relevance ?? nil, view: view)
    }

    /// A member the format does not know: read (so its syntax is checked) and dropped.
    private mutating func other(_ name: MemberName, seen: inout [String], depth: Int) throws(WireFormatError) {
        let text = name.string
        guard !seen.contains(text) else { throw duplicate(name) }
        seen.append(text)
        _ = try value(depth: depth)
    }

    private mutating func relevance(depth: Int) throws(WireFormatError) -> WireRelevance? {
        if try peek() == UInt8(ascii: "n"), try value(depth: depth) == .null { return nil }
        var score: Double??
        var duration: Double??
        var others: [String] = []
        try object(depth: depth, notObject: "missing numeric \"score\"") { decoder, name, depth throws(WireFormatError) in
            if name.is("score") {
                guard score == nil else { throw decoder.duplicate(name) }
                score = .some(try decoder.number(depth: depth))
            } else if name.is("duration") {
                guard duration == nil else { throw decoder.duplicate(name) }
                duration = .some(try decoder.number(depth: depth))
            } else {
                try decoder.other(name, seen: &others, depth: depth)
            }
        }
        guard let score = score ?? nil else { throw WireFormatError(path: "", reason: "missing numeric \"score\"") }
        let seconds = (duration ?? nil) ?? 0
        guard seconds >= 0 else { throw WireFormatError(path: "duration", reason: "negative duration \(seconds)") }
        return WireRelevance(score: score, duration: seconds)
    }

    private mutating func policy(depth: Int) throws(WireFormatError) -> WireReloadPolicy? {
        if try peek() == UInt8(ascii: "n"), try value(depth: depth) == .null { return nil }
        var kind: String??
        var date: Double??
        var others: [String] = []
        try object(depth: depth, notObject: WireReloadPolicy.missingKind) { decoder, name, depth throws(WireFormatError) in
            if name.is("kind") {
                guard kind == nil else { throw decoder.duplicate(name) }
                kind = .some(try decoder.string(depth: depth))
            } else if name.is("date") {
                guard date == nil else { throw decoder.duplicate(name) }
                date = .some(try decoder.number(depth: depth))
            } else {
                try decoder.other(name, seen: &others, depth: depth)
            }
        }
        return try WireReloadPolicy(kind: kind ?? nil, date: date ?? nil)
    }

    private mutating func node(depth: Int) throws(WireFormatError) -> ViewNode {
        nodesInEntry += 1
        guard nodesInEntry <= WireLimits.viewsPerEntry else {
            throw WireFormatError(
                path: "", reason: "the entry has more than \(WireLimits.viewsPerEntry) views, the most the host draws for one entry (a widget's has tens)")
        }
        var node = ViewNode("")
        var sawChildren = false
        var sawModifiers = false
        try object(depth: depth) { decoder, key, depth throws(WireFormatError) in
            if key.is("view") {
                guard node.view.isEmpty else { throw decoder.duplicate(key) }
                guard let type = try decoder.string(depth: depth), !type.isEmpty else {
                    // Reported at the node, not at its "view" member.
                    throw WireFormatError(path: "", reason: "missing \"view\" type").asNodeFault
                }
                node.view = type
            } else if key.is("children") {
                guard !sawChildren else { throw decoder.duplicate(key) }
                sawChildren = true
                try decoder.array(depth: depth) { decoder, depth throws(WireFormatError) in
                    // Room for a stack's usual few at the first, not a new buffer at each of them.
                    if node.children.isEmpty { node.children.reserveCapacity(4) }
                    node.children.append(try decoder.node(depth: depth))
                }
            } else if key.is("modifiers") {
                guard !sawModifiers else { throw decoder.duplicate(key) }
                sawModifiers = true
                try decoder.array(depth: depth) { decoder, depth throws(WireFormatError) in
                    var modifier: ViewModifierNode?
                    try decoder.object(depth: depth, notObject: "not a one-member object") { decoder, name, depth throws(WireFormatError) in
                        guard modifier == nil else { throw WireFormatError(path: "", reason: "not a one-member object").asNodeFault }
                        modifier = ViewModifierNode(name.string, try decoder.value(depth: depth))
                    }
                    guard let modifier else { throw WireFormatError(path: "", reason: "not a one-member object") }
                    node.modifiers.append(modifier)
                }
            } else {
                let name = key.string
                guard node.attributes[name] == nil else { throw decoder.duplicate(key) }
                let value = try decoder.value(depth: depth)
                // A picture's data is bounded by the result's size; every other string is text.
                if name != "data" {
                    decoder.textBytesInEntry += WireLimits.textBytes(in: value)
                    guard decoder.textBytesInEntry <= WireLimits.textBytesPerEntry else {
                        throw WireFormatError(
                            path: "",
                            reason: "the entry's text is over \(WireLimits.textBytesPerEntry >> 10) KiB, the most the host draws for one entry (a widget shows a few hundred characters)"
                        ).asNodeFault
                    }
                }
                node.attributes.members.append((name, value))
            }
        }
        guard !node.view.isEmpty else { throw WireFormatError(path: "", reason: "missing \"view\" type") }
        try WireDate.checkAttributes(of: node)
        return node
    }

    // MARK: - Structure

    /// Reads an object member by member; `body` reads each member's value (and rejects names it has
    /// seen). A fault inside a member is reported under the member's name.
    private mutating func object(
        depth: Int, notObject: String = "not an object", _ body: (inout WireDecoder, MemberName, Int) throws(WireFormatError) -> Void
    ) throws(WireFormatError) {
        guard try peek() == UInt8(ascii: "{") else {
            _ = try value(depth: depth)
            throw WireFormatError(path: "", reason: notObject)
        }
        guard depth < JSONValue.maximumDepth else { throw syntax(reader.error("nested deeper than \(JSONValue.maximumDepth) levels")) }
        reader.position += 1
        if try peek() == UInt8(ascii: "}") {
            reader.position += 1
            return
        }
        while true {
            guard try peek() == UInt8(ascii: "\"") else { throw syntax(reader.error("expected a member name")) }
            let name = try memberName()
            guard try peek() == UInt8(ascii: ":") else { throw syntax(reader.error("expected ':'")) }
            reader.position += 1
            do {
                try body(&self, name, depth + 1)
            } catch {
                throw error.isNodeFault ? error.withoutNodeFault : error.within(name.string)
            }
            if try endOfMember(closedBy: "}", in: "an object") { return }
        }
    }

    /// After a member or element: true at the container's closing bracket, false after a comma.
    private mutating func endOfMember(closedBy close: Unicode.Scalar, in container: String) throws(WireFormatError) -> Bool {
        reader.skipWhitespace()
        guard reader.position < reader.bytes.count else { throw syntax(reader.error("unexpected end of input in \(container)")) }
        switch reader.bytes[reader.position] {
        case UInt8(ascii: ","):
            reader.position += 1
            return false
        case UInt8(ascii: close):
            reader.position += 1
            return true
        default: throw syntax(reader.error("expected ',' or '\(close)'"))
        }
    }

    /// Reads an array element by element; a fault inside an element is reported under its index.
    private mutating func array(depth: Int, _ body: (inout WireDecoder, Int) throws(WireFormatError) -> Void) throws(WireFormatError) {
        guard try peek() == UInt8(ascii: "[") else {
            _ = try value(depth: depth)
            throw WireFormatError(path: "", reason: "not an array")
        }
        guard depth < JSONValue.maximumDepth else { throw syntax(reader.error("nested deeper than \(JSONValue.maximumDepth) levels")) }
        reader.position += 1
        if try peek() == UInt8(ascii: "]") {
            reader.position += 1
            return
        }
        var index = 0
        while true {
            do {
                try body(&self, depth + 1)
            } catch {
                throw error.within("[\(index)]")
            }
            index += 1
            if try endOfMember(closedBy: "]", in: "an array") { return }
        }
    }

    /// A member's name, whose opening quote is next: in place when it is plain ASCII.
    private mutating func memberName() throws(WireFormatError) -> MemberName {
        let start = reader.position
        if let plain = try syntax({ (reader: inout JSONReader) throws(JSONSyntaxError) in try reader.readPlainString() }), plain.isASCII {
            return MemberName(plain: plain.bytes)
        }
        reader.position = start
        return MemberName(decoded: try syntax { (reader: inout JSONReader) throws(JSONSyntaxError) in try reader.readString() })
    }

    /// The next value if it is a number; nil, with the value read, if it is not.
    private mutating func number(depth: Int) throws(WireFormatError) -> Double? {
        let next = try peek()
        if depth < JSONValue.maximumDepth, next == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
            return try syntax { (reader: inout JSONReader) throws(JSONSyntaxError) in try reader.readNumber() }
        }
        return try value(depth: depth).numberValue
    }

    /// The next value if it is a string; nil, with the value read, if it is not.
    private mutating func string(depth: Int) throws(WireFormatError) -> String? {
        if depth < JSONValue.maximumDepth, try peek() == UInt8(ascii: "\"") {
            return try syntax { (reader: inout JSONReader) throws(JSONSyntaxError) in try reader.readString() }
        }
        return try value(depth: depth).stringValue
    }

    private mutating func value(depth: Int) throws(WireFormatError) -> JSONValue {
        _ = try peek()
        return try syntax { (reader: inout JSONReader) throws(JSONSyntaxError) in try reader.readValue(depth: depth) }
    }

    /// The next byte after whitespace, not consumed.
    private mutating func peek() throws(WireFormatError) -> UInt8 {
        reader.skipWhitespace()
        guard reader.position < reader.bytes.count else { throw syntax(reader.error("unexpected end of input")) }
        return reader.bytes[reader.position]
    }

    private func duplicate(_ name: MemberName) -> WireFormatError {
        syntax(reader.error("duplicate member \"\(name.string)\""))
    }

    private mutating func syntax<T>(_ read: (inout JSONReader) throws(JSONSyntaxError) -> T) throws(WireFormatError) -> T {
        do throws(JSONSyntaxError) {
            return try read(&reader)
        } catch {
            throw syntax(error)
        }
    }

    private func syntax(_ error: JSONSyntaxError) -> WireFormatError {
        var fault = WireFormatError(path: "", reason: error.description)
        fault.isSyntax = true
        return fault
    }
}

/// A member's name as the decoder met it: the bytes in place when it is plain ASCII (the usual
/// case, which then costs no `String`), or the decoded text.
private struct MemberName {
    private let plain: UnsafeBufferPointer<UInt8>?
    private let decoded: String?

    init(plain: UnsafeBufferPointer<UInt8>) {
        self.plain = plain
        decoded = nil
    }

    init(decoded: String) {
        plain = nil
        self.decoded = decoded
    }

    @inline(__always)
    func `is`(_ name: StaticString) -> Bool {
        if let plain { return equals(plain, name) }
        return decoded.unsafelyUnwrapped.utf8.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    var string: String { plain.map { String(decoding: $0, as: UTF8.self) } ?? decoded.unsafelyUnwrapped }
}

@inline(__always)
private func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
    guard bytes.count == name.utf8CodeUnitCount else { return false }
    let other = name.utf8Start
    for index in 0..<bytes.count where bytes[index] != other[index] { return false }
    return true
}

extension WireFormatError {
    /// Marks a fault of a member that belongs to the object holding it (a node's missing type is the
    /// node's fault, not its "view" member's): the object passes it up without adding the name.
    fileprivate var asNodeFault: WireFormatError {
        var copy = self
        copy.path = "\u{0}"
        return copy
    }

    fileprivate var isNodeFault: Bool { path == "\u{0}" }

    fileprivate var withoutNodeFault: WireFormatError {
        var copy = self
        copy.path = ""
        return copy
    }
}

extension WireTimeline {
    /// Decodes and checks the structure (not the semantics: ordering and policy sense are the host's
    /// validation). Every fault names where it is.
    public init(bytes: UnsafeBufferPointer<UInt8>) throws(WireFormatError) {
        var decoder = WireDecoder(bytes: bytes)
        self = try decoder.timeline()
    }
}
