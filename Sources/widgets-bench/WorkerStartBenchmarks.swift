import Foundation
import Glibc
import WidgetHost

// MARK: - A worker's start: forked by the zygote against spawned, in the same minutes

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
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-worker-start-\(getpid())")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let bundle = directory.appendingPathComponent("libSystemWidgets.so")
    try! FileManager.default.copyItem(at: products.appendingPathComponent("libSystemWidgets.so"), to: bundle)
    chmod(bundle.path, 0o644)
    chmod(directory.path, 0o755)
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
