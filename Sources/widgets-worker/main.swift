import Foundation
import WidgetHost
import WidgetsCommandLine

// `widgets` with the shared Swift runtime and all of Foundation, as Swift bundles link them: every
// worker process, and the CLI itself when bundles are loaded into its process (`--isolation queue`).
// What only all of Foundation has, the worker gets from here.
WidgetsMain.run(
    worker: WorkerFoundation(
        runMainRunLoop: {
            while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
        },
        warmUp: {
            _ = try? JSONSerialization.data(withJSONObject: ["ready": [1.5, "x"]])
            _ = try? JSONSerialization.jsonObject(with: Data("{\"a\":[1,2.5,\"b\"]}".utf8))
        }))
