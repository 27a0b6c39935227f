import FoundationEssentials
import Glibc
import WidgetSupport
import WidgetABI
import WidgetWire

/// The `swiftc` a build uses: `$SWIFTC`, else the first on `PATH`. It must be the compiler that
/// built the SDK (and the host): Swift has no stable ABI on Linux, and the SDK's modules load in
/// no other.
public struct SwiftCompiler: Sendable {
    public let path: String
    /// "6.3.1".
    public let version: String

    /// `cacheDirectory`: where the compiler's answer to `--version` is kept between builds.
    public static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment, runner: ProcessRunner, cacheDirectory: String? = nil
    ) throws(BuildError) -> SwiftCompiler {
        let path: String
        if let given = environment["SWIFTC"], !given.isEmpty {
            path = given
        } else if let found = Subprocess.find("swiftc", environment: environment) {
            path = found
        } else {
            throw BuildError("no swiftc on PATH: widgets build compiles with the Swift compiler that built widgets (\(Toolchain.current)); put its bin folder on PATH, or set SWIFTC")
        }
        // Asking costs two processes (the driver and the frontend), a quarter of a second: the
        // answer is kept, keyed by the two executables' identity, size and time.
        let identity = Self.identity(of: path)
        let remembered = cacheDirectory.map { $0 + "/swiftc-version" }
        if let remembered, let identity, let text = try? String(contentsOfFile: remembered, encoding: .utf8) {
            let lines = text.split(separator: "\n").map(String.init)
            if lines.count == 2, lines[0] == identity { return SwiftCompiler(path: path, version: lines[1]) }
        }
        var quiet = runner
        quiet.passesOutputThrough = false
        quiet.echo = nil
        let outcome = try quiet.run(path, ["--version"])
        guard outcome.status == 0, let range = outcome.output.firstRange(of: "Swift version ") else {
            throw BuildError("\(path) --version did not say which Swift it is: \(outcome.output.prefix(200))")
        }
        let version = String(outcome.output[range.upperBound...].prefix { !$0.isWhitespace })
        if let remembered, let identity {
            try? FileManager.default.createDirectory(atPath: remembered.pathDirectory, withIntermediateDirectories: true)
            try? (identity + "\n" + version).write(toFile: remembered, atomically: true, encoding: .utf8)
        }
        return SwiftCompiler(path: path, version: version)
    }

    /// The driver's and the frontend's device, inode, size and modification time, as one line;
    /// nil when either cannot be read.
    static func identity(of path: String) -> String? {
        guard let resolved = resolvedPath(path) else { return nil }
        var parts = [resolved]
        for file in [resolved, resolved.pathDirectory + "/swift-frontend"] {
            var info = stat()
            guard stat(file, &info) == 0 else { return nil }
            parts.append("\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
        }
        return parts.joined(separator: " ")
    }

    /// What links a bundle: the toolchain's lld when it has one beside the compiler (swift.org's
    /// toolchains do), else the compiler's default (gold). lld links a bundle of 230 objects in
    /// 0.25 s where gold takes 0.38 s, the largest part of a one-line edit's rebuild after the
    /// compile; `widgets` itself is linked by it too (Package.swift).
    public var linkerFlags: [String] {
        guard let resolved = resolvedPath(path) else { return [] }
        return access(resolved.pathDirectory + "/ld.lld", X_OK) == 0 ? ["-use-ld=lld"] : []
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
