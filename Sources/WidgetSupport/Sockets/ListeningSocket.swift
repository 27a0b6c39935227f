import CHostShims
import FoundationEssentials
import Glibc

/// Listening TCP sockets, and who is at the other end of an accepted one.
package enum ListeningSocket {
    /// A TCP socket bound to `host` (an IPv4 or IPv6 address) and `port` (0: the system's choice),
    /// listening; the descriptor and the port bound.
    package static func tcp(host: String, port: UInt16) throws(SocketError) -> (descriptor: Int32, port: UInt16) {
        let isIPv6 = host.contains(":")
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("cannot make a socket: \(errnoText())") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let result: Int32
        var bound = port
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
            bound = UInt16(bigEndian: address.sin6_port)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
            bound = UInt16(bigEndian: address.sin_port)
        }
        guard result == 0, listen(descriptor, 128) == 0 else {
            let code = errno
            close(descriptor)
            let hint = code == EADDRINUSE ? " (another program listens there; choose another port, or 0 for any)" : ""
            throw SocketError("cannot listen on \(isIPv6 ? "[\(host)]" : host):\(port): \(errnoText(code))\(hint)")
        }
        return (descriptor, bound)
    }

    /// Who is at the other end of an accepted TCP connection: on this machine (a loopback peer),
    /// the user whose socket it is, asked of the kernel by the connection's addresses and ports
    /// (socket diagnostics, one exact lookup; else its socket table, `/proc/net/tcp`, as identd
    /// reads it); elsewhere, or when the kernel does not say, the peer's address. What one peer
    /// may hold of a server is bounded by this name.
    package static func peerName(of descriptor: Int32, table: ((String) -> String?)? = nil) -> String {
        var peer = sockaddr_storage()
        var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var local = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &peerLength) } }
        let ours = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &localLength) } }
        guard named == 0, ours == 0, let them = Endpoint(peer), let us = Endpoint(local) else { return "unknown" }
        guard them.isLoopback else { return them.address }
        if let table {
            return owner(of: them, connectedTo: us, table: table).map { "uid \($0)" } ?? them.address
        }
        var uid: UInt32 = 0
        if host_tcp_peer_uid(descriptor, &uid) == 0 { return "uid \(uid)" }
        let files: (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }
        return owner(of: them, connectedTo: us, table: files).map { "uid \($0)" } ?? them.address
    }

    /// The uid listed for the socket at `socket` connected to `peer`.
    static func owner(of socket: Endpoint, connectedTo peer: Endpoint, table: (String) -> String?) -> uid_t? {
        let want = (socket.procText, peer.procText)
        for file in socket.isIPv6 ? ["/proc/net/tcp6"] : ["/proc/net/tcp"] {
            guard let text = table(file) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid ...
                guard fields.count > 7, fields[1] == want.0, fields[2] == want.1 else { continue }
                return uid_t(fields[7])
            }
        }
        return nil
    }

    /// An address and port as the kernel's socket tables write them, and as text.
    struct Endpoint: Equatable {
        var procText: String
        var address: String
        var isLoopback: Bool
        var isIPv6: Bool

        init?(_ storage: sockaddr_storage) {
            var storage = storage
            switch Int32(storage.ss_family) {
            case AF_INET:
                let address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee } }
                // The 32-bit word as it lies in memory, printed as a number: what /proc/net/tcp shows.
                procText = cFormat("%08X:%04X", address.sin_addr.s_addr, UInt32(UInt16(bigEndian: address.sin_port)))
                var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                var raw = address.sin_addr
                inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                self.address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                isLoopback = self.address.hasPrefix("127.")
                isIPv6 = false
            case AF_INET6:
                let address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee } }
                var raw = address.sin6_addr
                let words = withUnsafeBytes(of: &raw) { bytes in (0..<4).map { bytes.load(fromByteOffset: $0 * 4, as: UInt32.self) } }
                procText = words.map { cFormat("%08X", $0) }.joined() + cFormat(":%04X", UInt32(UInt16(bigEndian: address.sin6_port)))
                var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                self.address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                isLoopback = self.address == "::1" || self.address.hasPrefix("::ffff:127.")
                isIPv6 = true
            default:
                return nil
            }
        }
    }
}
