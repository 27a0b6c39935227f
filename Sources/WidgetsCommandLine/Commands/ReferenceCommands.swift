import FoundationEssentials
import WidgetABI
import WidgetHost
import WidgetSupport
import WidgetWire

extension Command {
    static let completions = Command(
        "completions", summary: "Print the shell completion script for bash, zsh or fish, made from the command table.",
        arguments: ["SHELL"],
        discussion: """
            'make install' installs all three. By hand: widgets completions bash > ~/.local/share/bash-completion/completions/widgets
            (zsh: a file _widgets on $fpath; fish: ~/.config/fish/completions/widgets.fish). Kinds and instance ids
            are completed from 'widgets list --short' and 'widgets instances'.
            """
    ) { try $0.completions(shell: $0.positionals[0]) }

    static let man = Command(
        "man", summary: "Print the widgets(1) man page (roff), made from the command table.",
        discussion: "'make install' installs it; to read it here: widgets man | man -l -"
    ) { $0.manPage() }
}

/// The command-line reference in the forms other programs read: a man page and shell completions.
/// Made from `Command.all` and the options each declares, so neither can drift from the code.
enum Reference {
    static let shells = ["bash", "zsh", "fish"]

    /// What completes an option's value: its choices, or a kind of thing.
    enum ValueCompletion {
        case choices([String])
        case directories
        case files
        case kinds
        case kindsOrFiles
        case instances
        case none
    }

    static func completion(of option: OptionSpec) -> ValueCompletion {
        if !option.choices.isEmpty { return .choices(option.choices) }
        switch option.valueName {
        case "DIR": return .directories
        case "FILE", "PATH": return .files
        case "ID": return .instances
        case "KIND": return .kinds
        default: return .none
        }
    }

    /// What completes a positional argument.
    static func completion(ofArgument argument: String) -> ValueCompletion {
        let bare = argument.trimmingAny(of: "[]….")
        switch bare {
        case "KIND": return .kinds
        case "ID": return .instances
        case "PATH": return .files
        case "KIND|PATH": return .kindsOrFiles
        case "SHELL": return .choices(shells)
        default: return .none
        }
    }

    static func options(of command: Command) -> [OptionSpec] { command.declaredOptions + CLI.globalOptions }

    // MARK: bash

    static func bash() -> String {
        var cases = ""
        for command in Command.all {
            let words = options(of: command).map { "--\($0.name)" }.joined(separator: " ")
            var values = ""
            for option in command.declaredOptions where !option.isFlag {
                // A value of any text completes to nothing, but is not taken for an argument.
                let words = bashWords(completion(of: option))
                values += "            --\(option.name)) \(words.isEmpty ? "" : words + "; ")return ;;\n"
            }
            let argument = command.arguments.first.map { bashWords(completion(ofArgument: $0)) } ?? ""
            cases += """
                    \(command.name))
                        case "$previous" in
                \(values)        esac
                        if [[ "$current" == -* ]]; then COMPREPLY=($(compgen -W "\(words)" -- "$current")); return; fi
                        \(argument.isEmpty ? ":" : argument)
                        ;;

                """
        }
        let commands = Command.all.map(\.name).joined(separator: " ")
        return """
            # bash completion for widgets: made by 'widgets completions bash' from its command table.
            _widgets_kinds() { widgets list --short 2>/dev/null | cut -d' ' -f1; }
            _widgets_instances() { widgets instances --json 2>/dev/null | tr ',{' '\\n\\n' | sed -n 's/.*"id" *: *"\\([^"]*\\)".*/\\1/p'; }
            _widgets() {
                local current="${COMP_WORDS[COMP_CWORD]}" previous="${COMP_WORDS[COMP_CWORD-1]}" command="" word
                for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
                    case "$word" in -*) ;; *) if [[ -z "$command" && "$previous_was_plugins" != 1 ]]; then command="$word"; fi ;; esac
                    if [[ "$word" == --plugins ]]; then previous_was_plugins=1; else previous_was_plugins=0; fi
                done
                if [[ -z "$command" ]]; then
                    if [[ "$previous" == --plugins ]]; then COMPREPLY=($(compgen -d -- "$current")); return; fi
                    COMPREPLY=($(compgen -W "\(commands) help --help --version --plugins -v -q" -- "$current"))
                    return
                fi
                case "$command" in
            \(cases)    esac
            }
            complete -F _widgets widgets

            """
    }

    static func bashWords(_ completion: ValueCompletion) -> String {
        switch completion {
        case .choices(let words): "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$current\"))"
        case .directories: "COMPREPLY=($(compgen -d -- \"$current\"))"
        case .files: "COMPREPLY=($(compgen -f -- \"$current\"))"
        case .kinds: "COMPREPLY=($(compgen -W \"$(_widgets_kinds)\" -- \"$current\"))"
        case .kindsOrFiles: "COMPREPLY=($(compgen -W \"$(_widgets_kinds)\" -- \"$current\") $(compgen -f -- \"$current\"))"
        case .instances: "COMPREPLY=($(compgen -W \"$(_widgets_instances)\" -- \"$current\"))"
        case .none: ""
        }
    }

