import Foundation

/// Runs the tools a build uses (`swiftc`, `swift package`), their diagnostics passed through to the
/// user as the tool writes them, or captured.
public struct ProcessRunner: Sendable {
    /// Whether a tool's output goes to this process's standard error as it comes (else it is
    /// captured and returned).
    public var passesOutputThrough: Bool
    /// Called with each command before it runs (`--verbose`).
    public var echo: (@Sendable (String) -> Void)?

    public init(passesOutputThrough: Bool = true, echo: (@Sendable (String) -> Void)? = nil) {
        self.passesOutputThrough = passesOutputThrough
        self.echo = echo
    }

    public struct Outcome: Sendable {
        public var status: Int32
        public var output: String
    }

    /// Runs `executable` with `arguments`; its standard output is always captured (a tool's answer),
    /// its standard error passed through or captured into `output` too.
    public func run(_ executable: String, _ arguments: [String], directory: String? = nil) throws(BuildError) -> Outcome {
        echo?(([executable] + arguments).map(Self.quoted).joined(separator: " "))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = passesOutputThrough ? FileHandle.standardError : errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BuildError("cannot run \(executable): \(error.localizedDescription)")
        }
        // Both pipes are read while it runs, so that neither fills and stops it.
        nonisolated(unsafe) var errorText = Data()
        let done = DispatchSemaphore(value: 0)
        if passesOutputThrough {
            done.signal()
        } else {
            Thread.detachNewThread {
                errorText = errors.fileHandleForReading.readDataToEndOfFile()
                done.signal()
            }
        }
        let standardOutput = output.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        let text = String(decoding: standardOutput, as: UTF8.self) + String(decoding: errorText, as: UTF8.self)
        return Outcome(status: process.terminationStatus, output: text)
    }

    static func quoted(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { " \"'$\\#&;|<>()*?".contains($0) }) else { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The first executable of that name on `PATH`.
    public static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = String(directory) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
