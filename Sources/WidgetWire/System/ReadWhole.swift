#if canImport(Glibc)
import Glibc
#endif

/// A regular file's bytes, read with read(2) in as few reads as its size takes (again after EINTR);
/// nil when it cannot be opened or read, or is not a regular file. A file of the kernel's (in /proc)
/// says its size is 0: a page is asked for first, and the buffer doubles as it fills.
///
/// writeAll's counterpart, for what must not wait on Foundation: the registry cache a command reads
/// as it starts, and the status a worker reads once loaded (Foundation's first read of a file costs
/// a quarter of a millisecond of initialization, in every worker).
package func readWhole(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size) + 1, 4096))
    var count = 0
    while true {
        if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
        let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
        if read < 0 && errno == EINTR { continue }
        guard read >= 0 else { return nil }
        if read == 0 { break }
        count += read
    }
    bytes.removeLast(bytes.count - count)
    return bytes
}
