#if canImport(Glibc)
import Glibc
#endif

/// Hands `bytes` to `transfer` (a write(2) or send(2) of the part it is given) until all of them are
/// taken, again after EINTR. Returns nil once everything is written, else the error that stopped it
/// (EIO for a call that took nothing). Given `pollingWhenFull`, a descriptor left non-blocking that
/// is full (EAGAIN) is polled until it takes more; otherwise EAGAIN stops it like any other error.
///
/// The one write-everything loop of both sides: the SDK's shared defaults, the instance store, the
/// control socket and server, the home screen's HTTP server and the CLI's output.
package func writeAll(
    _ bytes: UnsafeRawBufferPointer, pollingWhenFull descriptor: Int32? = nil,
    _ transfer: (UnsafeRawBufferPointer) -> Int
) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let count = transfer(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        if count > 0 {
            offset += count
            continue
        }
        let error = count == 0 ? EIO : errno
        if error == EINTR { continue }
        if error == EAGAIN || error == EWOULDBLOCK, let descriptor {
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, -1)
            continue
        }
        return error
    }
    return nil
}

/// Writes `text` whole to standard error (or another descriptor), as a program's diagnostics and
/// output go: `writeAll`'s loop, waiting on a descriptor left non-blocking (a terminal shared with
/// tmux). Returns nil, or the error that stopped it.
@discardableResult
package func writeWhole(_ text: String, to descriptor: Int32 = 2) -> Int32? {
    var text = text
    return text.withUTF8 { bytes in
        writeAll(UnsafeRawBufferPointer(bytes), pollingWhenFull: descriptor) { write(descriptor, $0.baseAddress, $0.count) }
    }
}
