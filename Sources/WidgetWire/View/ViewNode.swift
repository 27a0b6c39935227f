/// One node of a rendered view tree, as it crosses the ABI.
///
/// On the wire a node is an object: `"view"` names its type (`"text"`, `"vstack"`, ...), optional
/// `"children"` holds child nodes, optional `"modifiers"` holds modifiers in the order they were
/// applied (innermost first), and every other member is an attribute of the view (`"text"`,
/// `"spacing"`, `"alignment"`...). docs/ABI.md lists the views and modifiers the host knows; a node of
/// a type it does not know is kept and rendered as its children.
public struct ViewNode: Equatable, Sendable {
    public var view: String
    public var attributes: JSONObject
    public var children: [ViewNode]
    public var modifiers: [ViewModifierNode]

    public init(
        _ view: String, attributes: JSONObject = JSONObject(), children: [ViewNode] = [],
        modifiers: [ViewModifierNode] = []
    ) {
        self.view = view
        self.attributes = attributes
        self.children = children
        self.modifiers = modifiers
    }

    public subscript(attribute: String) -> JSONValue? { attributes[attribute] }

    /// The first modifier of that name, if any.
    public func modifier(_ name: String) -> JSONValue? {
        modifiers.first { $0.name == name }?.value
    }

    /// Whether this node or any below it has a modifier of that name.
    public func hasModifier(_ name: String) -> Bool {
        modifiers.contains { $0.name == name } || children.contains { $0.hasModifier(name) }
    }
}

/// A modifier applied to a view: on the wire, a one-member object such as `{"font":"title"}`.
public struct ViewModifierNode: Equatable, Sendable {
    public var name: String
    public var value: JSONValue

    public init(_ name: String, _ value: JSONValue) {
        self.name = name
        self.value = value
    }
}

/// Why a JSON value is not the wire structure it should be. `path` locates the fault, e.g.
/// `entries[2].view.children[0]`.
public struct WireFormatError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// A syntax error is located by its byte offset (in `reason`), not by a path.
    var isSyntax = false

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// One line, however long or strange the input the reason quotes.
    public var description: String { (path.isEmpty ? reason : "\(path): \(reason)").onOneLine.cut(to: 1000) }

    /// The same fault seen from the parent: `view` under `entries[0]` is `entries[0].view`. Paths are
    /// built this way, while the error propagates, so decoding valid input never builds one.
    func within(_ component: String) -> WireFormatError {
        guard !isSyntax else { return self }
        var copy = self
        copy.path = path.isEmpty ? component : (path.hasPrefix("[") ? component + path : component + "." + path)
        return copy
    }
}

extension ViewNode {
    public var json: JSONValue {
        var object = JSONObject([("view", .string(view))])
        object.members.append(contentsOf: attributes.members)
        if !children.isEmpty { object.members.append(("children", .array(children.map(\.json)))) }
        if !modifiers.isEmpty {
            object.members.append(
                ("modifiers", .array(modifiers.map { .object(JSONObject([($0.name, $0.value)])) })))
        }
        return .object(object)
    }

}

extension JSONWriter {
    /// Writes a node as `node.json` would, without building the intermediate value.
    public mutating func write(_ node: ViewNode) {
        writeRaw("{\"view\":")
        write(node.view)
        for member in node.attributes.members {
            bytes.append(UInt8(ascii: ","))
            write(member.key)
            bytes.append(UInt8(ascii: ":"))
            write(member.value)
        }
        if !node.children.isEmpty {
            writeRaw(",\"children\":[")
            for (index, child) in node.children.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(child)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        if !node.modifiers.isEmpty {
            writeRaw(",\"modifiers\":[")
            for (index, modifier) in node.modifiers.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(UInt8(ascii: "{"))
                write(modifier.name)
                bytes.append(UInt8(ascii: ":"))
                write(modifier.value)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
    }
}

extension ViewNode {
    /// A tree from its JSON (a control client reads one from the host's `entries` answer), checked
    /// as a provider's is (`WireLimits`, well-formed nodes).
    public init(json: JSONValue) throws(WireFormatError) {
        let entry = JSONValue.object(JSONObject([("date", .number(0)), ("view", json)]))
        let timeline = try WireTimeline(json: .object(JSONObject([("entries", .array([entry]))])))
        self = timeline.entries[0].view
    }
}
