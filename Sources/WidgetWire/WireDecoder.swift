/// Decodes a result straight from its bytes into `WireTimeline`, without first building a `JSONValue`
/// tree: the host decodes every answer a provider gives, and most of a result is known structure.
/// Only what has no fixed shape (view attributes, modifier values, the policy) is read as `JSONValue`.
///
/// It accepts the JSON that `JSONValue.parse` accepts (same syntax rules, same depth limit, duplicate
/// member names rejected) and reports a structural fault with its path. Paths are relative while a
/// fault is thrown and each level adds its own component on the way out, so valid input costs no
/// path strings.
struct WireDecoder {
    private var reader: JSONReader

    init(bytes: UnsafeBufferPointer<UInt8>) {
        reader = JSONReader(bytes: bytes)
    }

    mutating func timeline() throws(WireFormatError) -> WireTimeline {
        var entries: [WireEntry]?
        var policy: WireReloadPolicy??
        var others: [String] = []
        try object(depth: 0, notObject: "result is not a JSON object") { decoder, key, depth throws(WireFormatError) in
            switch key {
            case "entries":
                guard entries == nil else { throw decoder.duplicate(key) }
                var list: [WireEntry] = []
                try decoder.array(depth: depth) { decoder, depth throws(WireFormatError) in
                    list.append(try decoder.entry(depth: depth))
                }
                entries = list
            case "policy":
                guard policy == nil else { throw decoder.duplicate(key) }
                let value = try decoder.value(depth: depth)
                policy = .some(value == .null ? nil : try WireReloadPolicy(json: value))
            default:
                guard !others.contains(key) else { throw decoder.duplicate(key) }
                others.append(key)
                _ = try decoder.value(depth: depth)
            }
        }
        reader.skipWhitespace()
        guard reader.position == reader.bytes.count else { throw syntax(reader.error("trailing content after the document")) }
        guard let entries else { throw WireFormatError(path: "", reason: "missing \"entries\"") }
        return WireTimeline(entries: entries, policy: policy ?? nil)
    }

    private mutating func entry(depth: Int) throws(WireFormatError) -> WireEntry {
        var date: Double?
        var relevance: WireRelevance??
        var view: ViewNode?
        var others: [String] = []
        try object(depth: depth) { decoder, key, depth throws(WireFormatError) in
            switch key {
            case "date":
                guard date == nil else { throw decoder.duplicate(key) }
                guard case .number(let number) = try decoder.value(depth: depth) else {
                    throw WireFormatError(path: "", reason: "not a number")
                }
                date = number
            case "view":
                guard view == nil else { throw decoder.duplicate(key) }
                view = try decoder.node(depth: depth)
            case "relevance":
                guard relevance == nil else { throw decoder.duplicate(key) }
                relevance = .some(try decoder.relevance(depth: depth))
            default:
                guard !others.contains(key) else { throw decoder.duplicate(key) }
                others.append(key)
                _ = try decoder.value(depth: depth)
            }
        }
        guard let date else { throw WireFormatError(path: "", reason: "missing \"date\"") }
        guard let view else { throw WireFormatError(path: "", reason: "missing \"view\"") }
        return WireEntry(date: date, relevance: relevance ?? nil, view: view)
    }

    private mutating func relevance(depth: Int) throws(WireFormatError) -> WireRelevance? {
        let value = try value(depth: depth)
        guard value != .null else { return nil }
        guard let score = value["score"]?.numberValue else { throw WireFormatError(path: "", reason: "missing numeric \"score\"") }
        let duration = value["duration"]?.numberValue ?? 0
        guard duration >= 0 else { throw WireFormatError(path: "duration", reason: "negative duration \(duration)") }
        return WireRelevance(score: score, duration: duration)
    }

    private mutating func node(depth: Int) throws(WireFormatError) -> ViewNode {
        var node = ViewNode("")
        var sawChildren = false
        var sawModifiers = false
        try object(depth: depth) { decoder, key, depth throws(WireFormatError) in
            switch key {
            case "view":
                guard node.view.isEmpty else { throw decoder.duplicate(key) }
                guard case .string(let type) = try decoder.value(depth: depth), !type.isEmpty else {
                    // Reported at the node, not at its "view" member.
                    throw WireFormatError(path: "", reason: "missing \"view\" type").asNodeFault
                }
                node.view = type
            case "children":
                guard !sawChildren else { throw decoder.duplicate(key) }
                sawChildren = true
                try decoder.array(depth: depth) { decoder, depth throws(WireFormatError) in
                    node.children.append(try decoder.node(depth: depth))
                }
            case "modifiers":
                guard !sawModifiers else { throw decoder.duplicate(key) }
                sawModifiers = true
                try decoder.array(depth: depth) { decoder, depth throws(WireFormatError) in
                    var modifier: ViewModifierNode?
                    try decoder.object(depth: depth, notObject: "not a one-member object") { decoder, name, depth throws(WireFormatError) in
                        guard modifier == nil else { throw WireFormatError(path: "", reason: "not a one-member object").asNodeFault }
                        modifier = ViewModifierNode(name, try decoder.value(depth: depth))
                    }
                    guard let modifier else { throw WireFormatError(path: "", reason: "not a one-member object") }
                    node.modifiers.append(modifier)
                }
            default:
                guard node.attributes[key] == nil else { throw decoder.duplicate(key) }
                node.attributes.members.append((key, try decoder.value(depth: depth)))
            }
        }
        guard !node.view.isEmpty else { throw WireFormatError(path: "", reason: "missing \"view\" type") }
        return node
    }

    // MARK: - Structure

    /// Reads an object member by member; `body` reads each member's value (and rejects names it has
    /// seen). A fault inside a member is reported under the member's name.
    private mutating func object(
        depth: Int, notObject: String = "not an object", _ body: (inout WireDecoder, String, Int) throws(WireFormatError) -> Void
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
            let name = try syntax { (reader: inout JSONReader) throws(JSONSyntaxError) in try reader.readString() }
            guard try peek() == UInt8(ascii: ":") else { throw syntax(reader.error("expected ':'")) }
            reader.position += 1
            do {
                try body(&self, name, depth + 1)
            } catch {
                throw error.isNodeFault ? error.withoutNodeFault : error.within(name)
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

    private func duplicate(_ name: String) -> WireFormatError {
        syntax(reader.error("duplicate member \"\(name)\""))
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
