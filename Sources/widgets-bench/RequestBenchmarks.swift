import CMemoryGuard
import CWidgetABI
import Foundation
import Glibc
import WidgetABI
@_spi(Benchmarks) import WidgetHost
import WidgetSupport
@_spi(Host) import WidgetKit
import WidgetWire

// MARK: - 2. A timeline request through the ABI

struct TrivialEntry: TimelineEntry {
    let date: Date
}

struct TrivialProvider: TimelineProvider {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)
    func placeholder(in context: Context) -> TrivialEntry { TrivialEntry(date: Self.date) }
    func getSnapshot(in context: Context, completion: @escaping (TrivialEntry) -> Void) { completion(TrivialEntry(date: Self.date)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<TrivialEntry>) -> Void) {
        completion(Timeline(entries: [TrivialEntry(date: Self.date)], policy: .atEnd))
    }
}

@Sendable func trivialContent(_ entry: TrivialEntry) -> Text { Text("Hello") }

struct TrivialWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "bench.trivial", provider: TrivialProvider(), content: trivialContent)
    }
}

struct BenchBundle: WidgetBundle {
    var body: some Widget { TrivialWidget() }
}

struct RequestResult {
    let direct: [Double]
    let directWithContent: [Double]
    let throughABI: [Double]
}

/// The provider called directly, the same with its content evaluated (the floor), and the whole
/// request through the ABI. The machine's speed swings between seconds: the three take turns in
/// ten blocks, after a tenth as many untimed, and each figure is over all of its blocks.
func benchmarkRequest(iterations: Int) -> RequestResult {
    let provider = TrivialProvider()
    let context = TimelineProviderContext(family: .systemSmall, isPreview: false, displaySize: CGSize(width: 158, height: 158))
    let registry = WidgetRegistry()
    guard registry.load(linkedEntry: exportWidgetBundle(BenchBundle.self), label: "linked:bench") != nil else {
        fatalError("cannot load the benchmark bundle: \(registry.problems)")
    }
    let variants: [() -> Void] = [
        { provider.getTimeline(in: context) { blackHole($0) } },
        {
            provider.getTimeline(in: context) { timeline in
                for entry in timeline.entries { blackHole(trivialContent(entry)) }
            }
        },
        { blackHole(try! registry.requestOnCallingThread(.timeline, kind: "bench.trivial")) },
    ]
    let blocks = 10
    for variant in variants { _ = sample(iterations: 0, warmup: iterations / 10, variant) }
    var times = [[Double]](repeating: [], count: variants.count)
    for _ in 0..<blocks {
        for (index, variant) in variants.enumerated() { times[index] += sample(iterations: iterations / blocks, warmup: 0, variant) }
    }
    return RequestResult(direct: times[0].sorted(), directWithContent: times[1].sorted(), throughABI: times[2].sorted())
}

// MARK: - 3. Queue mode: round trip and throughput

/// `iterations` sequential awaited requests for one widget's timeline (after a tenth as many
/// untimed): what a host's caller sees. Sorted nanoseconds.
func awaitedRoundTrips(_ registry: WidgetRegistry, kind: String, iterations: Int) async -> [Double] {
    for _ in 0..<(iterations / 10) { _ = try! await registry.request(.timeline, kind: kind) }
    var times: [Double] = []
    times.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = nanoseconds()
        blackHole(try! await registry.request(.timeline, kind: kind))
        times.append(Double(nanoseconds() - start))
    }
    return times.sorted()
}

/// The same request as above, through the provider's queue, awaited.
func benchmarkQueueRoundTrip(iterations: Int) async -> [Double] {
    let registry = WidgetRegistry()
    _ = registry.load(linkedEntry: exportWidgetBundle(BenchBundle.self), label: "linked:bench")
    return await awaitedRoundTrips(registry, kind: "bench.trivial", iterations: iterations)
}

