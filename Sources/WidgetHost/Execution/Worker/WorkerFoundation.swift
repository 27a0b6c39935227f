/// What a worker executable linked with all of Foundation (as the bundles it loads are) lends the
/// worker, whose own code is built on FoundationEssentials alone (so that `widgets`, which links
/// the same code statically, carries no ICU): `widgets-worker`'s main passes it to `WidgetWorker.main`.
public struct WorkerFoundation: Sendable {
    /// Serves the main run loop for ever: a forked worker's main thread serves the main queue
    /// (and a bundle's `Timer`s and run-loop sources) through it, as an app's main thread does.
    public var runMainRunLoop: @Sendable () -> Never
    /// Initializes what every worker would initialize itself (Foundation's JSON), in the zygote,
    /// once, for the workers it forks. Not the time zone, the locale or the calendar: a worker
    /// reads them as it starts, so one forked after the user changed them has the new ones.
    public var warmUp: @Sendable () -> Void

    public init(runMainRunLoop: @escaping @Sendable () -> Never, warmUp: @escaping @Sendable () -> Void) {
        self.runMainRunLoop = runMainRunLoop
        self.warmUp = warmUp
    }
}
