import Foundation
import Testing
import WidgetTestSupport
import WidgetABI
import WidgetHost
import WidgetWire
@testable import WidgetsCommandLine

/// The `widgets` executable, run as a user runs it.
@Suite struct CommandLineTests {
    @Test func helpListsEveryCommandOfTheTableAndEachCommandHasHelp() async {
        /// Text with its line breaks and runs of spaces as single spaces: help wraps where it must.
        func flat(_ text: String) -> String { text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ") }
        let help = await widgets(["--help"])
        #expect(help.status == 0)
        let names = Command.all.map { $0.name }
        #expect(Set(names).count == names.count, "no command is listed twice")
        // Not a terminal: wrapped at 80 columns.
        #expect(help.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(help.standardOutput)")
        for command in Command.all {
            #expect(help.standardOutput.contains("\n  \(command.name)  "), "\(command.name) and its summary stand apart")
            #expect(flat(help.standardOutput).contains(flat(command.summary)))
            let commandHelp = await widgets([command.name, "--help"])
            #expect(commandHelp.status == 0, "\(command.name)")
            #expect(flat(commandHelp.standardOutput).hasPrefix(flat("\(command.summary)\n\nUsage: \(command.usage)")), "\(command.name)")
            #expect(commandHelp.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(command.name): \(commandHelp.standardOutput)")
            for option in command.declaredOptions {
                #expect(commandHelp.standardOutput.contains("  \(option.synopsis)"), "\(command.name) --\(option.name)")
            }
            let viaHelp = await widgets(["help", command.name])
            #expect(viaHelp.standardOutput == commandHelp.standardOutput)
        }
    }

    /// Help fills paragraphs to the width, and an option's description hangs under its own column.
    @Test func helpIsWrappedAtTheWidthWithAHangingIndent() {
        #expect(HelpText.fill("one two three four five six", width: 10) == "one two\nthree four\nfive six")
        #expect(HelpText.fill("a b\n\nc", width: 10) == "a b\n\nc")
        #expect(HelpText.columns([("--web", "serve the home screen in a browser")], width: 30) == "  --web  serve the home screen\n         in a browser")
        // A name too wide for the column (a third of the width at most) has its description below.
        let wide = HelpText.columns([("--a-very-long-option-name VALUE", "what it does")], width: 40)
        #expect(wide == "  --a-very-long-option-name VALUE\n" + String(repeating: " ", count: 20) + "what it does")
    }

    @Test func everyOptionACommandDeclaresParsesWithAValidValue() throws {
        // Each command with every option it declares given a valid value, and its required arguments.
        // (Reading an option a command does not declare stops it at once, with a precondition.)
        for command in Command.all {
            var arguments = command.arguments.filter { !$0.hasPrefix("[") }.map { _ in "x" }
            for option in command.declaredOptions {
                arguments.append("--\(option.name)")
                if !option.isFlag { arguments.append(option.choices.first ?? (["memory-limit", "link", "button", "scale", "margin", "columns", "stale-in", "relevance", "dismissal"].contains(option.name) ? "1" : option.name == "web" ? "127.0.0.1:0" : ["attributes", "state"].contains(option.name) ? "{}" : ["activities", "controls"].contains(option.name) || (command.name, option.name) == ("control", "set") ? "on" : "x")) }
            }
            let invocation = try #require(try CLI.parse(arguments[...], for: command), "\(command.name)")
            #expect(invocation.positionals.count == command.requiredArguments)
        }
    }

    @Test func versionNamesTheReleaseTheABIAndTheCompiler() async {
        let version = await widgets(["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput == "widgets \(WidgetsRelease.version) (ABI 1.7, worker protocol 3, built with \(Toolchain.current))\n")
    }

    @Test func aLoadDeadlineThatIsNotANumberOfSecondsIsAUsageError() async {
        let result = await widgets(["--plugins", Fixtures.directory(["good"]).path, "list"], extraEnvironment: ["WIDGETS_LOAD_DEADLINE": "soon"])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("widgets: WIDGETS_LOAD_DEADLINE takes a number of seconds above 0 and at most 3600, not 'soon'\n"))
    }

    @Test func anIdlePeriodThatIsNotANumberOfSecondsIsAUsageError() async {
        let result = await widgets(["--plugins", Fixtures.directory(["good"]).path, "list"], extraEnvironment: ["WIDGETS_WORKER_IDLE": "0.5"])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("widgets: WIDGETS_WORKER_IDLE takes a number of seconds from 1 to 86400, or never, not '0.5'\n"))
        let never = await widgets(["--plugins", Fixtures.directory(["good"]).path, "list", "--short"], extraEnvironment: ["WIDGETS_WORKER_IDLE": "never"])
        #expect(never.status == 0, "\(never.standardError)")
        let release = await widgets(["--plugins", Fixtures.directory(["good"]).path, "list"], extraEnvironment: ["WIDGETS_WORKER_RELEASE": "soon"])
        #expect(release.status == 2)
        #expect(release.standardError.hasPrefix("widgets: WIDGETS_WORKER_RELEASE takes a number of seconds from 0.1 to 86400, or never, not 'soon'\n"))
        let kept = await widgets(["--plugins", Fixtures.directory(["good"]).path, "list", "--short"], extraEnvironment: ["WIDGETS_WORKER_RELEASE": "never"])
        #expect(kept.status == 0, "\(kept.standardError)")
    }

    @Test func usageErrorsExitWithCodeTwoAndSayWhatToType() async {
        let unknownCommand = await widgets(["frobnicate"])
        #expect(unknownCommand.status == 2)
        #expect(unknownCommand.standardError.hasPrefix("widgets: unknown command 'frobnicate' (commands: \(Command.all.map(\.name).joined(separator: ", ")), help)\n"))
        let unknownOption = await widgets(["list", "--verbos"])
        #expect(unknownOption.status == 2)
        #expect(unknownOption.standardError == "widgets: unknown option '--verbos' for 'widgets list' (did you mean --verbose?)\nRun 'widgets list --help' for its usage.\n")
        let missing = await widgets(["timeline"])
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("widgets: 'widgets timeline' needs KIND or --instance ID\n"))
        let extra = await widgets(["load", "a.so", "b.so"])
        #expect(extra.status == 2)
        let family = await widgets(["snapshot", "x", "--family", "huge"])
        #expect(family.status == 2)
        #expect(family.standardError.hasPrefix("widgets: unknown family 'huge' (families: systemSmall, systemMedium, systemLarge, systemExtraLarge, accessoryCircular, accessoryRectangular, accessoryInline)\n"))
        #expect(await widgets(["--plugins"]).status == 2)
    }

