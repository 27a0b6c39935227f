import Foundation

exit(run(Array(CommandLine.arguments.dropFirst())).rawValue)
