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
/// the same order: open it, `fstat` the descriptor, `dlopen` the descriptor (`/proc/self/fd/N`) and
/// `dlsym` the entry. Paths are joined as plain strings, so the floor carries no Foundation cost.
func dlopenFloor(_ directory: URL) -> Int {
    var found = 0
    let names = try! FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    let prefix = directory.path + "/"
    for name in names {
        let descriptor = open(prefix + name, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0,
            let handle = dlopen("/proc/self/fd/\(descriptor)", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)
        else {
            fatalError("dlopen failed in the floor benchmark")
        }
        if dlsym(handle, WIDGET_BUNDLE_ENTRY_SYMBOL) != nil { found += 1 }
    }
    return found
}

struct LoadingResult {
    let loader: Double
    let floor: Double
}

func benchmarkLoading(rounds: Int) -> LoadingResult {
    let library = compileFixture()
    var loaderTimes: [Double] = []
    var floorTimes: [Double] = []
    // Every round loads fresh copies (an image is loaded once per process); the order alternates so
    // neither side always runs first. Round 0 warms caches and is not counted.
    for round in 0...rounds {
        let floorDirectory = bundleDirectory(copies: 100, of: library, label: "floor-\(round)")
        let loaderDirectory = bundleDirectory(copies: 100, of: library, label: "loader-\(round)")
        var floorTime = 0.0
        var loaderTime = 0.0
        func runFloor() {
            let start = nanoseconds()
            precondition(dlopenFloor(floorDirectory) == 100)
            floorTime = Double(nanoseconds() - start)
        }
        func runLoader() {
            let start = nanoseconds()
            let registry = WidgetRegistry.load(searchPath: [loaderDirectory.path])
            loaderTime = Double(nanoseconds() - start)
            precondition(registry.widgets.count == 100 && registry.problems.isEmpty, "\(registry.problems)")
        }
        if round % 2 == 0 { runFloor(); runLoader() } else { runLoader(); runFloor() }
        if round > 0 {
            floorTimes.append(floorTime)
            loaderTimes.append(loaderTime)
        }
        try? FileManager.default.removeItem(at: floorDirectory)
        try? FileManager.default.removeItem(at: loaderDirectory)
    }
    try? FileManager.default.removeItem(at: library)
    return LoadingResult(loader: median(loaderTimes), floor: median(floorTimes))
}
