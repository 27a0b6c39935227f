import Foundation

/// A virtual X server for tests of the X11 desktop window: `Xvfb` (one 800 × 600 screen, 24 bits),
/// on a display number it chooses itself (`-displayfd`), and `xdotool` for clicks.
public final class VirtualX: @unchecked Sendable {
    /// Why it cannot run here, or nil when it can.
    public static var unavailable: String? {
        for program in ["Xvfb", "xdotool"] where HeadlessSway.path(of: program) == nil {
            return "\(program) is not installed (apt-get install xvfb xdotool; .ci/run installs them)"
        }
        return nil
    }

    private let process: ChildProcess
    /// DISPLAY's value for it (`:N`).
    public let display: String

    /// `depth`: the screen's (24, or 16 for a server whose pixels this does not draw); `composite`:
    /// whether it has the Composite extension, which brings the 32-bit visual.
    public init(depth: Int = 24, composite: Bool = true) throws {
        // Its display number, on a line of its own, once it accepts connections.
        let said: String
        (process, said) = try ChildProcess.startAndRead(
            HeadlessSway.path(of: "Xvfb")!,
            ["-displayfd", "1", "-screen", "0", "800x600x\(depth)", "-nolisten", "tcp"] + (composite ? [] : ["-extension", "Composite"]), name: "Xvfb"
        ) { $0.contains("\n") }
        display = ":" + said.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit { stop() }

    /// Killed: it keeps nothing to save.
    public func stop() {
        process.signal(SIGKILL)
        process.waitForExit()
    }

    /// A left click at a point of the screen.
    public func click(x: Int, y: Int) throws {
        _ = try HeadlessSway.run(HeadlessSway.path(of: "xdotool")!, ["mousemove", "\(x)", "\(y)", "click", "1"], environment: ["DISPLAY": display])
    }
}
