import Foundation
import Glibc
import WidgetHost
import WidgetSupport
import WidgetTimelines
import WidgetWeb
import WidgetWire

// MARK: - The home screen

struct WebResult {
    let instances: Int
    let pages: Int
    /// From an app's reload (`WidgetCenter`, through the host's request handling) to the new
    /// timeline's card read by a page, in nanoseconds; and the provider's own request, awaited.
    let latency: [Double]
    let provider: [Double]
    /// Heap the host held for its instances before the server; what the server and its pages added.
    let hostHeap: Int
    let serverHeap: Int
    /// The server with its first page: what it costs at all, one-time costs included.
    let firstPageHeap: Int
    /// Context switches of the whole process in an idle window with the pages open, and in the
    /// same window before the server started.
    let idleSwitches: Int
    let idleFloor: Int
    let idleSeconds: Double
}

/// A page's end of the event stream: a socket reading Server-Sent Events.
final class BenchPage {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, token: String) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(connected == 0, "cannot reach the home screen")
        let request = Array("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: widgets_token=\(token)\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress!, $0.count, 0) }
        _ = next()  // the head
        precondition(next()?.contains("event: hello") == true, "no first picture")
    }

    deinit { close(descriptor) }

    /// The next block (an event, or the response's head), up to its empty line.
    func next() -> String? {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let end = (buffer.count >= 2 ? (0..<(buffer.count - 1)).first { buffer[$0] == 10 && (buffer[$0 + 1] == 10 || buffer[$0 + 1] == 13) } : nil) {
                let skip = buffer[end + 1] == 13 ? 3 : 2
                let text = String(decoding: buffer[..<end], as: UTF8.self)
                // What is left, in an array of its own size: the page's memory is not the server's.
                buffer = Array(buffer[min(buffer.count, end + skip)...])
                return text
            }
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}

/// 100 instances of the C fixture's widget in queue isolation on the system clock, the home screen
/// serving 10 pages: the latency of a reload to a page, the server's memory, and an idle window.
func benchmarkWeb(instances: Int = 100, pages: Int = 10, reloads: Int = 200) async -> WebResult {
    let library = compileFixture()
    let directory = bundleDirectory(copies: 2, of: library, label: "web")
    defer {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: library)
    }
    let state = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-web-state-\(getpid())")
    defer { try? FileManager.default.removeItem(at: state) }
    let heapAtStart = heapInUse()
    let registry = WidgetRegistry.load(searchPath: [directory.path], isolation: .queue)
    let kinds = registry.widgets.map(\.kind).sorted()
    precondition(kinds.count == 2, "\(registry.problems)")
    // One instance of the second kind, the one reloaded; the others of the first.
    let store = InstanceStore(directory: state)
    _ = try! store.update { (list) throws(StateError) in
        for number in 0..<instances {
            _ = try list.add(kind: kinds[number == 0 ? 1 : 0], family: .systemSmall, configuration: JSONObject())
        }
    }
    // The standard budget: the fixture's policy (`.after` a date long past) is then due only five
    // minutes on, and nothing wakes meanwhile. The reloads measured are an app's in the foreground,
    // which the budget does not hold back.
    let daemon = WidgetDaemon(registry: registry, store: store, budget: .standard)
    try! daemon.start(socketPath: nil)
    defer {
        daemon.stop()
        registry.shutDownWorkers()
    }
    while daemon.engine.instances.contains(where: { (daemon.engine.status(id: $0.id)?.timelines ?? 0) == 0 }) { usleep(1000) }
    let hostHeap = heapInUse() - heapAtStart

    let idleSeconds = 2.0
    func switches(in seconds: Double) -> Int {
        let before = processContextSwitches()
        usleep(UInt32(seconds * 1_000_000))
        return processContextSwitches() - before - 1
    }
    let idleFloor = switches(in: idleSeconds)

    let token = String(repeating: "7b", count: 32)
    let heapBeforeServer = heapInUse()
    let home = try! HomeScreen(daemon: daemon, address: ListenAddress(host: "127.0.0.1", port: 0), token: token)
    defer { home.stop() }
    var open = [BenchPage(port: home.address.port, token: token)]
    usleep(100_000)  // its first picture written, its queue done
    let firstPageHeap = heapInUse() - heapBeforeServer
    open += (1..<pages).map { _ in BenchPage(port: home.address.port, token: token) }
    usleep(100_000)
    let serverHeap = heapInUse() - heapBeforeServer

    // Idle with every page open: nothing is due, so nothing should wake.
    let idleSwitches = switches(in: idleSeconds)

    // The provider's own time for the reloaded kind: its request, awaited, as the host makes it.
    var provider: [Double] = []
    for _ in 0..<reloads {
        let start = nanoseconds()
        _ = try? await registry.request(.timeline, kind: kinds[1], family: .systemSmall)
        provider.append(Double(nanoseconds() - start))
    }
    let target = daemon.instances.first { $0.kind == kinds[1] }!.id
    var latency: [Double] = []
    let reader = open[pages - 1]
    for _ in 0..<reloads {
        let start = nanoseconds()
        _ = daemon.answer(.object(JSONObject([("request", .string("reload")), ("kind", .string(kinds[1])), ("foreground", .bool(true))])))
        // The card of the new timeline: after the one saying a reload is under way.
        while let block = reader.next() {
            guard block.hasPrefix("event: card"), block.contains("\"id\":\"\(target)\""), block.contains("\"reloading\":false") else { continue }
            break
        }
        latency.append(Double(nanoseconds() - start))
        // The other pages have theirs too: read them, as their browsers would.
        for page in open.dropLast() {
            while let block = page.next(), !(block.hasPrefix("event: card") && block.contains("\"reloading\":false")) {}
        }
    }
    return WebResult(
        instances: instances, pages: pages, latency: latency, provider: provider, hostHeap: hostHeap, serverHeap: serverHeap, firstPageHeap: firstPageHeap,
        idleSwitches: idleSwitches, idleFloor: idleFloor, idleSeconds: idleSeconds)
}
