import FoundationEssentials
import WidgetABI

/// Why a request produced no usable result. Prints as one line naming the widget and its bundle.
public struct RequestError: Error, Sendable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case unknownKind
        case unsupportedFamily
        case providerFailed
        case timedOut
        case memoryLimitExceeded
        /// Not sent: the provider is quarantined or stuck inside an earlier call.
        case refused
        /// Its worker process crashed, hung and was killed, or is disabled (process isolation).
        case crashed
        case malformedResult
        case invalidResult
        /// Options or recommendations of a widget that has no configuration.
        case notConfigurable
    }

    public let kind: String
    public let bundlePath: String?
    public let reason: Reason
    public let message: String

    public var description: String { described(as: "widget") }

    /// The error naming what was asked as `noun` ("Live Activity", "control"): `noun "kind" (file.so): why`.
    public func described(as noun: String) -> String {
        let bundle = bundlePath.map { " (\($0.pathFileName))" } ?? ""
        return "\(noun) \"\(kind)\"\(bundle): \(message)"
    }

    static func timedOut(_ requestKind: RequestKind, kind: String, bundlePath: String, deadline: Duration) -> RequestError {
        RequestError(
            kind: kind, bundlePath: bundlePath, reason: .timedOut, message: "\(requestKind.rawValue) did not complete within \(deadline)")
    }
}
