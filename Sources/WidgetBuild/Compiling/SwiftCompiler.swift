import Foundation
import WidgetABI

/// The `swiftc` a build uses: `$SWIFTC`, else the first on `PATH`. It must be the compiler that
/// built the SDK (and the host): Swift has no stable ABI on Linux, and the SDK's modules load in
/// no other.
public struct SwiftCompiler: Sendable {
    public let path: String
    /// "6.3.1".
    public let version: String

    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment, runner: ProcessRunner) throws(BuildError) -> SwiftCompiler {
        let path: String
        if let given = environment["SWIFTC"], !given.isEmpty {
            path = given
        } else if let found = ProcessRunner.find("swiftc", environment: environment) {
            path = found
        } else {
            throw BuildError("no swiftc on PATH: widgets build compiles with the Swift compiler that built widgets (\(Toolchain.current)); put its bin folder on PATH, or set SWIFTC")
        }
        var quiet = runner
        quiet.passesOutputThrough = false
        quiet.echo = nil
        let outcome = try quiet.run(path, ["--version"])
        guard outcome.status == 0, let range = outcome.output.range(of: "Swift version ") else {
            throw BuildError("\(path) --version did not say which Swift it is: \(outcome.output.prefix(200))")
        }
        let version = String(outcome.output[range.upperBound...].prefix { !$0.isWhitespace })
        return SwiftCompiler(path: path, version: version)
    }

    /// Refuses a compiler other than the SDK's, naming both.
    public func check(against sdk: WidgetSDK) throws(BuildError) {
        let made = Toolchain.name(forCompilerVersion: version)
        guard made == sdk.toolchain else {
            throw BuildError(
                "\(path) is Swift \(version), but the SDK at \(sdk.root) was built with \(sdk.toolchain): a bundle must be built by the host's compiler "
                    + "(Swift has no stable ABI on Linux); put that compiler's bin folder first on PATH, or set SWIFTC")
        }
    }
}
