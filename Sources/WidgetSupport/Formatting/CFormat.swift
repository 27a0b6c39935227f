import Glibc

/// `format` filled as C's printf fills it ("%.1f", "%02ld", "%08X"): what `String(format:)` did,
/// which is Foundation's with ICU, not FoundationEssentials'. An integer is a Swift `Int` for
/// `%ld`, a `UInt32` or `Int32` for `%d`/`%X`.
package func cFormat(_ format: String, _ arguments: any CVarArg...) -> String {
    withVaList(arguments) { list in
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
        guard needed >= buffer.count else { return decodedCString(buffer) }
        return withVaList(arguments) { again in
            var larger = [CChar](repeating: 0, count: needed + 1)
            _ = vsnprintf(&larger, larger.count, format, again)
            return decodedCString(larger)
        }
    }
}

/// The text of a C string in a buffer, up to its terminating zero.
package func decodedCString(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
