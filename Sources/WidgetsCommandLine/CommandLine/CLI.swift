import FoundationEssentials
import Glibc
import WidgetABI
import WidgetHost
import WidgetSupport

/// The `widgets` command line: global options, the command, its options and arguments, dispatched
/// through the table of commands. The `widgets` executable is this library and a `main.swift`, so
/// tests import the library rather than an executable's main module.
public enum CLI {
    /// Options every command takes, shown at the end of each command's help.
    static let globalOptions: [OptionSpec] = [Options.help.spec, Options.verbose.spec, Options.quiet.spec, Options.noCache.spec]

    /// The flags every command takes, before or after its name (`-v`, `--verbose`, `-q`, `--quiet`,
    /// `--no-cache`), by the name they are read under.
    static func globalFlag(_ argument: String) -> String? {
        switch argument {
        case "-v", "--verbose": Options.verbose.spec.name
        case "-q", "--quiet": Options.quiet.spec.name
        case "--no-cache": Options.noCache.spec.name
        default: nil
        }
    }

    /// `widgets --version`: the release, the ABI it speaks, the worker protocol and the compiler.
    static var version: String {
        "widgets \(WidgetsRelease.version) (ABI \(ABIVersion.current), worker protocol \(WidgetsRelease.workerProtocol), built with \(Toolchain.current))"
    }

    static func overview(width: Int = HelpText.width) -> String {
        let list = HelpText.columns(Command.all.map { ($0.name, $0.summary) }, width: width)
        let installed = BundleSearchPath.installedDirectory(executable: BundleSearchPath.runningExecutable) ?? "PREFIX/lib/widgets/widgets.d"
        let closing = HelpText.fill(
            """
            Bundles are shared objects (.so) in widgets.d/ directories: --plugins DIR, else the directories of \
            WIDGETS_PATH (colon-separated), else ./widgets.d (the nearest one above the working directory), \
            $XDG_DATA_HOME/widgets/widgets.d, then the installed \(installed). -v and -q (or \
            WIDGETS_LOG=debug|info|warning|error) set how much the host says. Run 'widgets COMMAND --help' for a \
            command's options.
            """, width: width)
        return """
            widgets: host and inspect WidgetKit-style widget bundles on Linux.

            Usage: widgets [--plugins DIR] [-v|-q] COMMAND [options] [arguments]
                   widgets --version

            Commands:
            \(list)

            \(closing)
            """
    }

    /// A command's exit status, or 74 (EX_IOERR) when it succeeded but its output could not all be
    /// written (said on standard error).
    private static func exitStatus(of code: ExitCode) -> Int32 {
        let status = code.rawValue
        let error = Output.writeFailed.load(ordering: .relaxed)
        guard error != 0 else { return status }
        Output.write("widgets: error: cannot write the output: \(errnoText(error))\n", to: STDERR_FILENO)
        return status == 0 ? 74 : status
    }

    /// How a command line starts: done already (help, a usage error) or run here without tasks
    /// (`Command.withoutTasks`: the desktop), with its exit status; or to be performed as a task.
    public enum Start {
        case status(Int32)
        case task(@Sendable () async -> Int32)
    }

    /// Reads the command line once, on the calling thread (the main thread, before any task), and
    /// runs there a command that runs without tasks.
    public static func start(_ arguments: [String]) -> Start {
        let output = Output()
        switch prepare(arguments, output: output) {
        case .done(let code): return .status(exitStatus(of: code))
        case .command(let command, let invocation):
            guard let withoutTasks = command.withoutTasks else {
                return .task {
                    do {
                        return exitStatus(of: try await command.action(invocation))
                    } catch {
                        return exitStatus(of: failure(error, output))
                    }
                }
            }
            do {
                return .status(exitStatus(of: try withoutTasks(invocation)))
            } catch {
                return .status(exitStatus(of: failure(error, output)))
            }
        }
    }

    /// A command's error: a usage error with a pointer to its help, any other as one line.
    private static func failure(_ error: any Error, _ output: Output) -> ExitCode {
        if let error = error as? UsageError { return usage(error, output) }
        output.standardError("widgets: error: \(error)")
        return .failure
    }

    /// What a command line asks: done already (help, a usage error), or a command to run.
    enum Prepared {
        case done(ExitCode)
        case command(Command, Invocation)
    }

