/// A command's declaration: what it takes, and the help generated from it.
struct CommandSpec {
    let name: String
    let summary: String
    /// Positional arguments, by name (e.g. "KIND").
    let arguments: [String]
    /// Options that take a value, with their help.
    let valueOptions: [(name: String, value: String, help: String)]
    /// Flags, with their help.
    let flags: [(name: String, help: String)]
    let discussion: String

    var usage: String {
        var parts = ["widgets", name]
        if !valueOptions.isEmpty || !flags.isEmpty { parts.append("[options]") }
        parts += arguments
        return parts.joined(separator: " ")
    }

    var help: String {
        var text = "\(summary)\n\nUsage: \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let options =
            valueOptions.map { ("--\($0.name) \($0.value)", $0.help) } + flags.map { ("--\($0.name)", $0.help) }
            + globalOptions
        text += "\nOptions:\n"
        let width = options.map(\.0.count).max() ?? 0
        for (name, help) in options {
            text += "  \(name.padding(toLength: width + 2, withPad: " ", startingAt: 0))\(help)\n"
        }
        return text
    }
}

let globalOptions = [
    ("--plugins DIR", "load bundles from DIR only (default: WIDGETS_PATH, else ./widgets.d and the XDG data dir)"),
    ("-h, --help", "show help"),
]

/// A mistake on the command line: printed with a pointer to the help, exit code 2.
struct UsageError: Error {
    let message: String
    let command: String?
}

/// A parsed command line.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    /// Every value of each option, in order, for options given more than once (`--set`).
    var lists: [String: [String]] = [:]
    var flags: Set<String> = []
    var plugins: String?
    var help = false
}

func parse(_ arguments: ArraySlice<String>, for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var remaining = arguments
    var optionsEnded = false
    while let argument = remaining.popFirst() {
        if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
            parsed.positionals.append(argument)
            continue
        }
        if argument == "--" {
            optionsEnded = true
            continue
        }
        if argument == "-h" || argument == "--help" {
            parsed.help = true
            continue
        }
        guard argument.hasPrefix("--") else {
            throw UsageError(message: "unknown option '\(argument)' for 'widgets \(spec.name)'", command: spec.name)
        }
        var name = String(argument.dropFirst(2))
        var inlineValue: String?
        if let equals = name.firstIndex(of: "=") {
            inlineValue = String(name[name.index(after: equals)...])
            name = String(name[..<equals])
        }
        if name == "plugins" || spec.valueOptions.contains(where: { $0.name == name }) {
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw UsageError(message: "option '--\(name)' needs a value", command: spec.name)
            }
            if name == "plugins" {
                parsed.plugins = value
            } else {
                parsed.values[name] = value
                parsed.lists[name, default: []].append(value)
            }
        } else if spec.flags.contains(where: { $0.name == name }) {
            guard inlineValue == nil else {
                throw UsageError(message: "option '--\(name)' takes no value", command: spec.name)
            }
            parsed.flags.insert(name)
        } else {
            throw UsageError(message: "unknown option '--\(name)' for 'widgets \(spec.name)'", command: spec.name)
        }
    }
    if parsed.help { return parsed }
    // "[KIND]": an argument that may be left out.
    let required = spec.arguments.filter { !$0.hasPrefix("[") }.count
    if parsed.positionals.count < required {
        let missing = spec.arguments[parsed.positionals.count..<required].joined(separator: " ")
        throw UsageError(message: "'widgets \(spec.name)' needs \(missing)", command: spec.name)
    }
    if parsed.positionals.count > spec.arguments.count {
        throw UsageError(
            message: "unexpected argument '\(parsed.positionals[spec.arguments.count])' for 'widgets \(spec.name)'",
            command: spec.name)
    }
    return parsed
}
