import Glibc

/// Where a bundle's providers run and how a request reaches them: in this process, each provider on
/// its own queue under the memory guard (`InProcessBackend`, queue isolation), or in a worker process
/// of the bundle's own (`WorkerSupervisor`, process isolation). Everything above a loaded bundle asks
/// through this alone, whichever it is.
protocol ProviderBackend: AnyObject, Sendable {
    /// Asks the provider, and checks its answer (`ResultValidation`): the validated result, or one
    /// line saying why there is none. Never fails to return: a provider that does not answer fails
    /// its call at the deadline.
    func request(_ call: ProviderCall) async throws(RequestError) -> ProviderResult

    /// What the provider of `kind` has done so far (its memory limit is the registry's to fill in).
    func statistics(kind: String) -> ProviderStatistics

    /// The worker process serving the bundle, while one runs; nil in process.
    var processID: pid_t? { get }

    /// Why the bundle is disabled (its worker crashed too often), when it is.
    var disabledReason: String? { get }

    /// Whether the bundle's image is mapped into this process, where it stays once loaded (a Swift
    /// image is never unloaded): a new file at its path cannot be loaded here again.
    var holdsImageInProcess: Bool { get }

    /// The host is done with the bundle: a worker ends, and no request is sent to it again. In
    /// process nothing can end (an image stays loaded); the registry sends it nothing more.
    func shutDown()

    /// Asks a worker to end without waiting for it, so that a host ending many ends them together
    /// (`shutDown` then waits for each); nothing in process.
    func beginShutDown()
}
