import CHostShims
import FoundationEssentials
import Glibc
import WidgetSupport

/// How bundles are kept apart from the host and from each other.
public enum Isolation: Sendable {
    /// Each provider on its own Dispatch queue in the host process, under the memory guard. Fast,
    /// but a bundle that crashes takes the host with it.
    case queue
    /// Each bundle in a worker process of its own (its providers on their queues inside it): a crash,
    /// a hang or memory over the limit ends that worker only, which restarts with backoff.
    case process(ProcessIsolation)
}

/// The settings of process isolation.
public struct ProcessIsolation: Sendable {
    /// The executable started as a worker; it must call `WidgetWorker.main` when its first argument
    /// is `WidgetWorker.flag` (`widgets-worker` does).
    public var workerExecutable: String
    /// After this many crashes within `crashWindow`, a bundle is disabled until the host restarts.
    public var maximumCrashes = 5
    public var crashWindow: TimeInterval = 3600
    /// The wait before restarting after the first crash; it doubles with each crash in the window,
    /// up to `maximumBackoff`.
    public var firstBackoff: TimeInterval = 1
    public var maximumBackoff: TimeInterval = 60
    /// How long past a request's deadline a worker may take to report the timeout before it is
    /// considered unresponsive and killed.
    public var answerGrace: TimeInterval = 5
    /// Variables set in the workers' environment over the host's own (a program embedding the
    /// host gives its bundles a data directory of their own, say).
    public var environment: [String: String] = [:]
    /// Workers are forked from a zygote of the worker executable that has the runtime loaded (see
    /// `WorkerZygote`), else each spawned on its own; `WIDGETS_ZYGOTE=off` in the host's
    /// environment spawns them whatever this says.
    public var forksWorkers = true
    /// A worker asked nothing for this long (on the host's clock) is closed, and started again at
    /// its bundle's next request; nil (the default) keeps workers running. The CLI's hosts stop
    /// them after `defaultIdleStop` (`WIDGETS_WORKER_IDLE`).
    public var idleStop: TimeInterval?
    public static let defaultIdleStop: TimeInterval = 300
    /// A worker asked nothing for this long (on the host's clock) gives back the pages of the files
    /// it maps read-only (its code and constants, the bundle's, the runtime's, ICU's data): they
    /// stay in the page cache, and its next request maps them again, for about a millisecond. nil
    /// never. Shared pages stay mapped in the zygote and the host; the worker's own (its bundle's
    /// code, which no other process maps) become the page cache's, which the kernel may reclaim.
    public var idleRelease: TimeInterval? = 2

    public init(workerExecutable: String) {
        self.workerExecutable = workerExecutable
    }

    /// Workers started from this very executable, for a host program that calls `WidgetWorker.main`
    /// on the worker flag; or, when this executable has the Swift runtime linked into it (the
    /// `widgets` CLI, which starts in a third of the time so), from the worker executable installed
    /// with it (`SwiftRuntime.companion`): a Swift bundle links the shared runtime, and one process
    /// holds one runtime.
    public static var thisExecutable: ProcessIsolation {
        ProcessIsolation(workerExecutable: SwiftRuntime.isShared ? SwiftRuntime.executable : SwiftRuntime.companion)
    }
}

/// Which Swift runtime this process has: the shared library (`libswiftCore.so`) that every Swift
/// bundle links, or one linked into its executable (`-static-stdlib`). Only a process with the
/// shared one may load a Swift bundle into itself: a bundle would otherwise bring a second runtime,
/// with a second main queue that nothing drains and type metadata of its own.
public enum SwiftRuntime {
    /// Whether `libswiftCore.so` is loaded in this process (a statically linked one has none), read
    /// from the loaded objects' list (`dlopen` of the name searched the library path first).
    public static let isShared: Bool = host_has_shared_swift_runtime()

    /// This executable's absolute path, its links resolved (the kernel's link holds it).
    public static let executable: String = linkTarget("/proc/self/exe") ?? "/proc/self/exe"

    /// The file name of the executable with the shared runtime that the statically linked `widgets`
    /// hands Swift bundles to: it serves as every worker, and runs the CLI itself when bundles are
    /// to be loaded into the host's process (`--isolation queue`).
    public static let companionName = "widgets-worker"

    /// The places that executable is looked for: beside this one (a build directory), then, for an
    /// installed `widgets`, in `PREFIX/lib/widgets` (`bin/widgets` and `lib/widgets/widgets-worker`).
    public static let companionPlaces: [String] = {
        let beside = executable.pathDirectory + "/" + companionName
        let installed = BundleSearchPath.installationLibrary(executable: executable).map { $0 + "/" + companionName }
        return [beside] + [installed].compactMap { $0 }.filter { $0 != beside }
    }()

    /// That executable: the first place that has one (executable or not, so that an error names the
    /// file there), else the first place.
    public static var companion: String { companionPlaces.first { access($0, F_OK) == 0 } ?? companionPlaces[0] }

    /// The places, as a message says them.
    private static var placesText: String {
        companionPlaces.count == 1 ? "at \(companionPlaces[0])" : "in \(companionPlaces.joined(separator: " or "))"
    }

    /// Set in the environment of the companion this process becomes: a companion that turns out to
    /// have the runtime linked in too (a copy of `widgets`, or a link to it) refuses to hand over
    /// again, instead of exec'ing itself for ever.
    public static let handedOverVariable = "WIDGETS_HANDED_OVER"

    /// Why a worker executable could not be started, when it is the companion: what it is for and
    /// where it was looked for. Empty for any other executable.
    public static func companionNote(for workerExecutable: String) -> String {
        guard !isShared, workerExecutable == companion else { return "" }
        return "; this widgets has the Swift runtime linked into it and loads Swift bundles through \(companionName), the same program"
            + " with the shared runtime, looked for \(placesText) (make install puts it in PREFIX/lib/widgets)"
    }

    /// Called first by the program of both executables: in the companion, a hand-over is done with,
    /// and what it starts is not taken for one.
    public static func arrive() {
        if isShared { unsetenv(handedOverVariable) }
    }

    /// Runs the companion in this process's place with `arguments` (argv[1...]); returns only when
    /// it cannot be run, with why.
    public static func becomeCompanion(arguments: [String]) -> String {
        let path = companion
        if getenv(handedOverVariable) != nil {
            return "\(executable) was started as \(companionName) but has the Swift runtime linked into it too: it is a copy of widgets, or a link to it;"
                + " install the \(companionName) built with widgets"
        }
        setenv(handedOverVariable, "1", 1)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        fflush(nil)
        execv(path, argv)
        let error = errno
        unsetenv(handedOverVariable)
        for pointer in argv { free(pointer) }
        let reason = error == ENOENT ? "none \(placesText)" : "\(path): \(errnoText(error))"
        return "cannot run \(companionName) (\(reason)): this widgets has the Swift runtime linked into it and hands Swift bundles to"
            + " \(companionName), the same program with the shared one; make install puts it in PREFIX/lib/widgets"
    }
}
