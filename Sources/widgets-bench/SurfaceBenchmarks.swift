import Foundation
import Glibc
import Synchronization

// MARK: - Surfaces a person lives with: the page across a host restart, the dashboard's first frame

struct SurfaceResult {
    /// From the restarted host's spawn to a page's first picture from it, the page retrying as the
    /// home screen's script does (250 ms after the drop, then 500, then every second); and from the
    /// same spawn to the host saying where it serves (its start), in nanoseconds.
    let reconnect: [Double]
    let hostStart: [Double]
    /// From `widgets run`'s spawn on a terminal to its dashboard's first frame on the screen; and a
    /// `widgets --version` to its exit (a process's start), in nanoseconds.
    let firstFrame: [Double]
    let processStart: [Double]
}

func benchmarkSurfaces(rounds: Int = 5) -> SurfaceResult {
    let home = BenchHome("surfaces")
    defer { home.remove() }
    let (widgets, plugins, environment) = (home.widgets, home.plugins, home.environment)
    let arguments = ["--plugins", plugins.path, "run", "--log", "--web"]

    var reconnect: [Double] = []
    var hostStart: [Double] = []
    var host = BenchHost(widgets, arguments, environment: environment)
    var address = host.waitForAddress()
    for _ in 0..<rounds {
        guard let page = BenchStream(port: address.port, token: address.token) else { fatalError("the page cannot reach the host") }
        host.stop()
        page.waitForEnd()
        let dropped = nanoseconds()
        let spawned = nanoseconds()
        host = BenchHost(widgets, arguments, environment: environment)
        // The page's schedule from the drop: 250 ms, then twice the pause, at most a second.
        var pause = 250_000_000.0
        var next = Double(dropped) + pause
        var connected: UInt64?
        while connected == nil {
            let wait = next - Double(nanoseconds())
            if wait > 0 { usleep(useconds_t(wait / 1000)) }
            if BenchStream(port: address.port, token: address.token) != nil { connected = nanoseconds() }
            pause = min(pause * 2, 1_000_000_000)
            next += pause
        }
        let serving = host.waitForAddress()
        precondition(serving.port == address.port, "the host moved from port \(address.port) to \(serving.port)")
        address = serving
        reconnect.append(Double(connected! - spawned))
        hostStart.append(Double(host.addressAt - spawned))
    }
    host.stop()

    var firstFrame: [Double] = []
    var processStart: [Double] = []
    for _ in 0..<rounds {
        processStart.append(timedWidgets(widgets, ["--version"], environment: environment))
        firstFrame.append(timeToFirstFrame(widgets, ["--plugins", plugins.path, "run"], environment: environment))
    }
    return SurfaceResult(reconnect: reconnect, hostStart: hostStart, firstFrame: firstFrame, processStart: processStart)
}

/// `widgets run` in the background, its lines read as they come (on a thread of their own, into the
/// locked list, each with when it was read; `addressAt` is the benchmark's thread's alone).
final class BenchHost: @unchecked Sendable {
    let process = Process()
    /// Each line, and when it was read.
    private let lines = Mutex<[(text: String, at: UInt64)]>([])
    private let arrived = DispatchSemaphore(value: 0)
    /// When the line with the page's address was read.
    private(set) var addressAt: UInt64 = 0

    /// `errorsToo`: its standard error is read as lines too (a client's log).
    init(_ widgets: String, _ arguments: [String], environment: [String: String], errorsToo: Bool = false) {
        process.executableURL = URL(fileURLWithPath: widgets)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorsToo ? output : FileHandle.nullDevice
        try! process.run()
        Thread.detachNewThread { [self] in
            var buffer = ""
            while true {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return }
                buffer += String(decoding: data, as: UTF8.self)
                while let end = buffer.firstIndex(of: "\n") {
                    let line = (text: String(buffer[..<end]), at: nanoseconds())
                    lines.withLock { $0.append(line) }
                    buffer.removeSubrange(...end)
                    arrived.signal()
                }
            }
        }
    }

    /// Waits for a line for which `holds` is true (at most 60 seconds).
    func waitForLine(_ holds: (String) -> Bool) {
        while lines.withLock({ !$0.contains { holds($0.text) } }) {
            precondition(arrived.wait(timeout: .now() + 60) == .success, "the host did not say what was waited for")
        }
    }

    /// When the first line read after `time` for which `holds` is true was read (waiting for it, at
    /// most 60 seconds).
    func lineAt(after time: UInt64, _ holds: (String) -> Bool) -> UInt64 {
        while true {
            if let found = lines.withLock({ $0.first { $0.at >= time && holds($0.text) } }) { return found.at }
            precondition(arrived.wait(timeout: .now() + 60) == .success, "no line came that was waited for")
        }
    }

    /// The port and token of `home screen: http://127.0.0.1:PORT/#token=T`, once printed.
    func waitForAddress() -> (port: UInt16, token: String) {
        while true {
            if let found = lines.withLock({ $0.first { $0.text.contains("home screen: http://") } }) {
                addressAt = found.at
                let line = found.text
                let url = line[line.range(of: "http://")!.lowerBound...]
                let port = UInt16(url.split(separator: ":")[2].split(separator: "/")[0])!
                let token = String(url[url.range(of: "#token=")!.upperBound...])
                return (port, token)
            }
            precondition(arrived.wait(timeout: .now() + 30) == .success, "the host did not serve its page")
        }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// A page's event stream, nil when the host cannot be reached or gives no first picture.
final class BenchStream {
    let descriptor: Int32

    init?(port: UInt16, token: String) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        let request = Array("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress!, $0.count, 0) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !String(decoding: received, as: UTF8.self).contains("event: hello") {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else {
                close(descriptor)
                return nil
            }
            received += chunk[..<count]
        }
    }

    deinit { close(descriptor) }

    /// Reads until the host closes the stream.
    func waitForEnd() {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while recv(descriptor, &chunk, chunk.count, 0) > 0 {}
    }
}

/// `widgets run` on a pseudo-terminal (80 × 24): from its spawn to its first frame's footer on the
/// screen, in nanoseconds; then q.
func timeToFirstFrame(_ widgets: String, _ arguments: [String], environment: [String: String]) -> Double {
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    precondition(master >= 0 && ioctl(master, UInt(0x4004_5431), &unlock) == 0 && ioctl(master, UInt(0x8004_5430), &number) == 0, "no pseudo-terminal")
    defer { close(master) }
    var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/pts/\(number)", O_RDWR, 0) }
    let argv = ([widgets] + arguments).map { strdup($0) } + [nil]
    var terminal = environment
    terminal["TERM"] = "xterm-256color"
    let envp = terminal.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let start = nanoseconds()
    precondition(posix_spawn(&pid, widgets, &actions, nil, argv, envp) == 0, "cannot run \(widgets)")
    var shown: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var frame: UInt64 = 0
    while frame == 0 {
        let count = read(master, &chunk, chunk.count)
        precondition(count > 0, "widgets run ended before its first frame")
        shown += chunk[..<count]
        if String(decoding: shown, as: UTF8.self).contains("q quit") { frame = nanoseconds() }
    }
    var quit = UInt8(ascii: "q")
    _ = write(master, &quit, 1)
    // Read on while it leaves (a full terminal would block its last writes), to the end: the
    // terminal's other side closed.
    while read(master, &chunk, chunk.count) > 0 {}
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return Double(frame - start)
}
