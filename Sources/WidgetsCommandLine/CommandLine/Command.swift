/// A command: its declaration (what help, the man page and the completions show) and what it does.
/// The table of commands (`Command.all`) is the one place a command is named; dispatch, help and
/// their tests all read it.
struct Command: Sendable {
    let name: String
    let summary: String
    /// Positional arguments by placeholder; `[KIND]` may be left out.
    let arguments: [String]
    let declaredOptions: [OptionSpec]
    let discussion: String
    /// What it does. A `UsageError` it throws is printed with a pointer to its help (exit code 2);
    /// any other error as one line (exit code 1).
    let action: @Sendable (Invocation) async throws -> ExitCode
    /// What it does run on the main thread, before any task: for a command that lives all day and
    /// must not wake (`desktop`), as libdispatch's worker pool, which tasks run on, would every
    /// second. `action` is then the same, run from a task.
    let withoutTasks: (@Sendable (Invocation) throws -> ExitCode)?

    init(
        _ name: String, summary: String, arguments: [String] = [], options: [OptionSpec] = [], discussion: String = "",
        withoutTasks: (@Sendable (Invocation) throws -> ExitCode)? = nil, action: @escaping @Sendable (Invocation) async throws -> ExitCode
    ) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.declaredOptions = options
        self.discussion = discussion
        self.action = action
        self.withoutTasks = withoutTasks
    }

    func declares(_ name: String) -> Bool { declaredOptions.contains { $0.name == name } }

    /// How many positional arguments it needs, and may take.
    /// Arguments in brackets are optional; a last one ending in "…]" (`[ID…]`) takes any number.
    var requiredArguments: Int { arguments.filter { !$0.hasPrefix("[") }.count }

    var usage: String {
        var parts = ["widgets", name]
        if !declaredOptions.isEmpty { parts.append("[options]") }
        parts += arguments
        return parts.joined(separator: " ")
    }

    /// Its help, wrapped at `width` columns.
    func help(width: Int = HelpText.width) -> String {
        var text = HelpText.fill(summary, width: width) + "\n\nUsage: \(usage)\n"
        if !discussion.isEmpty { text += "\n" + HelpText.fill(discussion, width: width) + "\n" }
        let rows = declaredOptions.map { ($0.synopsis + ($0.repeatable ? " ..." : ""), $0.help) } + CLI.globalOptions.map { ($0.synopsis, $0.help) }
        return text + "\nOptions:\n" + HelpText.columns(rows, width: width) + "\n"
    }
}

/// Exit codes: 0 success, 1 a refused bundle or failed request, 2 a usage error.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
}
