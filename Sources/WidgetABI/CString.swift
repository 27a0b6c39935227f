/// Calls `body` with `string` as a C string, or with NULL for nil: for the ABI's optional strings.
package func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
