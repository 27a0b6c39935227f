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
    /// Cold, each worker spawned rather than forked by the zygote (`WIDGETS_ZYGOTE=off`).
    let coldSpawned: [Double]
    let bypassed: [Double]
    /// `stat` of every bundle file and reading and parsing the cache, in this process.
    let floor: [Double]
    /// The same as a process of its own (`Tests/Fixtures/listing_floor.swift`: listing the directory,
    /// `stat` of every bundle, reading the cache; Swift without Foundation), compiled as `swiftc -O`
    /// compiles by default (the shared standard library), and with `-static-stdlib` as `widgets` is.
    let floorProcess: [Double]
    let staticFloorProcess: [Double]
    /// `widgets --version`: starting the process alone (its relocations, the Swift runtime's and
    /// Foundation's start).
    let start: [Double]
    /// Widgets listed, and problems reported (none expected: every copy has kinds of its own).
    let widgets: Int
    let problems: Int
}

/// Runs a program (`widgets`, or the floor) with `arguments` and the environment given, its output to /dev/null; returns its
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

/// 100 Swift bundles of distinct kinds, as 100 different bundles would be: copies of the release
/// build's `libSystemWidgets.so`, each with its kinds' prefix `org.widgets.system.` rewritten in
/// place to one of the same length (`org.widgets.s00042.`), so every copy registers four widgets of
/// its own. Mode 0644 in a directory of 0755, as the loader's checks want.
func distinctSwiftBundles(_ count: Int, of library: URL) -> URL {
    let directory = bundleDirectory(copies: count, of: library, label: "listing")
    let original = [UInt8](try! Data(contentsOf: library))
    let prefix = Array("org.widgets.system.".utf8)
    let offsets = (0...(original.count - prefix.count)).filter { original[$0] == prefix[0] && original[$0..<$0 + prefix.count].elementsEqual(prefix) }
    precondition(!offsets.isEmpty, "\(library.path) has no kind starting org.widgets.system.")
    for copy in 0..<count {
        var bytes = original
        let replacement = Array(String(format: "org.widgets.s%05d.", copy).utf8)
        for offset in offsets { bytes.replaceSubrange(offset..<offset + prefix.count, with: replacement) }
        try! Data(bytes).write(to: directory.appendingPathComponent(String(format: "bundle-%03d.so", copy)))
    }
    return directory
}

/// `Tests/Fixtures/listing_floor.swift`, compiled with the toolchain's `swiftc -O` (and `flags`).
func compileListingFloor(_ flags: [String] = []) -> URL {
    let output = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-listing-floor\(flags.joined())-\(getpid())")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swiftc", "-O"] + flags + [repositoryRoot.appendingPathComponent("Tests/Fixtures/listing_floor.swift").path, "-o", output.path]
    try! process.run()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "cannot compile Tests/Fixtures/listing_floor.swift")
    return output
}

/// Runs `widgets` once more with the output kept: the widgets it listed and the problems it reported.
func listedCounts(_ widgets: String, _ arguments: [String], environment: [String: String]) -> (widgets: Int, problems: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: widgets)
    process.arguments = arguments
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try! process.run()
    // Both pipes read at once: neither fills and holds the other up.
    nonisolated(unsafe) var reported = Data()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        reported = errors.fileHandleForReading.readDataToEndOfFile()
        done.signal()
    }
    let listed = output.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    process.waitUntilExit()
    func lines(_ data: Data) -> Int { String(decoding: data, as: UTF8.self).split(separator: "\n").count }
    return (lines(listed), lines(reported))
}

/// 100 distinct Swift bundles listed by the release `widgets` as a user lists them.
func benchmarkListing(bundles: Int = 100, rounds: Int = 15) -> ListingResult {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let widgets = products.appendingPathComponent("widgets").path
    let library = products.appendingPathComponent("libSystemWidgets.so")
    precondition(FileManager.default.fileExists(atPath: library.path), "build the samples first (make bench does)")
    let directory = distinctSwiftBundles(bundles, of: library)
    let floorProgram = compileListingFloor()
    let staticFloorProgram = compileListingFloor(["-static-stdlib"])
    let cacheHome = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-cache-\(getpid())")
    defer {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: cacheHome)
        try? FileManager.default.removeItem(at: floorProgram)
        try? FileManager.default.removeItem(at: staticFloorProgram)
    }
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CACHE_HOME"] = cacheHome.path
    environment["WIDGETS_PATH"] = nil
    let arguments = ["--plugins", directory.path, "list", "--short"]

    var cold: [Double] = []
    var coldSpawned: [Double] = []
    var spawning = environment
    spawning["WIDGETS_ZYGOTE"] = "off"
    for round in 0..<6 {
        for spawn in round % 2 == 0 ? [false, true] : [true, false] {
            try? FileManager.default.removeItem(at: cacheHome)
            let took = timedWidgets(widgets, arguments, environment: spawn ? spawning : environment)
            if spawn { coldSpawned.append(took) } else { cold.append(took) }
        }
    }
    var bypassed: [Double] = []
    for _ in 0..<3 { bypassed.append(timedWidgets(widgets, ["--no-cache"] + arguments, environment: environment)) }
    let counts = listedCounts(widgets, arguments, environment: environment)  // and warms

    let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted().map { directory.path + "/" + $0 }
    let cacheFile = cacheHome.appendingPathComponent("widgets/registry.json").path
    var warm: [Double] = []
    var floor: [Double] = []
    var floorProcess: [Double] = []
    var staticFloorProcess: [Double] = []
    var start: [Double] = []
    // The five alternate, so that a minute when the machine is slow weighs on each alike.
    for _ in 0..<rounds {
        warm.append(timedWidgets(widgets, arguments, environment: environment))
        start.append(timedWidgets(widgets, ["--version"], environment: environment))
        floorProcess.append(timedWidgets(floorProgram.path, [directory.path, cacheFile], environment: environment))
        staticFloorProcess.append(timedWidgets(staticFloorProgram.path, [directory.path, cacheFile], environment: environment))
        let start = nanoseconds()
        var info = stat()
        for file in files { _ = stat(file, &info) }
        let data = FileManager.default.contents(atPath: cacheFile) ?? Data()
        blackHole(try? JSONValue.parse(String(decoding: data, as: UTF8.self)))
        floor.append(Double(nanoseconds() - start))
    }
    return ListingResult(
        bundles: bundles, warm: warm, cold: cold, coldSpawned: coldSpawned, bypassed: bypassed, floor: floor, floorProcess: floorProcess, staticFloorProcess: staticFloorProcess, start: start,
        widgets: counts.widgets, problems: counts.problems)
}
