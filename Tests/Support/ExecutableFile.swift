import Foundation

/// Writes a program a test runs (a stand-in browser, opener, compiler) as `path`, mode 0755: through a
/// close-on-exec descriptor under a temporary name, then renamed into place. Written as any other
/// file, the descriptor open for writing was inherited by whatever process another test started
/// meanwhile, and running the program failed with "Text file busy" until that one had exec'd.
public func writeExecutable(_ text: String, to path: URL) throws {
    let temporary = path.deletingLastPathComponent().appendingPathComponent(".\(path.lastPathComponent)-\(UUID().uuidString)").path
    /// The file and why it could not be written, as the system says.
    func failure(_ file: String) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
    }
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw failure(temporary) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    guard written == bytes.count, chmod(temporary, 0o755) == 0, rename(temporary, path.path) == 0 else {
        let error = failure(path.path)
        unlink(temporary)
        throw error
    }
}
