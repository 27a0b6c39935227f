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

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
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

    public init(json: JSONValue, path: String = "view") throws(WireFormatError) {
        guard case .object(let object) = json else { throw WireFormatError(path: path, reason: "not an object") }
        guard let view = object["view"]?.stringValue, !view.isEmpty else {
            throw WireFormatError(path: path, reason: "missing \"view\" type")
        }
        self.init(view)
        for (key, value) in object.members {
            switch key {
            case "view": continue
            case "children":
                guard case .array(let array) = value else {
                    throw WireFormatError(path: "\(path).children", reason: "not an array")
                }
                children.reserveCapacity(array.count)
                for (index, child) in array.enumerated() {
                    children.append(try ViewNode(json: child, path: "\(path).children[\(index)]"))
                }
            case "modifiers":
                guard case .array(let array) = value else {
                    throw WireFormatError(path: "\(path).modifiers", reason: "not an array")
                }
                for (index, element) in array.enumerated() {
                    guard case .object(let modifier) = element, modifier.members.count == 1 else {
                        throw WireFormatError(path: "\(path).modifiers[\(index)]", reason: "not a one-member object")
                    }
                    modifiers.append(ViewModifierNode(modifier.members[0].key, modifier.members[0].value))
                }
            default:
                attributes.members.append((key, value))
            }
        }
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
