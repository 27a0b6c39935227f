import Foundation
import Glibc
import WidgetTestSupport

// MARK: - The desktop surface: an app's reload to pixels, the client's memory, its wakeups idle

struct DesktopResult {
    /// From an app's `game-app status TEXT` (its `reloadTimelines`) to the desktop client's new
    /// drawing committed to the compositor, and to the host's line of the new entry (the provider's
    /// answer taken), in nanoseconds.
    let toPixels: [Double]
    let toHost: [Double]
    /// The client with `widgets` widgets shown, settled.
    let memory: ProcessMemory
    let widgets: Int
    /// Wakeups (voluntary context switches) over `idleSeconds` with nothing due: the whole process,
    /// and its drawing thread.
    let idleWakeups: Int
    let drawingWakeups: Int
    let idleSeconds: Int
}

/// `widgets desktop` in a headless sway (see `HeadlessSway`), the release build's samples hosted
/// by `widgets run`: ten instances drawn, then `rounds` status changes by the game's app. A failure
/// saying why where sway cannot run.
func benchmarkDesktop(rounds: Int = 10) -> Result<DesktopResult, SwayError> {
    if let why = HeadlessSway.unavailable { return .failure(SwayError(why)) }
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let widgets = products.appendingPathComponent("widgets").path
    let home = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-desktop-\(getpid())")
    let plugins = home.appendingPathComponent("widgets.d")
    try! FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    for bundle in ["libSystemWidgets.so", "libGameWidgets.so", "libCryptoWidgets.so"] {
        try! FileManager.default.copyItem(at: products.appendingPathComponent(bundle), to: plugins.appendingPathComponent(bundle))
        chmod(plugins.appendingPathComponent(bundle).path, 0o644)
    }
    let sway: HeadlessSway
    do { sway = try HeadlessSway() } catch { return .failure(SwayError("sway did not start: \(error)")) }
    defer { sway.stop() }
    var environment = ProcessInfo.processInfo.environment.merging(sway.clientEnvironment) { $1 }
    for (name, place) in [("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"), ("XDG_RUNTIME_DIR", "runtime"), ("XDG_CACHE_HOME", "cache")] {
        let directory = home.appendingPathComponent(place)
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment[name] = directory.path
    }
    environment["WIDGETS_PATH"] = nil
    let placed: [(String, String)] = [
        ("com.mygame.game-status", "systemSmall"), ("org.widgets.system.load", "systemMedium"), ("org.widgets.system.clock", "systemSmall"),
        ("org.widgets.crypto.price", "systemSmall"), ("com.mygame.leaderboard", "systemMedium"), ("com.mygame.character-detail", "systemSmall"),
        ("org.widgets.system.memory", "systemSmall"), ("org.widgets.system.uptime", "systemSmall"), ("org.widgets.crypto.price", "systemMedium"),
        ("com.mygame.leaderboard", "systemLarge"),
    ]
    let gameApp = products.appendingPathComponent("game-app").path
    _ = timedWidgets(gameApp, ["reset"], environment: environment)
    for (kind, family) in placed { _ = timedWidgets(widgets, ["--plugins", plugins.path, "add", kind, "--family", family], environment: environment) }

    let host = BenchHost(widgets, ["--plugins", plugins.path, "run", "--log"], environment: environment)
    defer { host.stop() }
    host.waitForLine { $0.contains("game-status-1: Game Status") }
    let desktop = BenchHost(widgets, ["-v", "desktop", "--appearance", "light", "--columns", "4"], environment: environment, errorsToo: true)
    defer { desktop.stop() }
    desktop.waitForLine { line in line.contains("drew ") && placed.indices.allSatisfy { line.contains("-\($0 + 1)") } }
    // Every first timeline in, then quiet.
    sleep(3)
    sync()
    let pid = desktop.process.processIdentifier
    let memory = ProcessMemory(pid: pid)!
    let idleSeconds = 5
    // The drawing thread, by the id the client says it has.
    var drawing: Int32 = 0
    desktop.waitForLine { line in
        guard let range = line.range(of: "drawing on thread ") else { return false }
        drawing = Int32(line[range.upperBound...]) ?? 0
        return true
    }
    let before = contextSwitches(of: pid)
    sleep(UInt32(idleSeconds))
    let after = contextSwitches(of: pid)

    var toPixels: [Double] = []
    var toHost: [Double] = []
    for round in 0..<rounds {
        let start = nanoseconds()
        _ = timedWidgets(gameApp, ["status", "Round \(round)"], environment: environment)
        let hostAt = host.lineAt(after: start) { $0.contains("game-status-1: Game Status | Round \(round)") }
        let drawnAt = desktop.lineAt(after: start) { $0.contains("drew ") && $0.contains("game-status-1") }
        toHost.append(Double(hostAt - start))
        toPixels.append(Double(drawnAt - start))
        // The round's later events (the other game widgets' reloads) settle before the next.
        usleep(300_000)
    }
    return .success(
        DesktopResult(
            toPixels: toPixels, toHost: toHost, memory: memory, widgets: placed.count, idleWakeups: switches(from: before, to: after),
            drawingWakeups: (after[drawing] ?? 0) - (before[drawing] ?? 0), idleSeconds: idleSeconds))
}

/// The voluntary context switches of each thread of a process, by thread id.
func contextSwitches(of pid: pid_t) -> [Int32: Int] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    var counts: [Int32: Int] = [:]
    for task in tasks {
        guard let id = Int32(task), let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
            let count = Int(line.split(separator: "\t").last ?? "")
        else { continue }
        counts[id] = count
    }
    return counts
}

/// The switches between two samples: of the threads there at the second (a thread that ended
/// meanwhile takes its count with it; one that began counts whole).
func switches(from before: [Int32: Int], to after: [Int32: Int]) -> Int {
    after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
}
