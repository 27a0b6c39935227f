import Foundation
import Glibc
import WidgetWire

// MARK: - Listing from the registry cache

struct ListingResult {
    let bundles: Int
    /// `widgets list --short` as a user runs it (a process), in nanoseconds: with the cache warm,
    /// with it cold (every bundle loaded by its worker, then recorded), and bypassed (`--no-cache`).
    let warm: [Double]
    let cold: [Double]
    let bypassed: [Double]
    /// `stat` of every bundle file and reading and parsing the cache, in this process.
    let floor: [Double]
    /// `widgets --version`: starting the process alone (dynamic linking, the Swift runtime).
    let start: [Double]
}

/// Runs `widgets` with `arguments` and the environment given, its output to /dev/null; returns its
/// wall time in nanoseconds. posix_spawn and waitpid, as a shell runs it (Foundation's `Process`
/// waits by polling, which would be most of what is measured).
func timedWidgets(_ widgets: String, _ arguments: [String], environment: [String: String]) -> Double {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([widgets] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let start = nanoseconds()
    precondition(posix_spawn(&pid, widgets, &actions, nil, argv, envp) == 0, "cannot run \(widgets)")
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return Double(nanoseconds() - start)
}

/// 100 copies of the release build's Swift sample bundle (`libSystemWidgets.so`), listed by the
/// release `widgets` as a user lists them.
func benchmarkListing(bundles: Int = 100, rounds: Int = 15) -> ListingResult {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let widgets = products.appendingPathComponent("widgets").path
    let library = products.appendingPathComponent("libSystemWidgets.so")
    precondition(FileManager.default.fileExists(atPath: library.path), "build the samples first (make bench does)")
    let directory = bundleDirectory(copies: bundles, of: library, label: "listing")
    let cacheHome = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-cache-\(getpid())")
    defer {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: cacheHome)
    }
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CACHE_HOME"] = cacheHome.path
    environment["WIDGETS_PATH"] = nil
    let arguments = ["--plugins", directory.path, "list", "--short"]

    var cold: [Double] = []
    for _ in 0..<3 {
        try? FileManager.default.removeItem(at: cacheHome)
        cold.append(timedWidgets(widgets, arguments, environment: environment))
    }
    var bypassed: [Double] = []
    for _ in 0..<3 { bypassed.append(timedWidgets(widgets, ["--no-cache"] + arguments, environment: environment)) }
    _ = timedWidgets(widgets, arguments, environment: environment)  // warm, once uncounted

    let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted().map { directory.path + "/" + $0 }
    let cacheFile = cacheHome.appendingPathComponent("widgets/registry.json").path
    var warm: [Double] = []
    var floor: [Double] = []
    var start: [Double] = []
    for _ in 0..<rounds {
        warm.append(timedWidgets(widgets, arguments, environment: environment))
        start.append(timedWidgets(widgets, ["--version"], environment: environment))
        let start = nanoseconds()
        var info = stat()
        for file in files { _ = stat(file, &info) }
        let data = FileManager.default.contents(atPath: cacheFile) ?? Data()
        blackHole(try? JSONValue.parse(String(decoding: data, as: UTF8.self)))
        floor.append(Double(nanoseconds() - start))
    }
    return ListingResult(bundles: bundles, warm: warm, cold: cold, bypassed: bypassed, floor: floor, start: start)
}