    /// The command line read: its global options, its command and the command's options.
    static func prepare(_ arguments: [String], output: Output) -> Prepared {
        var rest = arguments[...]
        var global: [String: [String]] = [:]
        // Global options come before the command.
        while let first = rest.first, first.hasPrefix("-") {
            rest.removeFirst()
            switch first {
            case "-h", "--help":
                output.standardOutput(overview())
                return .done(.success)
            case "--version":
                output.standardOutput(version)
                return .done(.success)
            case "--plugins":
                guard let value = rest.popFirst() else { return .done(usage(UsageError(message: "option '--plugins' needs a value", command: nil), output)) }
                global[Options.plugins.spec.name, default: []].append(value)
            case let option where option.hasPrefix("--plugins="):
                global[Options.plugins.spec.name, default: []].append(String(option.dropFirst("--plugins=".count)))
            case let option where globalFlag(option) != nil:
                global[globalFlag(option)!] = [""]
            default:
                let known = ["--version", "--plugins"] + globalOptions.map { "--\($0.name)" }
                return .done(usage(UsageError(message: "unknown option '\(first)'\(Suggestion.hint(for: first, among: known))", command: nil), output))
            }
        }
        guard let name = rest.popFirst() else {
            output.standardOutput(overview())
            return .done(.usage)
        }
        if name == "help" {
            guard let topic = rest.first else {
                output.standardOutput(overview())
                return .done(.success)
            }
            guard let command = Command.named(topic) else { return .done(usage(unknownCommand(topic), output)) }
            output.standardOutput(command.help())
            return .done(.success)
        }
        guard let command = Command.named(name) else { return .done(usage(unknownCommand(name), output)) }
        do {
            // After the command, --plugins is offered only by those it has an effect on; before it,
            // every command takes it (scripts set it for all) and those that load no bundles ignore it.
            let plugins = Options.plugins.spec.name
            guard let invocation = try parse(rest, for: command, global: command.declares(plugins) ? global : global.filter { $0.key != plugins }, output: output) else {
                output.standardOutput(command.help())
                return .done(.success)
            }
            // The host library's lines as -v, -q or WIDGETS_LOG say, and a bundle's `Logger` in this
            // process (queue isolation) likewise: it reads WIDGETS_LOG, which -v and -q then replace.
            // No bundle is loaded yet.
            HostLog.threshold = try invocation.logLevel()
            if invocation.isSet(Options.verbose) || invocation.isSet(Options.quiet) { setenv("WIDGETS_LOG", HostLog.threshold.name, 1) }
            // Bundles loaded into this process need the shared Swift runtime, which the statically
            // linked `widgets` has not: its companion, the same program with it, runs the command.
            if case .queue = try invocation.valueIfDeclared(Options.isolation), !SwiftRuntime.isShared {
                output.standardError("widgets: error: --isolation queue: \(SwiftRuntime.becomeCompanion(arguments: arguments))")
                return .done(.failure)
            }
            // A host that runs all day runs as the companion too: its runtime's pages (Foundation,
            // ICU's tables) are then the very pages the worker zygote and every worker have mapped,
            // shared rather than a private copy linked into this executable. Where it cannot be run
            // the host runs here, as before. So does the desktop surface, which lives as long.
            if ["run", "desktop"].contains(command.name), !SwiftRuntime.isShared, getenv(SwiftRuntime.handedOverVariable) == nil {
                let why = SwiftRuntime.becomeCompanion(arguments: arguments)
                HostLog.log(.debug, "the host runs in this process: \(why)")
            }
            return .command(command, invocation)
        } catch {
            return .done(failure(error, output))
        }
    }

    static func unknownCommand(_ name: String) -> UsageError {
        let names = Command.all.map(\.name)
        return UsageError(
            message: "unknown command '\(name)'\(Suggestion.hint(for: name, among: names)) (commands: \(names.joined(separator: ", ")), help)",
            command: nil)
    }

    /// The invocation the arguments make, or nil when they ask for the command's help.
    static func parse(
        _ arguments: ArraySlice<String>, for command: Command, global: [String: [String]] = [:], output: Output = Output()
    ) throws(UsageError) -> Invocation? {
        var positionals: [String] = []
        var given = global
        var remaining = arguments
        var optionsEnded = false
        func fail(_ message: String) -> UsageError { UsageError(message: message, command: command.name) }
        while let argument = remaining.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" { return nil }
            if let flag = globalFlag(argument) {
                given[flag] = [""]
                continue
            }
            guard argument.hasPrefix("--") else { throw fail("unknown option '\(argument)' for 'widgets \(command.name)'") }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = command.declaredOptions.first(where: { $0.name == name }) else {
                let hint = Suggestion.hint(for: "--\(name)", among: (command.declaredOptions + globalOptions).map { "--\($0.name)" })
                throw fail("unknown option '--\(name)' for 'widgets \(command.name)'\(hint)")
            }
            if spec.isFlag {
                guard inline == nil else { throw fail("option '--\(name)' takes no value") }
                given[name] = [""]
                continue
            }
            if let implicit = spec.implicitValue, inline == nil, remaining.first.map({ $0.hasPrefix("-") }) ?? true {
                given[name, default: []].append(implicit)
                continue
            }
            guard let value = inline ?? remaining.popFirst() else { throw fail("option '--\(name)' needs a value") }
            if let problem = spec.check(value) { throw fail(problem) }
            given[name, default: []].append(value)
        }
        if positionals.count < command.requiredArguments {
            let missing = command.arguments[positionals.count..<command.requiredArguments].joined(separator: " ")
            throw fail("'widgets \(command.name)' needs \(missing)")
        }
        if positionals.count > command.arguments.count, command.arguments.last?.hasSuffix("…]") != true {
            throw fail("unexpected argument '\(positionals[command.arguments.count])' for 'widgets \(command.name)'")
        }
        return Invocation(command: command, positionals: positionals, given: given, output: output)
    }

    static func usage(_ error: UsageError, _ output: Output) -> ExitCode {
        output.standardError("widgets: \(error.message)")
        output.standardError(error.command.map { "Run 'widgets \($0) --help' for its usage." } ?? "Run 'widgets --help' for the commands.")
        return .usage
    }
}

extension Command {
    static func named(_ name: String) -> Command? { all.first { $0.name == name } }
}
