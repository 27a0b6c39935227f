import Foundation
import Testing
import WidgetTestSupport

/// `widgets run`'s dashboard on a pseudo-terminal, as a person's terminal shows it.
@Suite struct DashboardTerminalTests {
    /// The dashboard's first frame (an empty host's hint) is drawn on the alternate screen, at once,
    /// with no resize; q leaves it and nothing of it stays on the normal screen.
    @Test func anEmptyHostsHintIsDrawnOnTheAlternateScreenAndLeftWhole() async throws {
        let home = HostHome()
        let plugins = Fixtures.temporaryDirectory("plugins")
        let terminal = try PseudoTerminal(
            Fixtures.widgetsExecutable, ["--plugins", plugins.path, "run", "--state-dir", home.state.path], environment: home.environment)
        #expect(await blocking { terminal.waitForOutput { $0.contains("No widgets yet.") && $0.contains("q quit") } }, "\(terminal.output)")
        let shown = terminal.output
        let enter = try #require(shown.range(of: "\u{1B}[?1049h"), "the alternate screen is entered: \(shown.debugDescription)")
        let hint = try #require(shown.range(of: "No widgets yet."))
        #expect(enter.upperBound <= hint.lowerBound, "nothing is drawn before the alternate screen: \(shown.debugDescription)")
        // Keys are read from the first frame on: q, typed as soon as the first frame shows, quits.
        terminal.type("q")
        #expect(await blocking { terminal.waitForExit() } == 0)
        let output = terminal.output
        let leave = try #require(output.range(of: "\u{1B}[?1049l", options: .backwards), "\(output.debugDescription)")
        #expect(!output[leave.upperBound...].contains("No widgets") && !output[leave.upperBound...].contains("q quit"), "\(output.debugDescription)")
    }
}
