import Foundation
import Glibc
import Testing

@testable import WidgetSupport

/// Who is at the other end of a TCP connection: on this machine, the user whose socket it is, read
/// from the kernel's socket table as identd reads it.
@Suite struct PeerNameTests {
    @Test func aLoopbackPeerIsNamedByItsUser() throws {
        let (listener, port) = try ListeningSocket.tcp(host: "127.0.0.1", port: 0)
        defer { close(listener) }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let accepted = accept(listener, nil, nil)
        defer { close(accepted) }
        #expect(ListeningSocket.peerName(of: accepted) == "uid \(getuid())")
        // Without the kernel's table, the peer is its address.
        #expect(ListeningSocket.peerName(of: accepted, table: { _ in nil }) == "127.0.0.1")
    }

    @Test func theTableIsReadAsTheKernelWritesIt() throws {
        // 127.0.0.1:40000 (the peer) connected to 127.0.0.1:8080 (us), owned by uid 1000.
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0
               1: 0100007F:9C40 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 2 1 0000000000000000 20 4 30 10 -1
            """
        func loopback(port: UInt16) -> sockaddr_storage {
            var storage = sockaddr_storage()
            withUnsafeMutablePointer(to: &storage) { address in
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    pointer.pointee.sin_family = sa_family_t(AF_INET)
                    pointer.pointee.sin_port = port.bigEndian
                    inet_pton(AF_INET, "127.0.0.1", &pointer.pointee.sin_addr)
                }
            }
            return storage
        }
        let peer = loopback(port: 40000)
        let us = loopback(port: 8080)
        let them = try #require(ListeningSocket.Endpoint(peer))
        let ours = try #require(ListeningSocket.Endpoint(us))
        #expect(them.procText == "0100007F:9C40")
        #expect(ListeningSocket.owner(of: them, connectedTo: ours, table: { $0 == "/proc/net/tcp" ? table : nil }) == 1000)
        #expect(ListeningSocket.owner(of: ours, connectedTo: them, table: { $0 == "/proc/net/tcp" ? table : nil }) == nil)
    }
}
