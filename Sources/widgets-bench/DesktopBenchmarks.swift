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
    let home = BenchHome("desktop", bundles: ["libSystemWidgets.so", "libGameWidgets.so", "libCryptoWidgets.so"].map { BenchHome.products.appendingPathComponent($0) })
    defer { home.remove() }
    let (widgets, plugins) = (home.widgets, home.plugins)
    let sway: HeadlessSway
    do { sway = try HeadlessSway() } catch { return .failure(SwayError("sway did not start: \(error)")) }
    defer { sway.stop() }
    let environment = home.environment.merging(sway.clientEnvironment) { $1 }
    let placed: [(String, String)] = [
        ("com.mygame.game-status", "systemSmall"), ("org.widgets.system.load", "systemMedium"), ("org.widgets.system.clock", "systemSmall"),
        ("org.widgets.crypto.price", "systemSmall"), ("com.mygame.leaderboard", "systemMedium"), ("com.mygame.character-detail", "systemSmall"),
        ("org.widgets.system.memory", "systemSmall"), ("org.widgets.system.uptime", "systemSmall"), ("org.widgets.crypto.price", "systemMedium"),
        ("com.mygame.leaderboard", "systemLarge"),
    ]
    let gameApp = BenchHome.products.appendingPathComponent("game-app").path
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
    // Nothing due in the window: the clock widget's entries switch at each minute.
    let second = Int(Date().timeIntervalSince1970) % 60
    if second + idleSeconds + 2 >= 60 { sleep(UInt32(61 - second)) }
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

/// The desktop's rows of the table: its figures, or why they were not measured.
func rows(of desktop: Result<DesktopResult, SwayError>) -> [Row] {
    switch desktop {
    case .success(let result):
        [
            Row(
                name: "desktop: an app's reload to the new drawing committed on the Wayland surface (game-app status, headless sway; median of \(result.toPixels.count))",
                measured: "\(formatted(median(result.toPixels) / 1e6, 1)) ms",
                floor: "the same reload to the host's line of the new entry (the provider's answer taken): \(formatted(median(result.toHost) / 1e6, 1)) ms",
                result: "+\(formatted((median(result.toPixels) - median(result.toHost)) / 1e6, 1)) ms", goal: "≤ 30 ms over the provider (issue 34)",
                met: median(result.toPixels) - median(result.toHost) <= 30e6),
            Row(
                name: "desktop: the client's memory with \(result.widgets) widgets shown (release build, settled); its wakeups in \(result.idleSeconds) s with nothing due",
                measured: "\(describe(result.memory)); \(result.idleWakeups) wakeups (the drawing thread: \(result.drawingWakeups))",
                floor: "none", result: "PSS \(mebibytes(result.memory.pss))", goal: "≤ 15 MB PSS; no wakeups of its own idle (issue 34)",
                met: result.memory.pss <= 15_000_000 && result.drawingWakeups == 0),
        ]
    case .failure(let why):
        [Row(name: "desktop: not measured", measured: "\(why)", floor: "-", result: "-", goal: "issue 34's", met: false)]
    }
}
