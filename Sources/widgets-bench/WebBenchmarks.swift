import Foundation
import Glibc
import Synchronization
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
        let request = Array("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n\r\n".utf8)
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
        _ = daemon.answer(.reload(kind: kinds[1], app: nil, foreground: true))
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

// MARK: - The page under a slowloris

struct SlowlorisResult {
    let attackers: Int
    /// A legitimate client's GET of the page (connect to last byte), in nanoseconds: idle, and
    /// while the attackers hold their connections.
    let idle: [Double]
    let underAttack: [Double]
    /// Of the legitimate requests made under attack, those answered 200.
    let served: Int
    /// Connections the attackers had to open again, the server having closed or evicted them.
    let reopened: Int
}

/// Connects to 127.0.0.1:`port`; -1 when it cannot.
private func connectLocal(_ port: UInt16) -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    if connected != 0 {
        close(descriptor)
        return -1
    }
    return descriptor
}

/// One GET of the page as a browser makes it, on a fresh connection: its time, and whether it was
/// answered 200.
private func getPage(port: UInt16) -> (Double, Bool) {
    let start = nanoseconds()
    let descriptor = connectLocal(port)
    guard descriptor >= 0 else { return (Double(nanoseconds() - start), false) }
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
        if count <= 0 { break }
        answer += chunk[..<count]
    }
    return (Double(nanoseconds() - start), answer.starts(with: Array("HTTP/1.1 200".utf8)))
}

/// The page's latency for a legitimate client, idle and under `attackers` slowloris connections:
/// each sends the start of a request and then a header byte a second, never finishing, and is
/// opened again whenever the server closes it. The attacker is the same user as the client (so the
/// per-peer cap does not set them apart): what is measured is the first-request deadline and the
/// eviction of the idlest connection.
func benchmarkSlowloris(attackers: Int = 500, requests: Int = 60) async -> SlowlorisResult {
    let library = compileFixture()
    let directory = bundleDirectory(copies: 1, of: library, label: "slowloris")
    let state = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-slowloris-state-\(getpid())")
    defer {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: library)
        try? FileManager.default.removeItem(at: state)
    }
    let registry = WidgetRegistry.load(searchPath: [directory.path], isolation: .queue)
    let store = InstanceStore(directory: state)
    let kind = registry.widgets[0].kind
    _ = try! store.update { (list) throws(StateError) in
        for _ in 0..<4 { _ = try list.add(kind: kind, family: .systemSmall, configuration: JSONObject()) }
    }
    let daemon = WidgetDaemon(registry: registry, store: store, budget: .standard)
    try! daemon.start(socketPath: nil)
    defer {
        daemon.stop()
        registry.shutDownWorkers()
    }
    let home = try! HomeScreen(daemon: daemon, address: ListenAddress(host: "127.0.0.1", port: 0), token: String(repeating: "7b", count: 32))
    defer { home.stop() }
    let port = home.address.port
    _ = (0..<10).map { _ in getPage(port: port) }  // warm
    // Paced as under the attack below, so both wake the server from the same rest.
    let idle = (0..<requests).map { _ in
        usleep(20_000)
        return getPage(port: port).0
    }

    // The attack, on a thread of its own.
    let stop = Atomic<Bool>(false)
    let reopened = Atomic<Int>(0)
    let started = DispatchSemaphore(value: 0)
    let attack = Thread {
        var sockets = (0..<attackers).map { _ in connectLocal(port) }
        let start = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
        func begin(_ descriptor: Int32) {
            guard descriptor >= 0 else { return }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = start.withUnsafeBytes { send(descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        sockets.forEach(begin)
        started.signal()
        var byte: UInt8 = UInt8(ascii: "X")
        var scratch = [UInt8](repeating: 0, count: 4096)
        var tick = 0
        while !stop.load(ordering: .relaxed) {
            for index in sockets.indices {
                let descriptor = sockets[index]
                // Closed by the server (an answer, then the end): open it again.
                let read = descriptor < 0 ? 0 : scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
                if descriptor < 0 || read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || read > 0 {
                    if descriptor >= 0 { close(descriptor) }
                    sockets[index] = connectLocal(port)
                    begin(sockets[index])
                    reopened.add(1, ordering: .relaxed)
                } else if tick % 10 == 0 {
                    _ = send(descriptor, &byte, 1, Int32(MSG_NOSIGNAL))
                }
            }
            tick += 1
            usleep(100_000)
        }
        for descriptor in sockets where descriptor >= 0 { close(descriptor) }
    }
    attack.start()
    started.wait()
    usleep(1_000_000)  // every slot taken, the attack under way
    var underAttack: [Double] = []
    var served = 0
    for _ in 0..<requests {
        usleep(20_000)
        let (time, ok) = getPage(port: port)
        underAttack.append(time)
        if ok { served += 1 }
    }
    stop.store(true, ordering: .relaxed)
    while !attack.isFinished { usleep(10_000) }
    return SlowlorisResult(attackers: attackers, idle: idle, underAttack: underAttack, served: served, reopened: reopened.load(ordering: .relaxed))
}