/// Requests per second with every provider of `registry` asked `requestsEach` times, all at once.
func requestsPerSecond(_ registry: WidgetRegistry, requestsEach: Int) async -> Double {
    let kinds = registry.widgets.map(\.kind)
    let start = nanoseconds()
    await withTaskGroup(of: Void.self) { group in
        for kind in kinds {
            group.addTask {
                for _ in 0..<requestsEach { _ = try! await registry.request(.timeline, kind: kind) }
            }
        }
    }
    let seconds = Double(nanoseconds() - start) / 1e9
    return Double(kinds.count * requestsEach) / seconds
}

/// Requests per second with 16 providers (16 copies of a C bundle) asked concurrently.
func benchmarkThroughput(providers: Int, requestsEach: Int) async -> Double {
    let library = compileFixture()
    let directory = bundleDirectory(copies: providers, of: library, label: "throughput")
    defer {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: library)
    }
    let registry = WidgetRegistry.load(searchPath: [directory.path])
    precondition(registry.widgets.count == providers, "\(registry.problems)")
    return await requestsPerSecond(registry, requestsEach: requestsEach)
}

// MARK: - 3b. One C provider: the direct call, queue mode and process mode

nonisolated(unsafe) var completedBytes = 0

/// One byte there and back over a socket pair between two threads: the least any request to another
/// process costs on this machine (two wakeups), measured for comparison.
func benchmarkSocketRoundTrip(iterations: Int) -> [Double] {
    var pair: [Int32] = [-1, -1]
    precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    let (near, far) = (pair[0], pair[1])
    let echo = Thread {
        var byte: UInt8 = 0
        while read(far, &byte, 1) == 1 { _ = write(far, &byte, 1) }
    }
    echo.start()
    var byte: UInt8 = 1
    let times = sample(iterations: iterations, warmup: iterations / 10) {
        _ = write(near, &byte, 1)
        _ = read(near, &byte, 1)
    }
    close(near)
    return times.sorted()
}

/// `size` bytes there and back between this process and another (`cat`, echoing a socket pair's
/// end): what any request to a worker process costs at least, its two wakeups across processes.
func benchmarkProcessPingPong(iterations: Int, size: Int = 128) -> [Double] {
    var pair: [Int32] = [-1, -1]
    precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
    let (near, far) = (pair[0], pair[1])
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, far, 0)
    posix_spawn_file_actions_adddup2(&actions, far, 1)
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("cat"), nil]
    precondition(posix_spawn(&pid, "/bin/cat", &actions, nil, argv, environ) == 0, "cannot run /bin/cat")
    posix_spawn_file_actions_destroy(&actions)
    for pointer in argv { free(pointer) }
    close(far)
    var buffer = [UInt8](repeating: 7, count: size)
    let times = sample(iterations: iterations, warmup: iterations / 10) {
        buffer.withUnsafeMutableBytes { bytes in
            _ = write(near, bytes.baseAddress, size)
            var received = 0
            while received < size {
                let count = read(near, bytes.baseAddress! + received, size - received)
                if count <= 0 { break }
                received += count
            }
        }
    }
    close(near)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return times.sorted()
}

struct IsolationResult {
    let direct: [Double]
    let queue: [Double]
    let process: [Double]
    /// One byte there and back over a socket pair, in blocks between the process-mode blocks.
    let socket: [Double]
    /// 128 bytes there and back with another process, in blocks between the process-mode blocks.
    let crossProcess: [Double]
    /// Each block's process-mode median over the socket pair's median in the block after it.
    let wakeupRatios: [Double]
    /// Each block's process-mode median less the socket pair's: the round trip beyond two wakeups.
    let beyondWakeups: [Double]
    let processThroughput: Double
}

/// Process isolation with the `widgets-worker` executable beside this one as the worker.
func processIsolation() -> Isolation {
    let worker = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("widgets-worker").path
    precondition(FileManager.default.isExecutableFile(atPath: worker), "\(worker) is missing: make bench builds it")
    return .process(ProcessIsolation(workerExecutable: worker))
}

