#if canImport(Glibc)
import Glibc
#endif

/// The absolute path of `path`, its links resolved (realpath(3)); nil when it does not exist or
/// cannot be reached. The loader's directory checks and `widgets build`'s compiler (its identity,
/// and the linker beside it) resolve paths so.
package func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
