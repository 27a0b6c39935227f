/// Why a bundle file, or one widget it registers, was refused. Each prints as one line naming the
/// file and the reason; the other bundles load regardless.
public struct LoadProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: String, Equatable, Sendable {
        case notRegularFile
        case danglingSymlink
        case insecurePermissions
        case unreadable
        case notSharedObject
        case truncated
        case wrongArchitecture
        case dlopenFailed
        case missingEntrySymbol
        case abiMismatch
        case toolchainMismatch
        case invalidBundle
        case initializationFailed
        case invalidWidget
        case duplicateKind
        case alreadyLoaded
        /// Process isolation: the worker loading it crashed, hung, or could not be started.
        case crashed
        case timedOut
        case workerFailed
    }

    /// The file, as found on the search path.
    public let path: String
    public let reason: Reason
    public let message: String

    public init(path: String, reason: Reason, message: String) {
        self.path = path
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
