/// A path's parts, as `dirname` and `basename` give them, on the path's bytes: loading a hundred
/// bundles splits a few hundred paths, and NSString's versions cost more than the loader's own work.
extension String {
    /// The directory part: "" for a bare name, "/" for a name at the root; trailing slashes ignored.
    package var pathDirectory: String {
        let bytes = Array(utf8)
        var end = bytes.count
        while end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        guard let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) else { return "" }
        var cut = slash
        while cut > 0, bytes[cut - 1] == UInt8(ascii: "/") { cut -= 1 }
        return cut == 0 ? "/" : String(decoding: bytes[..<cut], as: UTF8.self)
    }

    /// The last component: the name after the last slash; trailing slashes ignored; "/" for the root.
    package var pathFileName: String {
        let bytes = Array(utf8)
        var end = bytes.count
        while end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        guard let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) else { return String(decoding: bytes[..<end], as: UTF8.self) }
        return end == 1 ? "/" : String(decoding: bytes[(slash + 1)..<end], as: UTF8.self)
    }

    /// The extension of the last component, without its dot ("swift" of "Main.swift"); "" when it
    /// has none (a name that only starts with a dot, ".hidden", has none), as NSString's `pathExtension`.
    package var pathNameExtension: String {
        let name = pathFileName
        guard let dot = Self.extensionDot(of: name) else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The path without the extension of its last component and its dot ("Sources/Main" of
    /// "Sources/Main.swift"), as NSString's `deletingPathExtension`.
    package var pathWithoutExtension: String {
        var text = self
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        let name = text.pathFileName
        guard let dot = Self.extensionDot(of: name) else { return text }
        return String(text.dropLast(name.distance(from: dot, to: name.endIndex)))
    }

    /// The dot before a name's extension: its last, unless it is the first character.
    private static func extensionDot(of name: String) -> String.Index? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return dot
    }
}
