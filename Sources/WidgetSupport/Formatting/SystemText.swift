import Glibc

/// The C library's text for an `errno` value: "No such file or directory".
package func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

/// What a symbolic link holds (`/proc/self/exe`: the executable's absolute path), or nil.
package func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A file mode's permission bits as `chmod` takes them: "0644".
package func octal(_ mode: mode_t) -> String {
    let digits = String(mode & 0o7777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// The name and meaning of a signal that ended a process.
package func signalDescription(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        SIGSEGV: "SIGSEGV (segmentation fault)",
        SIGABRT: "SIGABRT (abort)",
        SIGILL: "SIGILL (illegal instruction: a Swift runtime trap such as fatalError or a failed precondition)",
        SIGTRAP: "SIGTRAP (trace trap: a Swift runtime trap)",
        SIGBUS: "SIGBUS (bus error)",
        SIGFPE: "SIGFPE (arithmetic error)",
        SIGKILL: "SIGKILL (killed)",
        SIGTERM: "SIGTERM (terminated)",
    ]
    return names[signal] ?? "signal \(signal)"
}
