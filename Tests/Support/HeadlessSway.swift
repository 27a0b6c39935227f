import Foundation
import WidgetSupport

/// A headless wlroots compositor for tests of the desktop surface: sway with no screen and software
/// rendering (`WLR_BACKENDS=headless WLR_RENDERER=pixman`), one 800 × 600 output, and `grim` for its
/// screenshots. Or one nested in another (`init(nestedIn:)`), whose outputs are windows the other
/// tiles (two share its 800 × 600 side by side). sway refuses to run as root: run by root (CI), it runs as the user `widgets-test`
/// (which `.ci/run` makes), in a runtime directory of that user's; the test itself, root, reaches its
/// socket by its path.
public final class HeadlessSway: @unchecked Sendable {
    /// The user sway runs as when the tests run as root.
    public static let testUser = ProcessInfo.processInfo.environment["WIDGETS_TEST_USER"] ?? "widgets-test"

    /// Why sway cannot run here, or nil when it can.
    public static var unavailable: String? {
        for program in ["sway", "grim", "swaymsg"] where path(of: program) == nil {
            return "\(program) is not installed (apt-get install sway grim; .ci/run installs them)"
        }
        if getuid() == 0, getpwnam(testUser) == nil {
            return "sway refuses to run as root, and there is no user \(testUser) to run it as (useradd \(testUser); .ci/run makes it)"
        }
        return nil
    }

    static func path(of program: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(program)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public let runtime: URL
    private let process: ChildProcess
    private let log: URL

    /// The compositor's socket, by path (WAYLAND_DISPLAY's form).
    public var waylandDisplay: String {
        let name = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path))?.sorted()
            .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") } ?? "wayland-1"
        return runtime.appendingPathComponent(name).path
    }

    /// `nestedIn`: a sway whose outputs are windows of another (`WLR_BACKENDS=wayland`), named WL-1,
    /// WL-2…: closing such a window in the other unplugs the output, which sway 1.7 cannot do to a
    /// headless one.
    public init(nestedIn parent: HeadlessSway? = nil) throws {
        runtime = Fixtures.temporaryDirectory("sway-runtime")
        log = runtime.appendingPathComponent("sway.log")
        let config = runtime.appendingPathComponent("config")
        let outputs = parent == nil ? "output HEADLESS-1 resolution 800x600 position 0 0\n" : ""
        try (outputs + "default_border none\n").write(to: config, atomically: true, encoding: .utf8)
        var environment = [
            "HOME": runtime.path, "XDG_RUNTIME_DIR": runtime.path, "WLR_BACKENDS": parent == nil ? "headless" : "wayland", "WLR_RENDERER": "pixman",
            "WLR_LIBINPUT_NO_DEVICES": "1", "PATH": "/usr/local/bin:/usr/bin:/bin",
        ]
        if let parent { environment["WAYLAND_DISPLAY"] = parent.waylandDisplay }
        environment["LANG"] = "C.UTF-8"
        var command = [Self.path(of: "sway")!, "-c", config.path]
        if getuid() == 0 {
            guard let user = getpwnam(Self.testUser) else { throw SwayError("no user \(Self.testUser)") }
            guard chown(runtime.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0, chmod(runtime.path, 0o700) == 0 else {
                throw SwayError("cannot give \(runtime.path) to \(Self.testUser)")
            }
            _ = chown(config.path, user.pointee.pw_uid, user.pointee.pw_gid)
            command = ["/usr/sbin/runuser", "-u", Self.testUser, "--"] + command
        }
        let output = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw SwayError("cannot write \(log.path): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        process = try ChildProcess(command[0], Array(command.dropFirst()), environment: environment, standardOutput: output, standardError: output)
        // Ready when its IPC socket is there (made after the Wayland one and the outputs).
        let giveUp = Date().addingTimeInterval(20)
        while ipcSocket == nil {
            guard process.isRunning, Date() < giveUp else {
                throw SwayError("sway did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            usleep(20_000)
        }
    }

    deinit { stop() }

    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitForExit()
    }

    var ipcSocket: String? {
        (try? FileManager.default.contentsOfDirectory(atPath: runtime.path))?.first { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }
            .map { runtime.appendingPathComponent($0).path }
    }

    /// The environment a client of this compositor is given.
    public var clientEnvironment: [String: String] {
        ["WAYLAND_DISPLAY": waylandDisplay, "SWAYSOCK": ipcSocket ?? ""]
    }

    /// `swaymsg COMMAND…`; its output, or the error it printed.
    @discardableResult
    public func message(_ arguments: [String]) throws -> String {
        try Self.run(Self.path(of: "swaymsg")!, arguments, environment: clientEnvironment)
    }

    /// A screenshot of an output (all of them when nil), as PNG bytes.
    public func screenshot(output: String? = nil) throws -> [UInt8] {
        let file = runtime.appendingPathComponent("shot-\(UUID().uuidString).png")
        _ = try Self.run(Self.path(of: "grim")!, (output.map { ["-o", $0] } ?? []) + [file.path], environment: clientEnvironment)
        defer { try? FileManager.default.removeItem(at: file) }
        return Array(try Data(contentsOf: file))
    }

    static func run(_ program: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let outcome = try Subprocess(program, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }).finish()
        let said = String(decoding: outcome.output + outcome.errors, as: UTF8.self)
        guard outcome.status == 0 else { throw SwayError("\(program.split(separator: "/").last!) \(arguments.joined(separator: " ")): \(said)") }
        return said
    }
}

public struct SwayError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
