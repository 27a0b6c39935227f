import Foundation

exit(await run(Array(CommandLine.arguments.dropFirst())).rawValue)
