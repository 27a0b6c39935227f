import Foundation

/// The user's session D-Bus, reached through `busctl` (systemd's): a method call, its answer as
/// busctl prints it (`u 7`), or why not. Nothing of D-Bus is linked: a desktop without busctl or
/// without a session bus is told so, in one line.
package enum SessionBus {
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// busctl on `PATH`, if any.
    package static func busctl(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/busctl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Calls `method` of `interface` on `destination` at `path`, its arguments as busctl takes them
    /// after their `signature`; waits `timeout` seconds at most.
    package static func call(
        _ destination: String, path: String, interface: String, method: String, signature: String, arguments: [String], timeout: Int = 2,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Result<String, Failure> {
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil || environment["XDG_RUNTIME_DIR"] != nil else {
            return .failure(Failure(description: "no session bus (neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set)"))
        }
        guard let busctl = busctl(environment: environment) else {
            return .failure(Failure(description: "busctl is not installed (Debian's systemd package has it)"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: busctl)
        // After "--", an argument starting with "-" ("-3 laps") is one, not an option.
        process.arguments = ["--user", "--timeout=\(timeout)", "--", "call", destination, path, interface, method] + (signature.isEmpty ? [] : [signature]) + arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return .failure(Failure(description: "cannot run \(busctl): \(error.localizedDescription)")) }
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let reason = complaint.trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure(Failure(description: "\(destination) \(method): \(reason.isEmpty ? "busctl exited with status \(process.terminationStatus)" : reason)"))
        }
        return .success(said.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