/// The same C provider three ways: its request function called directly (the floor: what the
/// provider itself costs), through queue mode, and through process mode (a worker process started
/// from the `widgets-worker` executable beside this one), each a sequential awaited round trip.
func benchmarkIsolation(iterations: Int, providers: Int, requestsEach: Int) async -> IsolationResult {
    let library = compileFixture()
    defer { try? FileManager.default.removeItem(at: library) }
    let directory = bundleDirectory(copies: 1, of: library, label: "isolation")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("bundle-000.so").path

    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE), let symbol = dlsym(handle, WIDGET_BUNDLE_ENTRY_SYMBOL) else {
        fatalError("cannot open the benchmark bundle")
    }
    let bundle = unsafeBitCast(symbol, to: widget_bundle_entry_fn.self)()!.pointee
    var error = [CChar](repeating: 0, count: 256)
    var host = widget_host_t(
        abi_version: widget_abi_version_t(major: 1, minor: 2), struct_size: UInt32(MemoryLayout<widget_host_t>.size), host_data: nil,
        register_widget: { _, _ in true }, log: { _, _, _ in }, bundle_path: nil)
    precondition(bundle.initialize!(&host, &error, error.count))
    let completion: widget_completion_fn = { _, result in completedBytes = result!.pointee.length }
    let direct: [Double] = "fixture.bundle-000".withCString { kind in
        "{}".withCString { configuration in
            var request = widget_request_t(
                struct_size: UInt32(MemoryLayout<widget_request_t>.size), request_kind: UInt32(WIDGET_REQUEST_TIMELINE.rawValue),
                widget_kind: kind, family: 0, is_preview: false, display_width: 158, display_height: 158, configuration: configuration, parameter: nil, url: nil, intent: nil,
                color_scheme: 0, rendering_mode: 0, shows_container_background: true)
            return sample(iterations: iterations, warmup: iterations / 10) {
                bundle.request!(&request, completion, nil)
                blackHole(completedBytes)
            }
        }
    }

    func roundTrips(_ registry: WidgetRegistry) async -> [Double] {
        precondition(registry.widgets.count == 1, "\(registry.problems)")
        return await awaitedRoundTrips(registry, kind: registry.widgets[0].kind, iterations: iterations)
    }
    let isolation = processIsolation()
    let queue = await roundTrips(WidgetRegistry.load(searchPath: [directory.path]))
    let processRegistry = WidgetRegistry.load(searchPath: [directory.path], isolation: isolation)
    precondition(processRegistry.widgets.count == 1, "\(processRegistry.problems)")
    // Process mode in blocks that alternate with the socket pair's round trip, so that a minute when
    // this machine's thread wakeups are slow (or fast) weighs on both alike: the ratio is taken
    // block by block (a floor measured minutes apart swung five times between runs).
    var process: [Double] = []
    var socket: [Double] = []
    var crossProcess: [Double] = []
    var wakeupRatios: [Double] = []
    var beyondWakeups: [Double] = []
    let blocks = 10
    for _ in 0..<blocks {
        let trips = await awaitedRoundTrips(processRegistry, kind: processRegistry.widgets[0].kind, iterations: iterations / blocks)
        let pings = benchmarkSocketRoundTrip(iterations: iterations / blocks)
        crossProcess += benchmarkProcessPingPong(iterations: iterations / blocks)
        process += trips
        socket += pings
        wakeupRatios.append(percentile(trips, 0.5) / percentile(pings, 0.5))
        beyondWakeups.append(percentile(trips, 0.5) - percentile(pings, 0.5))
    }
    processRegistry.shutDownWorkers()

    // Requests per second across 16 bundles, each in its own worker.
    let many = bundleDirectory(copies: providers, of: library, label: "isolation-many")
    defer { try? FileManager.default.removeItem(at: many) }
    let registry = WidgetRegistry.load(searchPath: [many.path], isolation: isolation)
    precondition(registry.widgets.count == providers, "\(registry.problems)")
    let processThroughput = await requestsPerSecond(registry, requestsEach: requestsEach)
    registry.shutDownWorkers()
    return IsolationResult(
        direct: direct.sorted(), queue: queue, process: process.sorted(), socket: socket.sorted(), crossProcess: crossProcess.sorted(), wakeupRatios: wakeupRatios.sorted(),
        beyondWakeups: beyondWakeups.sorted(),
        processThroughput: processThroughput)
}
