import FoundationEssentials
import Glibc
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
    ///
    /// The tool's temporary directory (`TMPDIR`) is one made for this run, removed with what is in
    /// it when the tool ends: the Swift driver makes a `TemporaryDirectory.*` for each compile and
    /// leaves it behind, which under `widgets build --watch` would be a directory in /tmp per save.
    public func run(_ executable: String, _ arguments: [String], directory: String? = nil) throws(BuildError) -> Outcome {
        echo?(([executable] + arguments).map(Self.quoted).joined(separator: " "))
        let scratch = Self.makeScratchDirectory(in: FileManager.default.temporaryDirectory.path)
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        var toolEnvironment = ProcessInfo.processInfo.environment
        if let scratch { toolEnvironment["TMPDIR"] = scratch }
        do {
            let outcome = try Subprocess(
                executable, arguments, environment: toolEnvironment, directory: directory, standardError: passesOutputThrough ? .inherit : .capture
            ).finish()
            let text = String(decoding: outcome.output, as: UTF8.self) + String(decoding: outcome.errors, as: UTF8.self)
            return Outcome(status: outcome.status, output: text)
        } catch {
            throw BuildError(error.description)
        }
    }

    /// A new directory of this user's only, in `parent`; nil when none can be made there (the tool
    /// then has the inherited `TMPDIR`).
    static func makeScratchDirectory(in parent: String) -> String? {
        var template = Array((parent + "/widgets-build.XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
    }

    static func quoted(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { " \"'$\\#&;|<>()*?".contains($0) }) else { return word }
        return "'" + word.replacing("'", with: "'\\''") + "'"
    }

}
