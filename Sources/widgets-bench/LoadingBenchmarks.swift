import CMemoryGuard
import CWidgetABI
import Foundation
import Glibc
import WidgetABI
@_spi(Benchmarks) import WidgetHost
import WidgetSupport
@_spi(Host) import WidgetKit
import WidgetWire

// MARK: - 1. Loading 100 bundles

/// One C bundle compiled once, copied 100 times (each copy is its own image to the loader); each copy
/// takes its kind from its file name, so all 100 register.
func bundleDirectory(copies: Int, of library: URL, label: String) -> URL {
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-\(label)-\(getpid())")
    try? FileManager.default.removeItem(at: directory)
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    for index in 0..<copies {
        let target = directory.appendingPathComponent(String(format: "bundle-%03d.so", index))
        try! FileManager.default.copyItem(at: library, to: target)
        chmod(target.path, 0o644)
    }
    return directory
}

/// The C fixture bundle, compiled afresh (or, for profiling under valgrind, where `Process` cannot
/// start a compiler, a copy of the one BENCH_FIXTURE names).
func compileFixture(flags: [String] = ["-DKIND_FROM_FILE"], label: String = "fixture") -> URL {
    let output = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-\(label)-\(getpid()).so")
    if let given = ProcessInfo.processInfo.environment["BENCH_FIXTURE"] {
        try! FileManager.default.copyItem(atPath: given, toPath: output.path)
        return output
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "cc", "-shared", "-fPIC", "-O2"] + flags + ["-I", repositoryRoot.appendingPathComponent("Sources/CWidgetABI/include").path,
        repositoryRoot.appendingPathComponent("Tests/Fixtures/fixture_bundle.c").path, "-o", output.path, "-lpthread",
    ]
    try! process.run()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "cannot compile the benchmark bundle")
    return output
}

/// The floor: what any loader that loads the very file it looked at must do, for the same files in
/// the same order: open it, `fstat` the descriptor, `dlopen` the descriptor (`/proc/self/fd/N`),
/// `dlsym` the entry, call it, and initialize the bundle with a host whose `register_widget` only
/// counts (so that what a bundle's `initialize` does itself is on both sides). Paths are joined as
/// plain strings, so the floor carries no Foundation cost. Returns the widgets registered.
func dlopenFloor(_ directory: URL) -> Int {
    floorRegistrations = 0
    let names = try! FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    let prefix = directory.path + "/"
    var error = [CChar](repeating: 0, count: 256)
    for name in names {
        let path = prefix + name
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0,
            let handle = dlopen("/proc/self/fd/\(descriptor)", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE),
            let symbol = dlsym(handle, WIDGET_BUNDLE_ENTRY_SYMBOL),
            let bundle = unsafeBitCast(symbol, to: widget_bundle_entry_fn.self)()
        else {
            fatalError("the floor benchmark cannot load \(path): \(dlerror().map { String(cString: $0) } ?? String(cString: strerror(errno)))")
        }
        // The bundle may keep its host for the life of the process.
        let host = UnsafeMutablePointer<widget_host_t>.allocate(capacity: 1)
        host.initialize(
            to: widget_host_t(
                abi_version: widget_abi_version_t(major: UInt32(WIDGET_ABI_VERSION_MAJOR), minor: UInt32(WIDGET_ABI_VERSION_MINOR)),
                struct_size: UInt32(MemoryLayout<widget_host_t>.size), host_data: nil,
                register_widget: { _, _ in
                    floorRegistrations += 1
                    return true
                }, log: { _, _, _ in }, bundle_path: strdup(path)))
        guard bundle.pointee.initialize(host, &error, error.count) else {
            fatalError("the floor benchmark's \(path) failed to initialize: \(error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })")
        }
    }
    return floorRegistrations
}

/// The floor's host counts registrations here (a C function pointer captures nothing); one thread.
nonisolated(unsafe) private var floorRegistrations = 0

struct LoadingResult {
    let loader: Double
    let floor: Double
    /// The median of the rounds' ratios, each round's two sides taken in the same seconds.
    let ratio: Double
}

func benchmarkLoading(rounds: Int) -> LoadingResult {
    let library = compileFixture()
    let warmUp = bundleDirectory(copies: 2, of: library, label: "warm-up")
    var loaderTimes: [Double] = []
    var floorTimes: [Double] = []
    var ratios: [Double] = []
    // A host loads its bundles once, into a process that holds no others: each side of each round
    // runs in a process of its own (`loadingRound`), so neither inherits the images the earlier
    // rounds loaded (the dynamic loader's look-ups walk them all) or the allocations they grew. In
    // one process, whichever side ran first in a round was up to 2× slower, and a round's times grew
    // with the images before it. The order alternates, and there are as many rounds of each order.
    let rounds = rounds + rounds % 2
    for round in 0..<rounds {
        let floorDirectory = bundleDirectory(copies: 100, of: library, label: "floor-\(round)")
        let loaderDirectory = bundleDirectory(copies: 100, of: library, label: "loader-\(round)")
        var floorTime = 0.0
        var loaderTime = 0.0
        if round % 2 == 0 {
            floorTime = runLoadingRound("floor", floorDirectory, warmUp)
            loaderTime = runLoadingRound("loader", loaderDirectory, warmUp)
        } else {
            loaderTime = runLoadingRound("loader", loaderDirectory, warmUp)
            floorTime = runLoadingRound("floor", floorDirectory, warmUp)
        }
        floorTimes.append(floorTime)
        loaderTimes.append(loaderTime)
        ratios.append(loaderTime / floorTime)
        try? FileManager.default.removeItem(at: floorDirectory)
        try? FileManager.default.removeItem(at: loaderDirectory)
    }
    try? FileManager.default.removeItem(at: warmUp)
    try? FileManager.default.removeItem(at: library)
    return LoadingResult(loader: median(loaderTimes), floor: median(floorTimes), ratio: median(ratios))
}

/// One side of a loading round, in a new process of this program (`loadingRound`); its time in
/// nanoseconds.
private func runLoadingRound(_ side: String, _ directory: URL, _ warmUp: URL) -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.environment = ProcessInfo.processInfo.environment.merging(
        ["BENCH_LOADING_ROUND": side, "BENCH_LOADING_DIRECTORY": directory.path, "BENCH_LOADING_WARM_UP": warmUp.path]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    try! process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let nanoseconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        fatalError("the \(side) side of a loading round failed: \(text)")
    }
    return nanoseconds
}

/// The process `runLoadingRound` starts: each side first loads the warm-up directory's bundles
/// (untimed: the first use of the loader's code and of the dynamic loader), then the round's 100,
/// and prints the nanoseconds those took.
func loadingRound(_ side: String, directory: String, warmUp: String) -> Never {
    func load(_ path: String) -> Double {
        let files = try! FileManager.default.contentsOfDirectory(atPath: path).count
        let start = nanoseconds()
        if side == "floor" {
            let loaded = dlopenFloor(URL(fileURLWithPath: path))
            let elapsed = Double(nanoseconds() - start)
            precondition(loaded == files)
            return elapsed
        }
        let registry = WidgetRegistry.load(searchPath: [path])
        let elapsed = Double(nanoseconds() - start)
        precondition(registry.widgets.count == files && registry.problems.isEmpty, "\(registry.problems)")
        return elapsed
    }
    _ = load(warmUp)
    print(Int(load(directory)))
    exit(0)
}
