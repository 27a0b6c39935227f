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
