import Foundation
import Testing
import WidgetTestSupport
@testable import WidgetsCommandLine

/// Inspecting as gst-inspect does, the reference made from the command table, and how much the host says.
@Suite struct InspectionTests {
    @Test func listShowsOneWidgetOneBundleOrALineEach() async {
        let plugins = Fixtures.directory(["good", "libGameWidgets.so"])
        let short = await widgets(["--plugins", plugins.path, "list", "--short"])
        #expect(short.status == 0, "\(short.standardError)")
        let lines = short.standardOutput.split(separator: "\n")
        #expect(lines.count == 5, "one line per widget: \(short.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("com.mygame.leaderboard ") && $0.contains("Leaderboard") && $0.contains("small,medium,large,rectangular") && $0.hasSuffix("libGameWidgets.so") })

        let one = await widgets(["--plugins", plugins.path, "list", "com.mygame.leaderboard"])
        #expect(one.status == 0)
        #expect(one.standardOutput.contains("- com.mygame.leaderboard  Leaderboard"))
        #expect(!one.standardOutput.contains("com.mygame.game-status"), "only that widget")
        #expect(!one.standardOutput.contains("good.so"), "only its bundle")

        let typo = await widgets(["--plugins", plugins.path, "list", "com.mygame.leaderbord"])
        #expect(typo.status == 1)
        #expect(typo.standardError.hasPrefix("widgets: error: no widget of kind \"com.mygame.leaderbord\" on the search path (did you mean com.mygame.leaderboard?)"))

        let bundle = await widgets(["list", plugins.appendingPathComponent("good.so").path])
        #expect(bundle.status == 0, "\(bundle.standardError)")
        #expect(bundle.standardOutput.hasPrefix(plugins.appendingPathComponent("good.so").path + "\n"))
        #expect(bundle.standardOutput.contains("- fixture.good"))
        #expect(!bundle.standardOutput.contains("leaderboard"))
    }

    @Test func completionsAndTheManPageNameEveryCommandAndOption() async throws {
        let bash = await widgets(["completions", "bash"])
        #expect(bash.status == 0)
        let zsh = await widgets(["completions", "zsh"])
        let fish = await widgets(["completions", "fish"])
        let man = await widgets(["man"])
        #expect(man.standardOutput.hasPrefix(".TH WIDGETS 1 "))
        for command in Command.all {
            #expect(bash.standardOutput.contains("\n    \(command.name))\n"), "bash: \(command.name)")
            #expect(zsh.standardOutput.contains("_widgets_\(command.name)() {"), "zsh: \(command.name)")
            #expect(fish.standardOutput.contains("-a \(command.name) -d "), "fish: \(command.name)")
            #expect(man.standardOutput.contains(".B \(command.name)"), "man: \(command.name)")
            for option in command.declaredOptions {
                #expect(bash.standardOutput.contains("--\(option.name)"), "bash: \(command.name) --\(option.name)")
                #expect(zsh.standardOutput.contains("--\(option.name)"), "zsh: \(command.name) --\(option.name)")
                #expect(fish.standardOutput.contains("from \(command.name)' -l \(option.name)"), "fish: \(command.name) --\(option.name)")
                #expect(man.standardOutput.contains("\\-\\-\(option.name.replacingOccurrences(of: "-", with: "\\-"))"), "man: --\(option.name)")
            }
        }
        // Each is valid for its shell (where the shell is installed), and the page renders cleanly.
        let directory = Fixtures.temporaryDirectory("reference")
        for (shell, text, flag) in [("bash", bash.standardOutput, "-n"), ("zsh", zsh.standardOutput, "-n"), ("fish", fish.standardOutput, "--no-execute")] {
            guard let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { continue }
            let file = directory.appendingPathComponent("completion.\(shell)")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let checked = await runProcess(path, [flag, file.path], environment: ["PATH": "/usr/bin:/bin"])
            #expect(checked.status == 0, "\(shell): \(checked.standardError)")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let page = directory.appendingPathComponent("widgets.1")
            try man.standardOutput.write(to: page, atomically: true, encoding: .utf8)
            let rendered = await runProcess("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", page.path], environment: ["PATH": "/usr/bin:/bin"])
            #expect(rendered.standardError.isEmpty, "\(rendered.standardError)")
        }
        let unknown = await widgets(["completions", "bsh"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.hasPrefix("widgets: no completions for 'bsh' (did you mean bash?) (shells: bash, zsh, fish)\n"))
    }

    @Test func namesOfChoicesAreTakenInAnyCaseAndTyposGetASuggestion() async throws {
        let render = try #require(Command.named("render"))
        #expect(try CLI.parse(["x", "--rendering-mode", "VIBRANT"], for: render)?.value(Options.renderingMode) == .vibrant)
        #expect(try CLI.parse(["x", "--family", "Small"], for: render)?.value(Options.family) == .systemSmall)
        let typo = await widgets(["render", "x", "--rendering-mode", "vibrnt"])
        #expect(typo.status == 2)
        #expect(typo.standardError.hasPrefix("widgets: --rendering-mode takes fullColor, accented, vibrant, not 'vibrnt' (did you mean vibrant?)\n"))
        let command = await widgets(["lsit"])
        #expect(command.standardError.hasPrefix("widgets: unknown command 'lsit' (did you mean list?)"))
    }

    @Test func theHostSaysAsMuchAsItsLevelAsksWithJournalPriorities() throws {
        let lines = LockedList<String>()
        let problems = LockedList<String>()
        let log = LogLines(threshold: .info, toJournal: true, write: { lines.append($0) }, writeProblem: { problems.append($0) })
        log(.debug, "widgets: debug: a timeline asked for")
        log(.info, "widgets: hosting 3 instance(s)")
        log(LogLines.level(of: "warning: a refusal"), "widgets: warning: a refusal")
        log(LogLines.level(of: "error: a failure"), "widgets: error: a failure")
        #expect(lines.values == ["<6>widgets: hosting 3 instance(s)"])
        #expect(problems.values == ["<4>widgets: warning: a refusal", "<3>widgets: error: a failure"])
        let quiet = LogLines(threshold: .warning, toJournal: false, write: { lines.append($0) }, writeProblem: { problems.append($0) })
        quiet(.info, "not shown")
        #expect(!lines.values.contains("not shown"))
        #expect(!LogLines.standardOutputIsJournal(["JOURNAL_STREAM": "1:2"]), "a stream that is not standard output's")

        let run = try #require(Command.named("run"))
        #expect(try CLI.parse(["-v"], for: run)?.logLevel(environment: [:]) == .debug)
        #expect(try CLI.parse(["--quiet"], for: run)?.logLevel(environment: [:]) == .warning)
        #expect(try CLI.parse([], for: run)?.logLevel(environment: ["WIDGETS_LOG": "ERROR"]) == .error)
        #expect(try CLI.parse([], for: run)?.logLevel(environment: [:]) == .info)
        #expect(throws: UsageError.self) { try CLI.parse([], for: run)?.logLevel(environment: ["WIDGETS_LOG": "loud"]) }
        #expect(throws: UsageError.self) { try CLI.parse(["-v", "-q"], for: run)?.logLevel(environment: [:]) }
    }
}