    @Test func listPrintsGoodBundlesAndOneLinePerRefusalWithExitCodeOne() async {
        let directory = Fixtures.directory(["good", "abi-major-2"])
        let result = await widgets(["--plugins", directory.path, "list"])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("  - fixture.good  Fixture\n"))
        #expect(
            result.standardError
                == "widgets: error: \(directory.path)/abi-major-2.so: ABI version 2.7 is not supported: this host speaks ABI 1.7 (major versions must match)\n")
    }

    @Test func listJSONDescribesBundlesWidgetsAndProblems() async throws {
        let directory = Fixtures.directory(["good", "init-fails"])
        let result = await widgets(["list", "--json", "--plugins", directory.path])
        #expect(result.status == 1)
        let json = try JSONValue.parse(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(json["searchPath"] == .array([.string(directory.path)]))
        let bundle = try #require(json["bundles"]?.arrayValue?.first)
        #expect(bundle["abiVersion"] == .string("1.7"))
        let widget = try #require(bundle["widgets"]?.arrayValue?.first)
        #expect(widget["kind"] == .string("fixture.good"))
        #expect(widget["families"] == .array([.string("systemSmall"), .string("systemMedium")]))
        #expect(widget["configuration"] == .string("static"))
        let problem = try #require(json["problems"]?.arrayValue?.first)
        #expect(problem["reason"] == .string("initializationFailed"))
        #expect(problem["path"] == .string("\(directory.path)/init-fails.so"))
    }

    @Test func loadPrintsWhatABundleRegistersOrWhyItIsRefused() async {
        let good = await widgets(["load", Fixtures.path("good")])
        #expect(good.status == 0)
        #expect(good.standardOutput.hasPrefix("\(Fixtures.path("good"))\n  Fixture (ABI 1.7, c): 1 widget\n  - fixture.good"))
        let refused = await widgets(["load", Fixtures.path("no-entry")])
        #expect(refused.status == 1)
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError.hasPrefix("widgets: error: \(Fixtures.path("no-entry")): no widget_bundle_entry symbol"))
        let missing = await widgets(["load", "/nonexistent/x.so"])
        #expect(missing.status == 1)
        #expect(missing.standardError == "widgets: error: /nonexistent/x.so: cannot read: No such file or directory\n")
    }

    @Test func unreadableBundleIsRefusedWithTheSystemsReason() async throws {
        let directory = Fixtures.directory(["good"])
        let file = directory.appendingPathComponent("good.so").path
        chmod(file, 0o600)
        let result: ProcessResult
        if getuid() == 0 {
            // root reads everything: run the CLI as nobody, for whom the file (root's, 0600) is unreadable.
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_DATA_HOME"] = "/nonexistent"
            environment["SWIFT_BACKTRACE"] = nil  // see WidgetsDirectories
            result = await runProcess(
                "/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", Fixtures.widgetsExecutable, "load", file],
                environment: environment)
        } else {
            chmod(file, 0o000)
            result = await widgets(["load", file])
        }
        #expect(result.status == 1)
        #expect(result.standardError == "widgets: error: \(file): cannot read: Permission denied\n")
    }

    @Test func missingBundleDirectoryIsAnEmptyListWithAHint() async {
        let result = await widgets(["--plugins", "/nonexistent/widgets.d", "list"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("No widgets found. Searched: /nonexistent/widgets.d."))
        #expect(result.standardError == "widgets: hint: /nonexistent/widgets.d does not exist; create it and drop bundles (.so) in\n")
    }

    /// A file name carrying escape sequences (retitle the terminal, recolour it) is shown, never
    /// obeyed: in tables, in what load prints, and in problems.
    @Test func escapeSequencesInFileNamesAreShownNotSentToTheTerminal() async throws {
        let name = "evil\u{1B}]0;pwned\u{07}\u{1B}[31m.so"
        let plugins = Fixtures.directory([name: "good"])
        let listed = await widgets(["--plugins", plugins.path, "list", "--short"])
        let loaded = await widgets(["load", plugins.appendingPathComponent(name).path])
        chmod(plugins.path, 0o777)
        defer { chmod(plugins.path, 0o755) }
        let refused = await widgets(["--plugins", plugins.path, "load", plugins.appendingPathComponent(name).path])
        for result in [listed, loaded, refused] {
            let text = result.standardOutput + result.standardError
            #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(text.debugDescription)")
        }
        #expect(listed.standardOutput.contains(#"evil\x1B]0;pwned\x07\x1B[31m.so"#), "\(listed.standardOutput)")
        #expect(loaded.standardOutput.contains(#"evil\x1B]0;pwned\x07\x1B[31m.so"#), "\(loaded.standardOutput)")
    }

    @Test func searchPathComesFromWidgetsPathInOrder() async {
        let first = Fixtures.directory(["b.so": "named-by-file"])
        let second = Fixtures.directory(["a.so": "named-by-file"])
        let result = await widgets(["list", "--json"], extraEnvironment: ["WIDGETS_PATH": "\(first.path):\(second.path)"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("\"searchPath\":[\"\(first.path)\",\"\(second.path)\"]"))
        let kinds = result.standardOutput.components(separatedBy: "\"kind\":\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(kinds == ["fixture.b", "fixture.a"])
    }

    @Test func defaultSearchPathFindsTheProjectsWidgetsDirectoryAboveTheWorkingDirectory() async throws {
        let project = Fixtures.temporaryDirectory("project")
        let plugins = project.appendingPathComponent("widgets.d")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: Fixtures.path("good"), toPath: plugins.appendingPathComponent("good.so").path)
        let nested = project.appendingPathComponent("Sources/deep")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let result = await widgets(["list"], directory: nested)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("\(plugins.path)/good.so\n"))
    }

    @Test func timelineJSONHasEntriesPolicyAndText() async throws {
        let directory = Fixtures.directory(["good"])
        let result = await widgets(["--plugins", directory.path, "timeline", "fixture.good", "--json", "--family=systemMedium"])
        #expect(result.status == 0)
        let json = try JSONValue.parse(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(json["family"] == .string("systemMedium"))
        #expect(json["policy"]?["kind"] == .string("after"))
        #expect(json["policy"]?["date"] == .string("2025-11-21T18:48:20Z"))
        let entry = try #require(json["entries"]?.arrayValue?.first)
        #expect(entry["date"] == .string("2025-11-21T18:33:20Z"))
        #expect(entry["text"] == .string("fixture.good\ntimeline family 1 preview 0 size 338x158"))
        #expect(entry["relevance"]?["score"] == .number(0.5))
    }

    @Test func failedRequestExitsOneWithOneLineNamingTheWidget() async {
        let directory = Fixtures.directory(["behaviours"])
        let result = await widgets(["--plugins", directory.path, "snapshot", "fixture.error"])
        #expect(result.status == 1)
        #expect(result.standardError == "widgets: error: widget \"fixture.error\" (behaviours.so): snapshot failed: the server is down\n")
        let unknown = await widgets(["--plugins", directory.path, "timeline", "nope"])
        #expect(unknown.status == 1)
    }

    @Test func statsExercisesEveryProviderAndReportsMemoryAndFailures() async throws {
        let directory = Fixtures.directory(["good", "init-fails"])
        let result = await widgets(["--plugins", directory.path, "stats", "--json", "--memory-limit", "25"])
        #expect(result.status == 0, "a refused neighbour is a warning: \(result.standardError)")
        let rows = try #require(JSONValue.parse(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)).arrayValue)
        #expect(rows.count == 1)
        #expect(rows[0]["kind"] == .string("fixture.good"))
        #expect(rows[0]["calls"] == .number(3))
        #expect(rows[0]["failures"] == .number(0))
        #expect(rows[0]["peakBytes"]?.numberValue != nil, "the CLI embeds the memory guard")
        #expect(rows[0]["memoryLimit"] == .number(25 * 1_048_576))

        let text = await widgets(["--plugins", Fixtures.directory(["good"]).path, "stats"])
        #expect(text.standardOutput.hasPrefix("provider      bundle   calls  failures    live    peak    limit  terminated  crashes  time in calls\n"))
        #expect(
            text.standardOutput.hasSuffix(
                "process isolation: each bundle in a worker process; memory limit per provider 30.0 MB (a bundle may set a lower one), enforced by ending the worker\n"
            ))
        let queue = await widgets(["--plugins", Fixtures.directory(["good"]).path, "stats", "--isolation", "queue"])
        #expect(queue.standardOutput.hasSuffix("queue isolation: all bundles in this process; memory limit per provider 30.0 MB (a bundle may set a lower one)\n"))

        let bad = await widgets(["stats", "--memory-limit", "lots"])
        #expect(bad.status == 2)
        #expect(bad.standardError.hasPrefix("widgets: --memory-limit takes a number of megabytes above 0, not 'lots'\n"))
    }

    /// A request reports the refusals known when it answers (the host's own checks come first, and
    /// a neighbour's worker may or may not have reported by then), as warnings; it does not wait for
    /// other bundles' workers to say more. `widgets list` waits for them all.
    @Test func refusedNeighbourIsAWarningForRequestsNotAFailure() async throws {
        let directory = Fixtures.directory(["good", "no-family"])
        try Data("not a bundle".utf8).write(to: directory.appendingPathComponent("broken.so"))
        let result = await widgets(["--plugins", directory.path, "placeholder", "fixture.good"])
        #expect(result.status == 0)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "widgets: warning: \(directory.path)/broken.so: not a shared object (no ELF header)")
        #expect(lines.dropFirst().allSatisfy { $0 == "widgets: warning: \(directory.path)/no-family.so: widget \"fixture.no-family\" supports no family" }, "\(lines)")
        let listed = await widgets(["--plugins", directory.path, "list"])
        #expect(listed.status == 1)
        #expect(listed.standardError.contains("no-family.so: widget \"fixture.no-family\" supports no family"))
    }

    /// Output that cannot be written (a full disk) is an error, not success with the output lost.
    @Test func outputThatCannotBeWrittenFailsTheCommand() async throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"))
        let full = await runProcess("/bin/sh", ["-c", "exec \"$0\" --version > /dev/full", Fixtures.widgetsExecutable], environment: widgetsEnvironment())
        #expect(full.status == 74)
        #expect(full.standardError.contains("widgets: error: cannot write the output: No space left on device"), "\(full.standardError)")
        let written = await runProcess("/bin/sh", ["-c", "exec \"$0\" --version > /dev/null", Fixtures.widgetsExecutable], environment: widgetsEnvironment())
        #expect(written.status == 0 && written.standardError.isEmpty)
    }
}
