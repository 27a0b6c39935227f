import Foundation
import Glibc
import WidgetHost
@_spi(WidgetsInternal) import WidgetSupport

// MARK: - A worker's start: forked by the zygote against spawned, in the same minutes

/// A directory of its own (mode 0755) holding a copy (0644) of the release build's libSystemWidgets.so.
func sampleBundleDirectory(_ label: String) -> URL {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-\(label)-\(getpid())")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let bundle = directory.appendingPathComponent("libSystemWidgets.so")
    try! FileManager.default.copyItem(at: products.appendingPathComponent("libSystemWidgets.so"), to: bundle)
    chmod(bundle.path, 0o644)
    chmod(directory.path, 0o755)
    return directory
}

struct WorkerStartResult {
    /// Nanoseconds from asking for the worker to the bundle's widgets known (the worker's first
    /// message, what it loaded), forked and spawned, alternating.
    let forked: [Double]
    let spawned: [Double]
}

/// One Swift sample bundle (libSystemWidgets: SDK, FoundationNetworking and its libraries) loaded by
/// a registry in process isolation, its worker forked by the zygote (started before, uncounted) and
/// spawned, alternating which goes first.
func benchmarkWorkerStart(rounds: Int = 21) -> WorkerStartResult {
    let directory = sampleBundleDirectory("worker-start")
    defer { try? FileManager.default.removeItem(at: directory) }
    guard case .process(var forking) = processIsolation() else { preconditionFailure() }
    forking.forksWorkers = true
    var spawning = forking
    spawning.forksWorkers = false

    func start(_ settings: ProcessIsolation) -> Double {
        let begin = nanoseconds()
        let registry = WidgetRegistry.load(searchPath: [directory.path], isolation: .process(settings))
        let took = Double(nanoseconds() - begin)
        precondition(registry.widgets.count == 4, "the sample bundle did not load: \(registry.problems)")
        registry.shutDownWorkers()
        return took
    }
    _ = start(forking)  // starts the zygote
    _ = start(spawning)
    var forked: [Double] = []
    var spawned: [Double] = []
    for round in 0..<rounds {
        if round % 2 == 0 {
            forked.append(start(forking))
            spawned.append(start(spawning))
        } else {
            spawned.append(start(spawning))
            forked.append(start(forking))
        }
    }
    return WorkerStartResult(forked: forked, spawned: spawned)
}

// MARK: - The request after a worker gave back its pages

struct IdleReleaseResult {
    /// Nanoseconds of a timeline request asked once the worker gave back its files' pages, and
    /// asked with them kept, alternating.
    let released: [Double]
    let kept: [Double]
}

/// The clock sample's timeline from its worker (libSystemWidgets in process isolation, on a manual
/// clock): asked 2 s (the release's period) after the last answer, once the worker has given back
/// its pages (its bundle's code seen gone from its smaps), and asked 1 s after, pages kept.
func benchmarkIdleRelease(rounds: Int = 21) -> IdleReleaseResult {
    let directory = sampleBundleDirectory("idle-release")
    defer { try? FileManager.default.removeItem(at: directory) }
    guard case .process(var settings) = processIsolation() else { preconditionFailure() }
    settings.idleRelease = 2
    let clock = ManualClock()
    let registry = WidgetRegistry.load(searchPath: [directory.path], clock: clock, isolation: .process(settings))
    defer { registry.shutDownWorkers() }
    let kind = "org.widgets.system.clock"
    func ask() -> Double {
        let done = DispatchSemaphore(value: 0)
        let took = Locked(0.0)
        Task {
            let begin = nanoseconds()
            _ = try? await registry.request(.timeline, kind: kind)
            took.withLock { $0 = Double(nanoseconds() - begin) }
            done.signal()
        }
        done.wait()
        return took.withLock { $0 }
    }
    func codeResident() -> Int {
        guard let pid = registry.widget(kind: kind)?.bundle.workerProcessID,
            let smaps = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps").map({ String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) })
        else { return 0 }
        var total = 0
        var counting = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 6, fields[0].contains("-"), fields[0].first?.isHexDigit == true {
                counting = fields[1] == "r-xp" && fields[5].hasSuffix("/libSystemWidgets.so")
            } else if counting, fields.first == "Rss:", let kilobytes = Int(fields[1]) {
                total += kilobytes
            }
        }
        return total
    }
    _ = ask()
    var released: [Double] = []
    var kept: [Double] = []
    for round in 0..<(rounds * 2) {
        if round % 2 == 0 {
            clock.advance(by: 1)
            kept.append(ask())
        } else {
            let before = codeResident()
            clock.advance(by: 2)
            let giveUp = Date().addingTimeInterval(2)
            while codeResident() * 4 > before, Date() < giveUp { usleep(2000) }
            released.append(ask())
        }
    }
    return IdleReleaseResult(released: released, kept: kept)
}