    // MARK: zsh

    static func zsh() -> String {
        func escape(_ text: String) -> String {
            text.replacing("'", with: "'\\''").replacing("[", with: "\\[").replacing("]", with: "\\]")
                .replacing(":", with: "\\:")
        }
        func action(_ completion: ValueCompletion) -> String {
            switch completion {
            case .choices(let words): "(\(words.joined(separator: " ")))"
            case .directories: "_files -/"
            case .files: "_files"
            case .kinds: "_widgets_kinds"
            case .kindsOrFiles: "_alternative 'kinds:kind:_widgets_kinds' 'files:bundle:_files'"
            case .instances: "_widgets_instances"
            case .none: " "
            }
        }
        var functions = ""
        for command in Command.all {
            var specs = options(of: command).map { option -> String in
                let help = escape(option.help)
                if option.isFlag { return "'--\(option.name)[\(help)]'" }
                return "'\(option.repeatable ? "*" : "")--\(option.name)=[\(help)]:\(option.valueName ?? "VALUE"):\(action(completion(of: option)))'"
            }
            for (index, argument) in command.arguments.enumerated() {
                let rest = argument.hasSuffix("…]")
                specs.append("'\(rest ? "*" : "\(index + 1)"):\(escape(argument)):\(action(completion(ofArgument: argument)))'")
            }
            functions += "_widgets_\(command.name.replacing("-", with: "_"))() {\n    _arguments -s \\\n        "
                + specs.joined(separator: " \\\n        ") + "\n}\n\n"
        }
        let commands = Command.all.map { "'\($0.name):\(escape($0.summary))'" }.joined(separator: "\n        ")
        return """
            #compdef widgets
            # zsh completion for widgets: made by 'widgets completions zsh' from its command table.
            _widgets_kinds() { local -a kinds; kinds=(${(f)"$(widgets list --short 2>/dev/null | cut -d' ' -f1)"}); _describe 'kind' kinds; }
            _widgets_instances() { local -a ids; ids=(${(f)"$(widgets instances --json 2>/dev/null | tr ',{' '\\n\\n' | sed -n 's/.*"id" *: *"\\([^"]*\\)".*/\\1/p')"}); _describe 'instance' ids; }

            \(functions)_widgets() {
                local -a commands
                commands=(
                    \(commands)
                )
                _arguments -C '--plugins=[load bundles from DIR only]:DIR:_files -/' '(-v --verbose)'{-v,--verbose}'[say more]' \\
                    '(-q --quiet)'{-q,--quiet}'[say only warnings and errors]' '--version[print the version]' '1: :->command' '*:: :->arguments'
                case $state in
                    command) _describe 'command' commands ;;
                    arguments) (( $+functions[_widgets_${words[1]//-/_}] )) && _widgets_${words[1]//-/_} ;;
                esac
            }

            _widgets "$@"

            """
    }

    // MARK: fish

