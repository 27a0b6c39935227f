import FoundationEssentials
import Glibc
import WidgetWire

/// A property list value, as Xcode's files hold them: Info.plist, entitlements, string tables,
/// intent definitions (XML or binary, read by Foundation) and `project.pbxproj` (OpenStep, read by
/// `OpenStepPlist`).
public enum PlistValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var array: [PlistValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var dictionary: [String: PlistValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .integer(let value): value != 0
        case .string(let text): ["yes", "true", "1"].contains(text.lowercased()) ? true : ["no", "false", "0"].contains(text.lowercased()) ? false : nil
        default: nil
        }
    }

    public var integer: Int? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int(exactly: value)
        case .string(let text): Int(text)
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }

    public subscript(key: String) -> PlistValue? { dictionary?[key] }

    /// Reads a property list file in any of its formats: XML, binary, or OpenStep (a `.strings`
    /// file's `"key" = "value";` lines included).
    public static func read(contentsOf path: String) throws(PlistError) -> PlistValue {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlistError(file: path, line: nil, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        return try parse(data, file: path)
    }

    public static func parse(_ data: Data, file: String) throws(PlistError) -> PlistValue {
        let start = data.prefix(64)
        let isXML = start.starts(with: Array("<?xml".utf8)) || start.starts(with: [0xEF, 0xBB, 0xBF] + Array("<?xml".utf8))
            || String(decoding: start, as: UTF8.self).contains("<plist")
        if start.starts(with: Array("bplist".utf8)) || isXML {
            do {
                return try PropertyListDecoder().decode(PlistValue.self, from: data)
            } catch {
                throw PlistError(file: file, line: nil, message: "not a valid property list: \(error.explanation)")
            }
        }
        guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .utf16) else {
            throw PlistError(file: file, line: nil, message: "neither a property list nor UTF-8 or UTF-16 text")
        }
        return try OpenStepPlist.parse(text, file: file)
    }

    /// The value as an XML property list, keys in order. Written here, not by Foundation, whose
    /// writer fails on arrays in a statically linked program (as `widgets` is).
    public func xmlData() -> Data {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
        text += "<plist version=\"1.0\">\n"
        write(into: &text, depth: 0)
        text += "</plist>\n"
        return Data(text.utf8)
    }

    private func write(into text: inout String, depth: Int) {
        let indent = String(repeating: "\t", count: depth)
        func escaped(_ value: String) -> String {
            value.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
        }
        switch self {
        case .string(let value): text += "\(indent)<string>\(escaped(value))</string>\n"
        case .integer(let value): text += "\(indent)<integer>\(value)</integer>\n"
        case .real(let value): text += "\(indent)<real>\(value)</real>\n"
        case .bool(let value): text += "\(indent)<\(value ? "true" : "false")/>\n"
        case .date(let value): text += "\(indent)<date>\(ISODate.text(value))</date>\n"
        case .data(let value): text += "\(indent)<data>\(value.base64EncodedString())</data>\n"
        case .array(let items):
            guard !items.isEmpty else {
                text += "\(indent)<array/>\n"
                return
            }
            text += "\(indent)<array>\n"
            for item in items { item.write(into: &text, depth: depth + 1) }
            text += "\(indent)</array>\n"
        case .dictionary(let members):
            guard !members.isEmpty else {
                text += "\(indent)<dict/>\n"
                return
            }
            text += "\(indent)<dict>\n"
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                text += "\(indent)\t<key>\(escaped(key))</key>\n"
                value.write(into: &text, depth: depth + 1)
            }
            text += "\(indent)</dict>\n"
        }
    }
}

/// A property list that cannot be read: the file, the line when known, and why.
public struct PlistError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let line: Int?
    public let message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// As a compiler says it: `file:line: error: message`.
    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): error: \(message)" }
}

/// Read from an XML or binary property list by FoundationEssentials' decoder: a dictionary, an
/// array, or the first of a flag, an integer, a real, a date, data and a string that the value
/// is (so a `<real>` holding a whole number reads as an integer).
extension PlistValue: Decodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let members = try? decoder.container(keyedBy: Key.self) {
            var dictionary: [String: PlistValue] = [:]
            for key in members.allKeys { dictionary[key.stringValue] = try members.decode(PlistValue.self, forKey: key) }
            self = .dictionary(dictionary)
        } else if var items = try? decoder.unkeyedContainer() {
            var array: [PlistValue] = []
            while !items.isAtEnd { array.append(try items.decode(PlistValue.self)) }
            self = .array(array)
        } else {
            let value = try decoder.singleValueContainer()
            // A <string> first, the commonest (each failed try makes an error): the decoder gives a
            // String only of a <string>, and a Bool only of <true/> or <false/>.
            if let text = try? value.decode(String.self) {
                self = .string(text)
            } else if let flag = try? value.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? value.decode(Int.self) {
                self = .integer(number)
            } else if let number = try? value.decode(Double.self) {
                self = .real(number)
            } else if let date = try? value.decode(Date.self) {
                self = .date(date)
            } else if let data = try? value.decode(Data.self) {
                self = .data(data)
            } else {
                throw DecodingError.dataCorruptedError(in: value, debugDescription: "neither a string, a boolean, a number, a date nor data")
            }
        }
    }
}
