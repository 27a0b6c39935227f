import Foundation
import WidgetHost

// Process isolation starts this executable again as a worker for one bundle.
if CommandLine.arguments.dropFirst().first == WidgetWorker.flag {
    WidgetWorker.main(arguments: Array(CommandLine.arguments.dropFirst()))
}

exit(await CLI.run(Array(CommandLine.arguments.dropFirst())).rawValue)