    static func fish() -> String {
        func quoted(_ text: String) -> String { "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'" }
        func arguments(_ completion: ValueCompletion) -> String {
            switch completion {
            case .choices(let words): " -x -a \(quoted(words.joined(separator: " ")))"
            case .directories: " -x -a '(__fish_complete_directories)'"
            case .files: " -r -F"
            case .kinds: " -x -a '(widgets list --short 2>/dev/null | string split -f1 \" \")'"
            case .kindsOrFiles: " -F -a '(widgets list --short 2>/dev/null | string split -f1 \" \")'"
            case .instances: " -x -a '(widgets instances --json 2>/dev/null | string match -ar \"\\\"id\\\" *: *\\\"[^\\\"]*\" | string replace -r \".*\\\"\" \"\")'"
            case .none: " -x"
            }
        }
        var lines = [
            "# fish completion for widgets: made by 'widgets completions fish' from its command table.",
            "complete -c widgets -f",
            "complete -c widgets -n __fish_use_subcommand -l plugins -x -a '(__fish_complete_directories)' -d 'load bundles from DIR only'",
            "complete -c widgets -n __fish_use_subcommand -l version -d 'print the version'",
            "complete -c widgets -s v -l verbose -d 'say more'",
            "complete -c widgets -s q -l quiet -d 'say only warnings and errors'",
        ]
        for command in Command.all {
            lines.append("complete -c widgets -n __fish_use_subcommand -a \(command.name) -d \(quoted(command.summary))")
            for option in command.declaredOptions {
                let value = option.isFlag ? "" : arguments(completion(of: option))
                lines.append("complete -c widgets -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name)\(value) -d \(quoted(option.help))")
            }
            if let argument = command.arguments.first {
                let completion = completion(ofArgument: argument)
                if case .none = completion { continue }
                lines.append("complete -c widgets -n '__fish_seen_subcommand_from \(command.name)'\(arguments(completion))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: man

    static func manPage(date: Date = Date()) -> String {
        func roff(_ text: String) -> String {
            // Characters beyond ASCII as groff's named glyphs (`\[u2026]`), for any man reader.
            let escaped = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
            return escaped.unicodeScalars.map { $0.isASCII ? String($0) : cFormat("\\[u%04X]", $0.value) }.joined()
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }.joined(separator: "\n")
        }
        let day = ISODate.day(date)
        var page = """
            .TH WIDGETS 1 "\(day)" "widgets \(WidgetsRelease.version)" "User Commands"
            .SH NAME
            widgets \\- host and inspect WidgetKit\\-style widget bundles on Linux
            .SH SYNOPSIS
            .B widgets
            [\\fB\\-\\-plugins\\fR \\fIDIR\\fR] [\\fB\\-v\\fR|\\fB\\-q\\fR] \\fICOMMAND\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]
            .br
            .B widgets \\-\\-version
            .SH DESCRIPTION
            Widget bundles are shared objects (.so) that export one C\\-ABI entry through which they register
            the widgets of a WidgetKit\\-style WidgetBundle.
            .B widgets
            lists and loads them, asks their providers for placeholders, snapshots and timelines, keeps widget
            instances and their configurations, and runs the host: timelines, reloads under a daily budget, deep
            links and intents, a terminal dashboard, and a home screen in a browser.
            Each bundle runs in a worker process of its own under a 30 MB memory guard.
            .SH COMMANDS

            """
        for command in Command.all {
            page += ".TP\n.B \(roff(command.usage.replacing("widgets ", with: "")))\n\(roff(command.summary))\n"
            if !command.discussion.isEmpty { page += ".RS\n\(roff(command.discussion.replacing("\n", with: " ")))\n.RE\n" }
            for option in command.declaredOptions {
                page += ".RS\n.TP\n.B \(roff(option.synopsis))\(option.repeatable ? " ..." : "")\n\(roff(option.help))\n.RE\n"
            }
        }
        page += """
            .SH OPTIONS
            These are taken by every command.

            """
        for option in CLI.globalOptions {
            page += ".TP\n.B \(roff(option.synopsis))\n\(roff(option.help))\n"
        }
        page += """
            .TP
            .B \\-\\-plugins \\fIDIR\\fR
            Load bundles from DIR only.
            .SH ENVIRONMENT
            .TP
            .B WIDGETS_PATH
            Directories to load bundles from, colon\\-separated, in place of the default search path.
            .TP
            .B WIDGETS_LOG
            debug, info, warning or error: how much the host says (\\fB\\-v\\fR and \\fB\\-q\\fR win).
            .TP
            .B WIDGETS_LOAD_DEADLINE
            Seconds a bundle may take to load before it is refused (default 10).
            .TP
            .B WIDGETS_WORKER_IDLE
            Seconds a bundle's worker asked nothing lives on before it is stopped, to start again (in a few milliseconds) at its next request; \\fBnever\\fR keeps workers running (default 300).
            .TP
            .B WIDGETS_WORKER_RELEASE
            Seconds a bundle's worker asked nothing keeps the pages of the files it maps read\\-only (its code, the runtime's) before it gives them back, to map them again from the page cache at its next request; \\fBnever\\fR keeps them (default 2).
            .TP
            .B WIDGETS_ZYGOTE
            \\fBoff\\fR: start each worker from the worker executable, not forked from the zygote that has the runtime loaded.
            .TP
            .B XDG_DATA_HOME, XDG_STATE_HOME, XDG_CACHE_HOME, XDG_RUNTIME_DIR
            Where the user's bundles, the instances, the registry cache and the control socket are.
            .SH FILES
            .TP
            .I ./widgets.d, $XDG_DATA_HOME/widgets/widgets.d, PREFIX/lib/widgets/widgets.d
            The default search path for bundles, in this order.
            .TP
            .I PREFIX/lib/widgets/widgets\\-worker
            The worker process of every bundle (and the CLI itself under \\fB\\-\\-isolation queue\\fR): this program with the shared Swift runtime that bundles link.
            .TP
            .I $XDG_STATE_HOME/widgets/instances.json
            The widget instances and their configurations.
            .TP
            .I $XDG_CACHE_HOME/widgets/registry.json
            What each bundle registered, so listing needs no bundle's code (\\fB\\-\\-no\\-cache\\fR bypasses it).
            .TP
            .I $XDG_RUNTIME_DIR/widgets/control.sock
            The running host's control socket (owner only).
            .TP
            .I PREFIX/share/systemd/user/widgets.service
            The host as a user service: \\fBsystemctl \\-\\-user enable \\-\\-now widgets\\fR.
            .SH EXIT STATUS
            0 on success, 1 when a bundle was refused or a request failed, 2 on a usage error.
            .SH SEE ALSO
            .BR systemctl (1),
            .BR journalctl (1)

            """
        return page
    }
}

extension Invocation {
    func completions(shell: String) throws(UsageError) -> ExitCode {
        switch shell {
        case "bash": output.standardOutputPart(Reference.bash())
        case "zsh": output.standardOutputPart(Reference.zsh())
        case "fish": output.standardOutputPart(Reference.fish())
        default:
            throw usageError("no completions for '\(shell)'\(Suggestion.hint(for: shell, among: Reference.shells)) (shells: bash, zsh, fish)")
        }
        return .success
    }

    func manPage() -> ExitCode {
        output.standardOutputPart(Reference.manPage())
        return .success
    }
}
