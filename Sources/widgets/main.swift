import Dispatch
import Foundation
import WidgetHost
import WidgetsCommandLine

// Process isolation starts this executable again as a worker for one bundle. This file's top level
// is synchronous (no `await` in it), so the worker is entered from the main thread itself, which it
// keeps to serve the main queue.
if CommandLine.arguments.dropFirst().first == WidgetWorker.flag {
    WidgetWorker.main(arguments: Array(CommandLine.arguments.dropFirst()))
}

// The command runs as a task; the main thread serves the main queue (and the main actor) meanwhile,
// so providers loaded in this process (`--isolation queue`) may complete on it.
// A bundle that calls exit() in this process (queue isolation) is reported, not obeyed quietly.
ExitGuard.install()
let arguments = Array(CommandLine.arguments.dropFirst())
Task {
    let status = await CLI.exitStatus(running: arguments)
    ExitGuard.deliberate()
    // Without running exit handlers: a bundle's static destructors (queue isolation) have no say in
    // how the host ends, and a bundle hung in the dynamic loader cannot hold the exit up.
    fflush(nil)
    _exit(status)
}
dispatchMain()
