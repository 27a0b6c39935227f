import FoundationEssentials
import WidgetSupport

/// Runs the tools a build uses (`swiftc`, `swift package`), their diagnostics passed through to the
/// user as the tool writes them, or captured.
public struct ProcessRunner: Sendable {
    /// Whether a tool's output goes to this process's standard error as it comes (else it is
    /// captured and returned).
    public var passesOutputThrough: Bool
    /// Called with each command before it runs (`--verbose`).
    public var echo: (@Sendable (String) -> Void)?

    public init(passesOutputThrough: Bool = true, echo: (@Sendable (String) -> Void)? = nil) {
        self.passesOutputThrough = passesOutputThrough
        self.echo = echo
    }

    public struct Outcome: Sendable {
        public var status: Int32
        public var output: String
    }

    /// Runs `executable` with `arguments`; its standard output is always captured (a tool's answer),
    /// its standard error passed through or captured into `output` too.
    public func run(_ executable: String, _ arguments: [String], directory: String? = nil) throws(BuildError) -> Outcome {
        echo?(([executable] + arguments).map(Self.quoted).joined(separator: " "))
        do {
            let outcome = try Subprocess(executable, arguments, directory: directory, standardError: passesOutputThrough ? .inherit : .capture).finish()
            let text = String(decoding: outcome.output, as: UTF8.self) + String(decoding: outcome.errors, as: UTF8.self)
            return Outcome(status: outcome.status, output: text)
        } catch {
            throw BuildError(error.description)
        }
    }

    static func quoted(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { " \"'$\\#&;|<>()*?".contains($0) }) else { return word }
        return "'" + word.replacing("'", with: "'\\''") + "'"
    }

}
