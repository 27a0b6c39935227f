import FoundationEssentials
import Glibc
import Synchronization
import WidgetSupport
import WidgetWire

/// A command as invoked: its positional arguments and the options given, read through the typed
/// handles the command declared (`Options`), and where its output goes.
struct Invocation: Sendable {
    let command: Command
    let positionals: [String]
    /// Each option given, by name, with its values in order ("" for a flag).
    let given: [String: [String]]
    let output: Output

    /// The command's name, for a usage error's pointer to its help.
    var name: String { command.name }

    /// The option's value (its last, when given several times); nil when not given.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        try values(option).last
    }

    /// The option's value for a command that declares it; nil for one that does not (shared code,
    /// such as loading bundles, that takes `--memory-limit` where a command offers it).
    func valueIfDeclared<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        command.declares(option.spec.name) ? try value(option) : nil
    }

    /// Every value given for the option, in order.
    func values<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
        precondition(reads(option.spec), "'widgets \(command.name)' reads --\(option.spec.name) but does not declare it")
        return try (given[option.spec.name] ?? []).map { text throws(UsageError) in
            switch option.parse(text) {
            case .success(let value): return value
            case .failure(let failure): throw UsageError(message: failure.text, command: command.name)
            }
        }
    }

    /// The host's log level: `-v` (debug) or `-q` (warning), else `WIDGETS_LOG` (of `environment`,
    /// else of this process), else info.
    func logLevel(environment: [String: String]? = nil) throws(UsageError) -> LogLevel {
        if isSet(Options.verbose), isSet(Options.quiet) { throw usageError("-v and -q say opposite things; give one") }
        if isSet(Options.verbose) { return .debug }
        if isSet(Options.quiet) { return .warning }
        let variable = environment.map { $0["WIDGETS_LOG"] } ?? getenv("WIDGETS_LOG").map { String(cString: $0) }
        guard let name = variable, !name.isEmpty else { return .info }
        guard let level = LogLevel(named: name) else {
            throw usageError("WIDGETS_LOG is '\(name)'; it takes \(LogLevel.allCases.map(\.name).joined(separator: ", "))")
        }
        return level
    }

    /// Whether a flag was given.
    func isSet(_ flag: Option<Bool>) -> Bool {
        precondition(reads(flag.spec), "'widgets \(command.name)' reads --\(flag.spec.name) but does not declare it")
        return given[flag.spec.name] != nil
    }

    /// Whether the command may read the option: it declares it, or every command takes it.
    private func reads(_ option: OptionSpec) -> Bool {
        command.declares(option.name) || CLI.globalOptions.contains { $0.name == option.name }
    }

    /// The `index`th positional argument, if given.
    func argument(_ index: Int) -> String? {
        positionals.indices.contains(index) ? positionals[index] : nil
    }

    /// A usage error about this command.
    func usageError(_ message: String) -> UsageError {
        UsageError(message: message, command: command.name)
    }
}

/// Where a command's output goes: standard output and error, written at once, line by line, not
/// through stdio's buffer (`widgets run` is read live from pipes); tests collect it instead.
struct Output: Sendable {
    /// A line. Control characters in it (a file name's escape sequence, a bundle's) are shown by
    /// their codes, never sent to the terminal; line breaks and tabs stay.
    var standardOutput: @Sendable (String) -> Void = { Output.write($0.visibleOnTerminal + "\n", to: STDOUT_FILENO) }
    /// Part of a line: for output written as it is made (a large timeline), not built whole first.
    /// Written as it is: JSON escapes its own, and renderings draw with escape sequences of their own.
    var standardOutputPart: @Sendable (String) -> Void = { Output.write($0, to: STDOUT_FILENO) }
    var standardError: @Sendable (String) -> Void = { Output.write($0.visibleOnTerminal + "\n", to: STDERR_FILENO) }

    /// A terminal drawing, written as it is: the renderer has already made the widget's text
    /// printable, and its colours are escape sequences of its own.
    func drawing(_ lines: [String]) {
        standardOutputPart(lines.joined(separator: "\n") + "\n")
    }

    /// The error (errno) when output could not be written (a full disk, a closed descriptor): the
    /// command's status then says so (74, EX_IOERR) instead of success with output cut short.
    static let writeFailed = Atomic<Int32>(0)

    /// Writes the whole text, in as many parts as the descriptor takes (a pipe takes at most its
    /// buffer; one left non-blocking is waited for). Stops when the reader is gone (EPIPE, with
    /// SIGPIPE ignored: nothing more to say), and notes any other failure in `writeFailed`.
    static func write(_ text: String, to descriptor: Int32) {
        if let error = writeWhole(text, to: descriptor), error != EPIPE { Output.writeFailed.store(error, ordering: .relaxed) }
    }
}
