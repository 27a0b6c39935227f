import Dispatch
import Glibc
import WidgetHost

/// The program of both executables: `widgets`, which has the Swift runtime and Foundation linked
/// into it (so a command starts in about 3 ms, not 9: no shared library's symbols to bind), and
/// `widgets-worker`, the same program with the shared runtime that Swift bundles link, which loads
/// them (see `SwiftRuntime`).
public enum WidgetsMain {
    /// Runs the command line this process was started with; never returns. Called from an
    /// executable's synchronous top level, so that a worker is entered from the main thread itself,
    /// which it keeps to serve the main queue.
    /// `worker`: what an executable linked with all of Foundation lends its workers (`widgets-worker`'s).
    public static func run(worker: WorkerFoundation? = nil) -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        SwiftRuntime.arrive()
        // Process isolation starts this program again as a worker for one bundle.
        if arguments.first == WidgetWorker.flag {
            // A host that names `widgets` itself as its worker gets the companion in its place.
            if !SwiftRuntime.isShared {
                let why = SwiftRuntime.becomeCompanion(arguments: arguments)
                Output.write("widgets: error: cannot start a worker: \(why)\n", to: STDERR_FILENO)
                _exit(70)
            }
            WidgetWorker.main(arguments: arguments, foundation: worker)
        }
        // The command line is read here, before any task; a command that lives all day and must not
        // wake (the desktop) runs here too: libdispatch's worker pool, which tasks run on, has a
        // monitor that wakes the process every second for as long as it runs. It loads no bundle:
        // neither guard below is its.
        let perform: @Sendable () async -> Int32
        switch CLI.start(arguments) {
        case .status(let status):
            fflush(nil)
            _exit(status)
        case .task(let task):
            perform = task
        }
        // Any other command runs as a task; the main thread serves the main queue (and the main actor)
        // meanwhile, so providers loaded in this process (`--isolation queue`) may complete on it.
        // A bundle that calls exit() in this process (queue isolation) is reported, not obeyed quietly.
        ExitGuard.install()
        // What a bundle starts comes back to this process when its worker ends (see Orphans).
        Orphans.adopt()
        Task {
            let status = await perform()
            ExitGuard.deliberate()
            // Nothing a bundle started outlives the host (in queue isolation, what it started in
            // this process).
            Orphans.sweep()
            // Without running exit handlers: a bundle's static destructors (queue isolation) have no
            // say in how the host ends, and a bundle hung in the dynamic loader cannot hold the exit up.
            fflush(nil)
            _exit(status)
        }
        dispatchMain()
    }
}
