/// The compiler that built this image, recorded in every Swift bundle's `built_with` and compared by
/// the host: Swift has no stable ABI on Linux, so a Swift bundle must come from the host's compiler.
public enum Toolchain {
    public static var current: String {
        #if compiler(>=6.5)
            "swift-6.5+"
        #elseif compiler(>=6.4)
            "swift-6.4"
        #elseif compiler(>=6.3.2)
            "swift-6.3.2+"
        #elseif compiler(>=6.3.1)
            "swift-6.3.1"
        #elseif compiler(>=6.3)
            "swift-6.3.0"
        #else
            "swift-older-than-6.3"
        #endif
    }
}

extension Toolchain {
    /// What `current` says in an image built by the compiler of that version ("6.3.1"): how a tool
    /// that compiles bundles knows whether a `swiftc` makes bundles this host loads.
    public static func name(forCompilerVersion version: String) -> String {
        let parts = version.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
        let major = parts.first ?? 0
        let minor = parts.count > 1 ? parts[1] : 0
        let patch = parts.count > 2 ? parts[2] : 0
        if major > 6 || (major == 6 && minor >= 5) { return "swift-6.5+" }
        if major == 6 && minor == 4 { return "swift-6.4" }
        if major == 6 && minor == 3 { return patch >= 2 ? "swift-6.3.2+" : patch == 1 ? "swift-6.3.1" : "swift-6.3.0" }
        return "swift-older-than-6.3"
    }
}
