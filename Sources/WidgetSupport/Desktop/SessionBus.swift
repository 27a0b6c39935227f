import FoundationEssentials

/// The user's session D-Bus, reached through `busctl` (systemd's): a method call, its answer as
/// busctl prints it (`u 7`), or why not. Nothing of D-Bus is linked: a desktop without busctl or
/// without a session bus is told so, in one line.
package enum SessionBus {
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
        package init(description: String) { self.description = description }
    }

    /// busctl on `PATH`, if any.
    package static func busctl(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        Subprocess.find("busctl", environment: environment)
    }

    /// Calls `method` of `interface` on `destination` at `path`, its arguments as busctl takes them
    /// after their `signature`; waits `timeout` seconds at most.
    package static func call(
        _ destination: String, path: String, interface: String, method: String, signature: String, arguments: [String], timeout: Int = 2,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Result<String, Failure> {
        let busctl: String
        switch reachable(environment: environment) {
        case .success(let path): busctl = path
        case .failure(let failure): return .failure(failure)
        }
        let outcome: Subprocess.Outcome
        do {
            // After "--", an argument starting with "-" ("-3 laps") is one, not an option.
            let arguments = ["--user", "--timeout=\(timeout)", "--", "call", destination, path, interface, method] + (signature.isEmpty ? [] : [signature]) + arguments
            outcome = try Subprocess(busctl, arguments, environment: environment).finish()
        } catch {
            return .failure(Failure(description: error.description))
        }
        let said = String(decoding: outcome.output, as: UTF8.self).trimmingSpacesAndNewlines
        guard outcome.status == 0 else {
            let reason = String(decoding: outcome.errors, as: UTF8.self).trimmingSpacesAndNewlines
            return .failure(Failure(description: "\(destination) \(method): \(reason.isEmpty ? "busctl exited with status \(outcome.status)" : reason)"))
        }
        return .success(said)
    }

    /// Watches the bus for the messages `match` selects: `busctl --json=short monitor`, each message
    /// a line of JSON on its output; or why it cannot.
    package static func monitor(match: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<Subprocess, Failure> {
        switch reachable(environment: environment) {
        case .failure(let failure): return .failure(failure)
        case .success(let busctl):
            do {
                return .success(try Subprocess(busctl, ["--user", "--json=short", "monitor", "--match=" + match], environment: environment))
            } catch {
                return .failure(Failure(description: error.description))
            }
        }
    }

    /// busctl, when there is a session bus to reach with it.
    private static func reachable(environment: [String: String]) -> Result<String, Failure> {
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil || environment["XDG_RUNTIME_DIR"] != nil else {
            return .failure(Failure(description: "no session bus (neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set)"))
        }
        guard let busctl = busctl(environment: environment) else {
            return .failure(Failure(description: "busctl is not installed (Debian's systemd package has it)"))
        }
        return .success(busctl)
    }
}
