import FoundationEssentials
import Glibc
import WidgetHost
import WidgetWire

/// What most commands do first: load the bundles, with the command's settings, and say what was
/// refused; read an instance; tell a running host of a change.
extension Invocation {
    var json: Bool { isSet(Options.json) }

    /// A registry with the command's settings: --memory-limit and --isolation, where it takes them,
    /// `WIDGETS_LOAD_DEADLINE` (seconds a bundle may take to load; default 10),
    /// `WIDGETS_WORKER_IDLE` (seconds a worker asked nothing lives on, or `never`; default 300) and
    /// `WIDGETS_WORKER_RELEASE` (seconds a worker asked nothing keeps its files' pages mapped, or
    /// `never`; default 2).
    func makeRegistry() throws(UsageError) -> WidgetRegistry {
        let memoryLimit = try valueIfDeclared(Options.memoryLimit)
        var isolation = try valueIfDeclared(Options.isolation) ?? .process(.thisExecutable)
        if case .process(var settings) = isolation {
            settings.idleStop = try seconds(of: "WIDGETS_WORKER_IDLE", least: 1, otherwise: ProcessIsolation.defaultIdleStop)
            settings.idleRelease = try seconds(of: "WIDGETS_WORKER_RELEASE", least: 0.1, otherwise: settings.idleRelease)
            isolation = .process(settings)
        }
        let registry = WidgetRegistry(memoryLimit: memoryLimit ?? MemoryGuard.defaultLimit, isolation: isolation)
        // One variable read, not the whole environment made into a dictionary.
        if let text = getenv("WIDGETS_LOAD_DEADLINE").map({ String(cString: $0) }) {
            guard let seconds = TimeInterval(text), seconds > 0, seconds <= 3600 else {
                throw UsageError(message: "WIDGETS_LOAD_DEADLINE takes a number of seconds above 0 and at most 3600, not '\(text)'", command: name)
            }
            registry.loadDeadline = seconds
        }
        return registry
    }

    /// The seconds an environment variable gives, from `least` to a day, or nil for `never`;
    /// `otherwise` when it is not set.
    private func seconds(of variable: String, least: TimeInterval, otherwise: TimeInterval?) throws(UsageError) -> TimeInterval? {
        guard let text = getenv(variable).map({ String(cString: $0) }) else { return otherwise }
        if text == "never" { return nil }
        guard let seconds = TimeInterval(text), seconds >= least, seconds <= 86_400 else {
            throw UsageError(message: "\(variable) takes a number of seconds from \(least == least.rounded() ? String(Int(least)) : String(least)) to 86400, or never, not '\(text)'", command: name)
        }
        return seconds
    }

    /// The registry with the bundles on the search path loaded, and the search path. Given a kind,
    /// it returns as soon as that kind is registered (or every bundle has loaded or been refused):
    /// a bundle slow to load delays only requests for its own widgets. `patience` is how long to
    /// wait for every bundle before going on without those still loading, which join later.
    func loadSearchPath(for kind: String? = nil, patience: TimeInterval? = nil) throws(UsageError) -> (WidgetRegistry, [String]) {
        let registry = try makeRegistry()
        // Bundles unchanged since they were last loaded are not loaded again (process isolation).
        if case .process = registry.isolation, !isSet(Options.noCache) { registry.cache = RegistryCache() }
        let searchPath = BundleSearchPath.resolve(plugins: try value(Options.plugins))
        for directory in searchPath { registry.loadDirectory(directory, patience: kind == nil ? patience : 0) }
        if let kind { registry.waitForLoads(kind: kind) }
        if let cache = registry.cache, (try? logLevel()) == .debug {
            output.standardError(
                "widgets: debug: registry cache \(cache.fileURL.path): \(cache.hits) bundle(s) read from it, \(cache.misses) loaded by their workers")
        }
        return (registry, searchPath)
    }

    func reportProblems(_ registry: WidgetRegistry, as level: String = "error") {
        let problems = registry.problems
        guard !problems.isEmpty else { return }
        output.standardError(problems.map { "widgets: \(level): \($0)" }.joined(separator: "\n"))
    }

    /// Where instances are kept: --state-dir, else the XDG state directory.
    var store: InstanceStore {
        let directory = (try? valueIfDeclared(Options.stateDirectory)) ?? nil
        return InstanceStore(directory: directory.map { URL(fileURLWithPath: $0) } ?? InstanceStore.defaultDirectory())
    }

    /// The saved instance `id`, or nil after printing why it cannot be had (no such instance, an
    /// unreadable state file).
    func instanceOrReport(id: String) -> WidgetInstance? {
        do {
            let list = try store.load()
            guard let instance = list.instance(id: id) else { throw list.missing(id: id) }
            return instance
        } catch {
            output.standardError("widgets: error: \(error)")
            // A running host writes back the instances it runs in the place of the file set aside.
            if let state = error as? StateError, state.setAsideAt != nil { notifyRunningHost() }
            return nil
        }
    }

    /// What a request command asks about: a KIND, or `--instance ID` with the instance's family and
    /// configuration. Nil when the instance cannot be read (the reason is printed).
    func requestTarget(kind named: String?) throws(UsageError) -> (kind: String, family: WidgetFamily?, configuration: String, instance: WidgetInstance?)? {
        let family = try value(Options.family)
        guard let id = try valueIfDeclared(Options.instance) else {
            guard let named else { throw usageError("'widgets \(name)' needs KIND or --instance ID") }
            return (named, family, "{}", nil)
        }
        guard let instance = instanceOrReport(id: id) else { return nil }
        if let named, named != instance.kind {
            throw usageError("instance \(id) is a \(instance.kind), not a \(named)")
        }
        if let family, family != instance.family {
            throw usageError("instance \(id) is \(instance.family); leave out --family")
        }
        return (instance.kind, instance.family, instance.configurationText, instance)
    }

    /// After a change to the saved instances: a running host takes it up at once. With none running,
    /// there is nothing to tell.
    func notifyRunningHost() {
        guard let client = try? ControlClient(timeout: 5) else { return }
        do {
            _ = try client.send(ControlRequest.sync)
        } catch {
            output.standardError("widgets: warning: the running host did not take up the change: \(error)")
        }
    }

    /// Runs `body`, printing any error as one line; exit code 1 on error.
    func reporting(_ body: () async throws -> ExitCode) async -> ExitCode {
        do {
            return try await body()
        } catch {
            output.standardError("widgets: error: \(error)")
            if let state = error as? StateError, state.setAsideAt != nil { notifyRunningHost() }
            return .failure
        }
    }
}
